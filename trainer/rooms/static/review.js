// The coach's review of one seat's room game, drawn on the room page.
//
// drawReview(el, payload) draws what trainer/rooms/review.py sends ({"type": "review", ...}):
// "working" (done/total: a progress bar), "error" (one line) or "done" (the review). Every
// sentence comes from the payload (the coach's checked sentences and lesson 9's wording); this
// file adds headings and labels only. options.download, when given, is a function that returns
// a Promise of a Blob: the game as a progress file, offered as a download.

const STYLE_ID = "hr-review-style";
const CSS = `
.hr-review {
  --ink: #1b1b1b; --red: #c8102e; --focus: #ffbf47; --felt: #1f6b45;
  font-family: system-ui, sans-serif; color: var(--ink); background: #f6f4ee;
  border-radius: 12px; padding: 0.75rem; max-width: 960px; margin-top: 0.75rem;
  line-height: 1.4; overflow-wrap: anywhere;
}
.hr-review h2 { font-size: 1.25rem; margin: 0.2rem 0 0.5rem; }
.hr-review h3 { font-size: 1.05rem; margin: 1rem 0 0.4rem; }
.hr-review p { margin: 0.35rem 0; }
.hr-review .hr-lead { font-weight: 600; font-size: 1.1rem; }
.hr-review .hr-scroll { overflow-x: auto; }
.hr-review .hr-scroll:focus-visible, .hr-review button:focus-visible, .hr-review a:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
.hr-review table { border-collapse: collapse; font-variant-numeric: tabular-nums; overflow-wrap: normal; }
.hr-review caption { text-align: left; font-weight: 600; padding: 0.2rem 0; }
.hr-review .hr-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.hr-review th, .hr-review td { padding: 0.2rem 0.5rem; border-bottom: 1px solid #d8d3c4; text-align: right;
  white-space: nowrap; }
.hr-review th[scope="col"] { border-bottom: 2px solid #b9b2a0; }
.hr-review td.hr-text, .hr-review th.hr-text { text-align: left; }
.hr-review tr.hr-all td { font-weight: 700; }
.hr-review .hr-red { color: var(--red); }
.hr-review .hr-moments { list-style: none; padding: 0; margin: 0; }
.hr-review .hr-moment { background: #fff; border-radius: 8px; padding: 0.5rem 0.75rem; margin: 0.5rem 0;
  border-left: 6px solid #b9b2a0; }
.hr-review .hr-moment.hr-mistake { border-left-color: #d98b00; }
.hr-review .hr-moment.hr-blunder { border-left-color: var(--red); }
.hr-review .hr-moment h4 { margin: 0 0 0.3rem; font-size: 1rem; }
.hr-review .hr-cards { font-size: 1.05rem; letter-spacing: 0.02em; }
.hr-review .hr-seen { color: #4a4638; font-size: 0.95rem; }
.hr-review progress { width: 100%; max-width: 28rem; height: 1.1rem; }
.hr-review button { font: inherit; color: #fff; background: var(--felt); border: 0; border-radius: 8px;
  padding: 0.45rem 0.9rem; cursor: pointer; min-height: 2.75rem; }
.hr-review button[disabled] { opacity: 0.6; cursor: default; }
.hr-review .hr-error { color: #8a0b20; font-weight: 600; }
@media (max-width: 560px) {
  .hr-review { padding: 0.4rem; border-radius: 0; }
  .hr-review table { font-size: 0.75rem; }
  .hr-review th, .hr-review td { padding: 0.2rem 0.1rem 0.2rem 0.15rem; }
  .hr-review th[scope="col"] { white-space: normal; vertical-align: bottom; }
}
`;

