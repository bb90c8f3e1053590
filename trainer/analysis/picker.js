// The analysis board's deck picker: the 52 cards, and the places the learner puts them (their
// hand, the cards they passed and received, each trick so far). The browser only draws the
// set-up Python sends (`setup`) and reports what the learner asks for; Python checks and decides.

const SUITS = ["S", "H", "D", "C"];
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_CLASS = { C: "clubs", D: "diamonds", S: "spades", H: "hearts" };
const SUIT_SYMBOL = { C: "♣", D: "♦", S: "♠", H: "♥" };
const SUIT_NAME = { C: "clubs", D: "diamonds", S: "spades", H: "hearts" };

// table.js's h: an anywidget's module is loaded alone (from its own text), so it cannot import table.js.
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) if (child) node.append(child);
  return node;
}

function symbol(code) {
  return code.slice(0, -1) + SUIT_SYMBOL[code.slice(-1)];
}

function render({ model, el }) {
  let draft = "";

  function send(message) {
    model.send(message);
  }

  function places() {
    // Every place cards go, in the order the set-up reads: [key, label, cards].
    const s = model.get("setup") || {};
    const list = [["hand", s.moment === "pass" ? "Your hand (dealt)" : "Your hand (now)", s.hand || []]];
    if (s.moment === "play") {
      list.push(["passed", "You passed", s.passed || []]);
      list.push(["received", "You received", s.received || []]);
      const seats = model.get("seats") || [];
      (s.tricks || []).forEach((trick, index) => {
        const leader = seats[trick.leader] || "?";
        list.push([`trick:${index}`, `Trick ${index + 1}`, trick.cards || [], `led by ${leader}`]);
      });
    }
    return list;
  }

  function draw() {
    const s = model.get("setup") || {};
    const seats = model.get("seats") || [];
    const target = model.get("target") || "hand";
    const all = places();
    const where = {};
    for (const [key, label, cards] of all) for (const code of cards) (where[code] ||= []).push(label);
    const active = all.find(([key]) => key === target) || all[0];

    const tabs = h(
      "div",
      { class: "an-places", role: "tablist", "aria-label": "Where a clicked card goes" },
      all.map(([key, label, cards]) =>
        h(
          "button",
          {
            class: `an-place${key === active[0] ? " active" : ""}`,
            role: "tab",
            "aria-selected": key === active[0] ? "true" : "false",
            "data-place": key,
            onclick: () => send({ type: "target", target: key }),
          },
          `${label} (${cards.length})`,
        ),
      ),
      s.moment === "play"
        ? h("button", { class: "an-button", "data-action": "add-trick", onclick: () => send({ type: "add_trick" }) },
            "+ Trick")
        : null,
    );

    // The active place: its cards (click one to take it out), and for a trick who led it.
    const chips = active[2].map((code) =>
      h(
        "button",
        {
          class: `an-chip ${SUIT_CLASS[code.slice(-1)]}`,
          "data-card": code,
          "aria-label": `take ${symbol(code)} out`,
          onclick: () => send({ type: "card", target: active[0], card: code }),
        },
        symbol(code),
      ),
    );
    let trickTools = null;
    if (active[0].startsWith("trick:")) {
      const index = Number(active[0].slice(6));
      const trick = (s.tricks || [])[index] || {};
      const select = h(
        "select",
        {
          class: "an-select",
          "data-leader": String(index),
          "aria-label": `who led trick ${index + 1}`,
          onchange: (event) => send({ type: "leader", index, seat: Number(event.target.value) }),
        },
        seats.map((name, seat) =>
          h("option", { value: String(seat), selected: seat === trick.leader ? true : null }, name),
        ),
      );
      trickTools = h(
        "div",
        { class: "an-trick-tools" },
        h("label", { class: "an-label" }, "Led by ", select),
        h("span", { class: "an-note" }, "cards in the order they were played"),
        h("button", { class: "an-button quiet", "data-action": "remove-trick", onclick: () => send({ type: "remove_trick", index }) },
          `Remove trick ${index + 1}`),
      );
    }
    const current = h(
      "div",
      { class: "an-current", "data-current": active[0] },
      h("div", { class: "an-current-head" }, h("strong", { text: `${active[1]}: ` }),
        chips.length ? null : h("span", { class: "an-note", text: "no cards yet: click them below or paste them" })),
      h("div", { class: "an-chips" }, chips),
      trickTools,
    );

    const deck = h(
      "div",
      { class: "an-deck", "aria-label": "The deck" },
      SUITS.map((suit) =>
        h(
          "div",
          { class: "an-suit", "aria-label": SUIT_NAME[suit] },
          RANKS.map((rank) => {
            const code = rank + suit;
            const here = active[2].includes(code);
            const elsewhere = (where[code] || []).filter((label) => label !== active[1]);
            return h(
              "button",
              {
                class: `an-card ${SUIT_CLASS[suit]}${here ? " in" : ""}${elsewhere.length ? " used" : ""}`,
                "data-card": code,
                "aria-pressed": here ? "true" : "false",
                title: elsewhere.length ? `also in: ${elsewhere.join(", ")}` : null,
                onclick: () => send({ type: "card", target: active[0], card: code }),
              },
              h("span", { class: "an-rank", text: rank }),
              h("span", { class: "an-pip", text: SUIT_SYMBOL[suit] }),
            );
          }),
        ),
      ),
    );

    const input = h("input", {
      class: "an-input",
      type: "text",
      value: draft,
      "data-paste": "1",
      placeholder: "e.g. AS KS 10H or A♠ K♠ 10♥",
      "aria-label": `cards for ${active[1]}`,
      oninput: (event) => { draft = event.target.value; },
      onkeydown: (event) => {
        if (event.key === "Enter" && !event.shiftKey && !event.ctrlKey && !event.metaKey) put();
      },
    });
    function put() {
      send({ type: "paste", target: active[0], text: draft });
    }
    const paste = h(
      "div",
      { class: "an-paste" },
      h("label", { class: "an-label" }, `Type or paste ${active[1].toLowerCase()}: `, input),
      h("button", { class: "an-button", "data-action": "paste", onclick: put }, `Set ${active[1].toLowerCase()}`),
      h("button", { class: "an-button quiet", "data-action": "clear", onclick: () => send({ type: "clear", target: active[0] }) },
        "Clear"),
    );

    const summary = h(
      "dl",
      { class: "an-summary" },
      all.map(([key, label, cards, note]) => [
        h("dt", { text: note ? `${label}, ${note}` : label }),
        h("dd", { "data-summary": key, text: cards.length ? cards.map(symbol).join(" ") : "—" }),
      ]),
    );

    const message = model.get("message") || "";
    const focused = el.contains(document.activeElement) && document.activeElement.matches(".an-input");
    el.replaceChildren(
      h(
        "div",
        { class: "an-picker", "data-picker": "analysis" },
        tabs,
        current,
        deck,
        paste,
        h("div", { class: `an-message${message ? " shown" : ""}`, role: "status", "data-message": "1", text: message }),
        summary,
      ),
    );
    if (focused) {
      const box = el.querySelector(".an-input");
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
    }
  }

  model.on("msg:custom", (content) => {
    if (content && content.type === "pasted") {
      draft = ""; // set: the box empties; a refused text stays to be corrected
      draw();
    }
  });
  model.on("change:setup", draw);
  model.on("change:target", draw);
  model.on("change:message", draw);
  model.on("change:seats", draw);
  draw();
}

export default { render };