function addStyle(doc) {
  if (doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement("style");
  style.id = STYLE_ID;
  style.textContent = CSS;
  doc.head.appendChild(style);
}

function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of [].concat(children)) {
    if (child == null) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// A sentence as text, its **bold** and *italic* parts (lesson 9's markdown) in <strong> and <em>,
// hearts and diamonds red. Nothing in it is read as HTML.
function sentence(text, tag = "p") {
  const node = h(tag);
  for (const part of text.split(/(\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/)) {
    if (!part) continue;
    if (part.startsWith("**")) cards(node.appendChild(h("strong")), part.slice(2, -2));
    else if (part.startsWith("*") && part.length > 2) cards(node.appendChild(h("em")), part.slice(1, -1));
    else cards(node, part);
  }
  return node;
}

function cards(target, text) {
  for (const piece of text.split(/((?:10|[2-9JQKA])[♥♦])/u)) {
    if (!piece) continue;
    if (/^(?:10|[2-9JQKA])[♥♦]$/u.test(piece)) target.append(h("span", { class: "hr-red", text: piece }));
    else target.append(document.createTextNode(piece));
  }
}

// As lesson 9's table writes a figure: its sign always shown (+0.0 too), one decimal.
function signed(value) {
  const text = Math.abs(value).toFixed(1);
  return value < 0 && text !== "0.0" ? `-${text}` : `+${text}`;
}

function scroller(label, child) {
  // A wide table scrolls sideways on a phone; the keyboard can scroll it too.
  return h("div", { class: "hr-scroll", tabindex: "0", role: "region", "aria-label": label }, child);
}

function working(el, payload) {
  const done = payload.done || 0;
  const total = payload.total || 0;
  const ahead = payload.ahead || 0;
  const text = total
    ? `The coach is looking at your decisions: ${done} of ${total}.`
    : ahead
      ? `The coach looks at one game at a time: ${ahead} ${ahead === 1 ? "review is" : "reviews are"} ahead of yours.`
      : "The coach is starting on your game.";
  el.append(
    h("h2", { text: "Your review" }),
    h("p", { id: "hr-working", text }),
    h("progress", { max: String(total || 1), value: String(done), "aria-labelledby": "hr-working" }),
  );
}

function handsTable(payload) {
  const head = ["hand", "pass", "your points", "cards", "decisions", "luck", "result"];
  const rows = payload.hands.map((hand) =>
    h("tr", {}, [
      h("th", { scope: "row", text: String(hand.hand) }),
      h("td", { class: "hr-text", text: hand.pass }),
      h("td", { text: String(hand.points) }),
      h("td", { text: signed(hand.cards) }),
      h("td", { text: signed(hand.decisions) }),
      h("td", { text: signed(hand.luck) }),
      h("td", { text: signed(hand.result) }),
    ]),
  );
  const all = payload.all;
  rows.push(
    h("tr", { class: "hr-all" }, [
      h("th", { scope: "row", text: "all" }),
      h("td", { class: "hr-text", text: "" }),
      h("td", { text: String(all.points) }),
      h("td", { text: signed(all.cards) }),
      h("td", { text: signed(all.decisions) }),
      h("td", { text: signed(all.luck) }),
      h("td", { text: signed(all.result) }),
    ]),
  );
  return h("table", {}, [
    h("caption", { class: "hr-text", text: "Hand by hand (points: lower is better)" }),
    h("thead", {}, h("tr", {}, head.map((name, i) =>
      h("th", { scope: "col", class: i < 2 ? "hr-text" : "", text: name })))),
    h("tbody", {}, rows),
  ]);
}

function scoreTable(payload) {
  const head = h("tr", {}, [
    h("th", { scope: "col", text: "hand" }),
    ...payload.players.map((p) => h("th", { scope: "col", text: p.you ? `${p.name} (you)` : p.name })),
  ]);
  const rows = payload.scores.map((row, i) =>
    h("tr", {}, [h("th", { scope: "row", text: String(i + 1) }), ...row.map((n) => h("td", { text: String(n) }))]),
  );
  rows.push(
    h("tr", { class: "hr-all" }, [
      h("th", { scope: "row", text: "total" }),
      ...payload.players.map((p) => h("td", { text: String(p.total) })),
    ]),
  );
  return h("table", {}, [
    h("caption", { class: "hr-hidden", text: "Score sheet" }),
    h("thead", {}, head),
    h("tbody", {}, rows),
  ]);
}

function moment(m, number) {
  const seen = m.seen;
  // The heading says where and what was chosen; the coach's own sentences say how good it was.
  const title = h("h4", {}, [`${number}. ${m.where[0].toUpperCase()}${m.where.slice(1)}: you chose `]);
  cards(title, m.choice);
  const lines = [title];
  const hand = h("p", { class: "hr-seen" }, [
    m.kind === "pass" ? `Your hand, passing ${seen.pass_direction}: ` : "Your hand: ",
  ]);
  cards(hand.appendChild(h("span", { class: "hr-cards" })), seen.hand.join(" "));
  lines.push(hand);
  if (seen.trick) {
    const trick = h("p", { class: "hr-seen" }, ["Trick so far: "]);
    if (!seen.trick.length) trick.append("you lead.");
    seen.trick.forEach((play, i) => {
      if (i) trick.append(", ");
      trick.append(`${play.name} `);
      cards(trick.appendChild(h("span", { class: "hr-cards" })), play.card);
    });
    lines.push(trick);
  }
  for (const text of m.verdict) lines.push(sentence(text));
  return h("li", { class: `hr-moment hr-${m.band}` }, lines);
}

function downloadButton(download) {
  const button = h("button", { type: "button", text: "Download this game for your progress" });
  const note = h("p", { role: "status", "aria-live": "polite" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    note.textContent = "";
    try {
      const blob = await download();
      const link = h("a", { href: URL.createObjectURL(blob), download: "hearts-trainer-room-game.json" });
      document.body.append(link);
      link.click();
      link.remove();
      note.textContent =
        "Saved. Import it with: hearts-trainer import-progress hearts-trainer-room-game.json";
    } catch (error) {
      note.textContent = `The game could not be downloaded: ${error.message || error}`;
    } finally {
      button.disabled = false;
    }
  });
  return h("div", {}, [button, note]);
}

function done(el, payload, options) {
  el.append(h("h2", { text: "Your review" }));
  const [headline, ...counts] = payload.lines;
  el.append(h("p", { class: "hr-lead", text: headline }), ...counts.map((text) => sentence(text)));
  el.append(h("h3", { text: "Luck and skill" }), sentence(payload.explain));
  el.append(scroller("Luck and skill, hand by hand", handsTable(payload)));
  for (const hand of payload.hands) {
    if (hand.note.length) el.append(sentence(hand.note.join(" ")));
  }
  el.append(h("h3", { text: "Key moments" }));
  if (!payload.moments.length) el.append(sentence(payload.no_moments));
  else if (payload.seat_words.length) {
    el.append(h("p", { class: "hr-seen", text: "The coach names seats from yours: " +
      payload.seat_words.map((s) => `${s.seat} is ${s.name}`).join(", ") + "." }));
  }
  el.append(h("ol", { class: "hr-moments" }, payload.moments.map((m, i) => moment(m, i + 1))));
  el.append(h("h3", { text: "Score sheet" }), scroller("Score sheet", scoreTable(payload)));
  if (payload.kept) el.append(sentence(payload.kept));
  if (options.download) el.append(downloadButton(options.download));
}

export function drawReview(el, payload, options = {}) {
  addStyle(el.ownerDocument || document);
  el.replaceChildren();
  el.classList.add("hr-review");
  el.setAttribute("aria-live", payload.status === "done" ? "off" : "polite");
  if (payload.status === "working") working(el, payload);
  else if (payload.status === "error") el.append(h("p", { class: "hr-error", role: "alert", text: payload.text }));
  else if (payload.status === "done") done(el, payload, options);
}
