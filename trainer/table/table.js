// The Hearts card table. It draws the `table` snapshot Python sends and reports what the
// learner asks for through the `intent` trait; Python (the engine) decides what happens.

// Keys that pick a card by its position in the hand: 1..9, then 0, -, = for the 10th to 12th.
const KEYS = "1234567890-=";
const POSITION_KEYS = [...KEYS];
const SUIT_CLASS = { C: "clubs", D: "diamonds", S: "spades", H: "hearts" };
const SUIT_SYMBOL = { C: "♣", D: "♦", S: "♠", H: "♥" };
const HELP = [
  ["1–9, 0, -, =", "select the 1st to 12th card (0 is the 10th; arrows reach the 13th)"],
  ["← →", "move between cards"],
  ["Space", "select the card in focus"],
  ["Enter", "play the selected card, or pass the selected three"],
  ["N", "new hand"],
  ["?", "this help (Esc closes it)"],
];

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

// Also the room page's (trainer/rooms/static/room.js): one way to build the DOM for both.
export function h(tag, attrs = {}, ...children) {
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

function cardFace(code, extra = {}) {
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  return h(
    "span",
    { class: `face ${SUIT_CLASS[suit]}`, "aria-hidden": "true", ...extra },
    h("span", { class: "rank", text: rank }),
    h("span", { class: "pip", text: SUIT_SYMBOL[suit] }),
  );
}

// Where seat `seat` sits: the learner at the bottom, the others round to the left (clockwise).
function angleOf(seat, t) {
  const offset = (seat - t.seat + t.players) % t.players;
  return Math.PI / 2 + (offset * 2 * Math.PI) / t.players;
}

// A seat hugs the felt's edge and grows inwards from it, so however its name and figures wrap
// they stay clear of the trick in the middle.
function seatPlace(angle) {
  const x = Math.cos(angle);
  const y = Math.sin(angle);
  const shift = (v) => (-50 - 50 * v).toFixed(1);
  return `left:${(50 + 47 * x).toFixed(1)}%;top:${(50 + 47 * y).toFixed(1)}%;` +
    `transform:translate(${shift(x)}%, ${shift(y)}%)`;
}

// A trick card sits a card's size from the centre (not a share of the felt), so the trick stays
// one tight cluster however narrow the screen; with more than four players the cluster widens so
// that neighbours' cards leave each other's rank and suit in view.
function trickPlace(angle, players) {
  const spread = 1 + 0.25 * Math.max(0, players - 4);
  const x = (1.1 * spread * Math.cos(angle)).toFixed(2);
  const y = (0.55 * spread * Math.sin(angle)).toFixed(2);
  return `left:calc(50% + ${x} * var(--card-w));top:calc(50% + ${y} * var(--card-h))`;
}

function render({ model, el }) {
  const root = h("div", { class: "ht-table", tabindex: "0", "aria-label": "Hearts table" });
  el.append(root);
  const ui = {
    focusCode: null, reviewing: false, helpOpen: false, seenTricks: null, gather: null, seenTrick: [], confirmNew: false,
  };
  let gatherTimers = [];

  // Every message is numbered and the newest few travel together: marimo may send only the
  // latest of several settings made at once, and Python applies each number once.
  const view = `${Date.now()}-${Math.random()}`;
  let sent = [];
  let number = 0;
  const send = (message) => {
    number += 1;
    sent = [...sent, { ...message, seq: number }].slice(-16);
    model.set("intent", { view, messages: sent });
    model.save_changes();
  };
  const table = () => model.get("table");

  function showReason(text) {
    const bar = root.querySelector(".ht-reason");
    if (bar) bar.textContent = text || "";
  }

  function clickCard(card) {
    const t = table();
    const selected = t.selected;
    if (t.passing) {
      // Python toggles it on its own marks: a quick second click must not undo the first.
      send({ type: "toggle", card: card.code });
    } else if (t.my_turn && !card.legal) {
      showReason(card.why);
      send({ type: "play", card: card.code }); // Python refuses it and says why
    } else if (t.my_turn && selected.includes(card.code)) {
      send({ type: "play", card: card.code });
    } else if (t.phase === "playing") {
      send({ type: "select", cards: [card.code] });
    }
  }

  function confirm() {
    const t = table();
    if (t.passing) send({ type: "pass" }); // the cards Python has marked, quick clicks included
    else if (t.my_turn) {
      // The card in focus first: a refused card may still be the one selected.
      const active = el.getRootNode().activeElement;
      const focused = active && root.contains(active) ? active.dataset.card : null;
      const code = focused || t.selected[0];
      if (code) send({ type: "play", card: code });
    }
  }

  function drawSeat(seat, t) {
    const angle = angleOf(seat.seat, t);
    const classes = ["ht-seat"];
    if (t.to_move === seat.seat) classes.push("to-move");
    if (seat.seat === t.seat) classes.push("me");
    if (Math.abs(Math.cos(angle)) > 0.9) classes.push("side"); // level with the trick's side cards
    let cards;
    if (seat.seat === t.seat) cards = null;
    else if (seat.cards) {
      cards = h("div", { class: "open-hand", "aria-label": `${seat.name}'s cards` },
        seat.cards.map((code) => cardFace(code, { class: `face mini ${SUIT_CLASS[code.slice(-1)]}` })));
    } else {
      const backs = Array.from({ length: Math.min(seat.count, 13) }, () => h("span", { class: "back" }));
      cards = h("div", { class: "backs", "aria-hidden": "true" }, backs);
    }
    const level = seat.bot ? ` · ${seat.bot} bot` : "";
    return h(
      "div",
      { class: classes.join(" "), style: seatPlace(angle), "data-seat": seat.seat },
      h("div", { class: "seat-name", text: `${seat.name}${t.to_move === seat.seat ? " ◀" : ""}` }),
      cards,
      h(
        "div",
        { class: "seat-stats" },
        [plural(seat.count, "card"), seat.points === null ? null : plural(seat.points, "point"), plural(seat.tricks, "trick")]
          .filter((part) => part !== null)
          .join(" · "),
        level ? h("span", { class: "seat-level", text: level }) : null,
      ),
      // The bot whose decision comes next (a Hard bot's pass takes seconds in the browser).
      t.thinking === seat.seat ? h("div", { class: "seat-thinking", "data-role": "thinking", text: "thinking…" }) : null,
    );
  }

  function drawTrick(t) {
    let plays = t.trick;
    let label = "";
    if (ui.reviewing && t.last_trick) {
      plays = t.last_trick.plays;
      label = `Last trick, taken by ${t.seats[t.last_trick.winner].name}`;
    } else if (!plays.length && ui.gather) {
      plays = ui.gather.plays;
    }
    // "last": a finished trick shown a moment (or on request), not the trick in play.
    const showing = plays === t.trick ? "current" : "last";
    const area = h("div", { class: "ht-trick", "aria-label": "Cards on the table", "data-showing": showing });
    for (const play of plays) {
      const fresh = plays === t.trick && !ui.seenTrick.includes(play.code);
      const node = h(
        "div",
        {
          class: `played${fresh ? " fresh" : ""}`,
          style: trickPlace(angleOf(play.seat, t), t.players),
          "data-card": play.code,
          "data-seat": play.seat,
          role: "img",
          "aria-label": `${t.seats[play.seat].name}: ${play.name}`,
        },
        cardFace(play.code),
      );
      area.append(node);
    }
    if (label) area.append(h("div", { class: "trick-label", text: label }));
    ui.seenTrick = t.trick.map((p) => p.code);
    return area;
  }

  // A trick just completed: leave it in the middle a moment, then sweep it to its winner.
  function startGather(t) {
    gatherTimers.forEach(clearTimeout);
    ui.gather = t.last_trick;
    const winnerAngle = angleOf(t.last_trick.winner, t);
    gatherTimers = [
      setTimeout(() => {
        if (!ui.gather) return;
        const dx = 40 * Math.cos(winnerAngle);
        const dy = 40 * Math.sin(winnerAngle);
        for (const node of root.querySelectorAll(".ht-trick .played")) {
          node.style.setProperty("--gx", `${dx}cqw`);
          node.style.setProperty("--gy", `${dy}cqh`);
          node.classList.add("gathering");
        }
      }, 650),
      setTimeout(() => {
        ui.gather = null;
        draw();
      }, 1250),
    ];
  }

  function drawHand(t) {
    const hint = new Set(t.hint);
    const row = h("div", { class: "ht-hand", role: "group", "aria-label": "Your hand" });
    t.hand.forEach((card, index) => {
      const classes = ["card"];
      if (t.my_turn) classes.push(card.legal ? "legal" : "faded");
      if (t.selected.includes(card.code)) classes.push("selected");
      if (card.received) classes.push("received");
      if (card.passed) classes.push("passed");
      if (hint.has(card.code)) classes.push("hinted");
      const button = h(
        "button",
        {
          type: "button",
          class: classes.join(" "),
          "data-card": card.code,
          "data-index": index,
          "aria-label": card.name,
          "aria-pressed": t.selected.includes(card.code) ? "true" : "false",
          "aria-disabled": t.my_turn && !card.legal ? "true" : null,
          title: card.why || card.name,
          "aria-keyshortcuts": POSITION_KEYS[index] || null,
          onclick: () => clickCard(card),
          onfocus: () => {
            ui.focusCode = card.code;
            showReason(card.why);
          },
          onmouseenter: () => showReason(card.why),
          onmouseleave: () => showReason(""),
        },
        cardFace(card.code),
        card.received ? h("span", { class: "sr-only", text: " (received)" }) : null,
        card.passed ? h("span", { class: "sr-only", text: " (passed)" }) : null,
      );
      row.append(button);
    });
    return row;
  }

  function drawControls(t) {
    const buttons = [];
    const button = (action, text, onclick, disabled = false) =>
      h("button", { type: "button", class: "ht-button", "data-action": action, disabled, onclick, text });
    if (t.passing) {
      buttons.push(button("pass", `Pass ${t.selected.length}/${t.pass_count}${t.pass_direction ? ` ${t.pass_direction}` : ""}`,
        () => send({ type: "pass" }), t.selected.length !== t.pass_count));
    }
    if (t.my_turn) {
      buttons.push(button("play", "Play", confirm, t.selected.length !== 1));
    }
    if (t.moon_choice) {
      buttons.push(button("moon-add", "Add 26 to the others", () => send({ type: "moon", choice: "add_to_others" })));
      buttons.push(button("moon-subtract", "Subtract 26 from me",
        () => send({ type: "moon", choice: "subtract_from_shooter" })));
    }
    // A room's table (play with friends) has no hints: `hints: false`.
    if (t.hints !== false) buttons.push(button("hint", "Hint", () => send({ type: "hint" }), !(t.passing || t.my_turn)));
    if (t.practice) {
      buttons.push(button("take-back", "Take back", () => send({ type: "take_back" }), t.can_take_back === false));
    }
    buttons.push(button("review", ui.reviewing ? "Back to the trick" : "Last trick", () => {
      ui.reviewing = !ui.reviewing;
      draw();
    }, !t.last_trick));
    if (canDeal(t)) buttons.push(button("new-hand", "New hand", askNewHand));
    buttons.push(button("help", "Keys (?)", () => toggleHelp(true)));
    const colours = h("input", {
      type: "checkbox",
      checked: model.get("four_colour"),
      onchange: (event) => {
        model.set("four_colour", event.target.checked);
        model.save_changes();
      },
    });
    buttons.push(h("label", { class: "ht-check" }, colours, " four colours"));
    return h("div", { class: "ht-controls" }, buttons);
  }

  function drawScores(t) {
    const names = t.seats.map((s) => s.name);
    const head = h("tr", {}, h("th", { text: "Hand" }), names.map((n) => h("th", { text: n })));
    // A puzzle's or an analysed position's table: its first row is the game's totals before this
    // hand, whose number in its game is not known; later rows count on from it.
    const label = (i) => (t.totals_carried ? (i ? `+${i}` : "Before") : String(i + 1));
    const rows = t.score_rows.map((row, i) =>
      h("tr", { "data-row": i + 1 }, h("td", { text: label(i) }), row.map((p) => h("td", { text: String(p) }))),
    );
    const total = h("tr", { class: "totals", "data-row": "total" }, h("td", { text: "Total" }),
      t.totals.map((p) => h("td", { text: String(p) })));
    const over = t.winners.length ? "Game over" : "Hand over"; // the game's last hand ends the game
    const caption = t.hand_over ? (t.shooter !== null ? `${names[t.shooter]} shot the moon!` : over) : "Scores";
    return h(
      "div",
      { class: `ht-scores${t.hand_over ? " final" : ""}`, "data-role": "scores" },
      h("table", {}, h("caption", { text: caption }), h("thead", {}, head), h("tbody", {}, rows, total)),
    );
  }

  // A room's or a match's table deals the next hand only once this one is over (`deal_mid_hand:
  // false`); a puzzle's, which shows one position, never (`deals: false`).
  function canDeal(t) {
    return t.deals !== false && (t.deal_mid_hand !== false || t.hand_over);
  }

  // A hand someone has played in is thrown away only after the learner says so.
  function askNewHand() {
    if (table().hand_in_progress) {
      ui.confirmNew = true;
      draw();
      root.querySelector('[data-action="discard-hand"]')?.focus();
    } else send({ type: "new_hand" });
  }

  function answerNewHand(discard) {
    ui.confirmNew = false;
    if (discard) send({ type: "new_hand", discard: true });
    else draw();
    root.focus();
  }

  function drawConfirmNew() {
    return h(
      "div",
      { class: "ht-confirm", role: "alertdialog", "aria-label": "Throw this hand away?", "data-role": "confirm-new" },
      h("p", { text: "This hand is not finished. Throw it away and deal a new one?" }),
      h("button", { type: "button", class: "ht-button", "data-action": "discard-hand",
        onclick: () => answerNewHand(true), text: "Deal a new hand" }),
      h("button", { type: "button", class: "ht-button", "data-action": "keep-hand",
        onclick: () => answerNewHand(false), text: "Keep playing" }),
    );
  }

  function drawGameOver(t) {
    return h(
      "div",
      { class: "ht-game-over", "data-role": "game-over" },
      h("strong", { text: t.status }),
      ` Final totals: ${t.seats.map((s) => `${s.name} ${t.totals[s.seat]}`).join(", ")}. `,
      t.review_href ? h("a", { href: t.review_href, target: "_top", "data-role": "review-link",
        text: t.review_label }) : null,
    );
  }

  function toggleHelp(open) {
    ui.helpOpen = open;
    draw();
    if (open) root.querySelector(".ht-help button")?.focus();
    else root.focus();
  }

  function drawHelp() {
    return h(
      "div",
      { class: "ht-help", role: "dialog", "aria-label": "Keyboard help" },
      h("h3", { text: "Keys" }),
      h("dl", {}, HELP.filter(([key]) => key !== "N" || table().deals !== false) // no deal, no N
        .map(([key, what]) => [h("dt", { text: key }), h("dd", { text: what })])),
      h("button", { type: "button", class: "ht-button", onclick: () => toggleHelp(false), text: "Close" }),
    );
  }

  function draw() {
    const t = table();
    if (!t || !t.seats) return;
    if (!t.hand_in_progress) ui.confirmNew = false;
    const end = t.hand_over ? `${t.hand_number}:${t.phase}:${t.winners.join(",")}` : "";
    if (end && model.get("shown_end") !== end) {
      model.set("shown_end", end);
      model.save_changes();
    }
    // A new position (a puzzle, a lesson step, a resumed game) starts without a trick to gather:
    // its last trick was never on the table here.
    if (ui.deal !== t.deal) {
      ui.deal = t.deal;
      ui.seenTricks = t.tricks_done;
      ui.gather = null;
      gatherTimers.forEach(clearTimeout); // the last position's gather must not reach this one's trick
      gatherTimers = [];
    }
    if (ui.seenTricks !== null && t.tricks_done > ui.seenTricks && t.last_trick) startGather(t);
    if (t.trick.length) ui.gather = null;
    ui.seenTricks = t.tricks_done;
    const active = el.getRootNode().activeElement;
    const hadFocus = Boolean(active) && root.contains(active);
    const focusCode = ui.focusCode;
    root.dataset.table = model.get("table_id");
    root.dataset.phase = t.phase;
    root.dataset.players = String(t.players);
    root.classList.toggle("four-colour", model.get("four_colour"));
    const error = model.get("error");
    const badges = [
      t.hand_number === null ? null : h("span", { class: "badge", "data-role": "hand-number", text: `Hand ${t.hand_number}` }),
      h("span", { class: "badge", "data-role": "pass", text: `Pass: ${t.pass_direction ?? "?"}` }),
      h("span", {
        class: `badge${t.hearts_broken ? " broken" : ""}`,
        "data-role": "hearts",
        text: t.hearts_broken ? "♥ broken" : "♥ not broken",
      }),
    ];
    root.replaceChildren(
      h("div", { class: "ht-top" }, h("div", { class: "ht-status", "data-role": "status", text: t.status }), badges),
      h("div", { class: "ht-felt" }, t.seats.map((s) => drawSeat(s, t)), drawTrick(t)),
      h("div", { class: "ht-error", role: "alert", "data-role": "error", text: error && error.message ? error.message : "" }),
      h("div", { class: "ht-reason", "data-role": "reason" }),
      ...(t.hint_text ? [h("div", { class: "ht-hint", "data-role": "hint", text: t.hint_text })] : []),
      ...(t.winners.length ? [drawGameOver(t)] : []),
      ...(ui.confirmNew ? [drawConfirmNew()] : []),
      drawHand(t),
      drawControls(t),
      drawScores(t),
      h("div", { class: "sr-only ht-live", "aria-live": "polite", "data-role": "live", text: model.get("announcement").text || "" }),
      ...(ui.helpOpen ? [drawHelp()] : []),
    );
    // A redraw replaces the buttons: put keyboard focus back on the same card, or on the open
    // help's button (left on the removed one, Esc would no longer reach the table).
    if (hadFocus && ui.helpOpen) root.querySelector(".ht-help button")?.focus({ preventScroll: true });
    else if (hadFocus) {
      const again = focusCode && root.querySelector(`.card[data-card="${focusCode}"]`);
      (again || root).focus({ preventScroll: true });
    }
  }

  function focusAt(index) {
    const cards = [...root.querySelectorAll(".ht-hand .card")];
    if (!cards.length) return null;
    const target = cards[Math.max(0, Math.min(cards.length - 1, index))];
    target.focus();
    return target;
  }

  root.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return; // marimo's own shortcuts
    const t = table();
    const cards = [...root.querySelectorAll(".ht-hand .card")];
    const current = cards.findIndex((c) => c.dataset.card === ui.focusCode);
    if (event.key === "Escape" && ui.confirmNew) answerNewHand(false);
    else if (event.key === "Escape" && ui.helpOpen) toggleHelp(false);
    else if (event.key === "?") toggleHelp(!ui.helpOpen);
    else if (event.key === "Enter" && !event.shiftKey) confirm();
    else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      // Nothing in focus yet: → starts at the first card, ← at the last.
      const step = event.key === "ArrowRight" ? 1 : -1;
      focusAt(current < 0 ? (step > 0 ? 0 : cards.length - 1) : current + step);
    } else if ((event.key === "n" || event.key === "N") && canDeal(table())) askNewHand();
    else if (KEYS.includes(event.key) && event.key.length === 1) {
      const index = KEYS.indexOf(event.key);
      const card = t.hand[index];
      if (!card) return;
      focusAt(index);
      ui.focusCode = card.code;
      if (t.passing) clickCard(card);
      else if (t.phase === "playing") {
        showReason(card.why);
        send({ type: "select", cards: [card.code] });
      }
    } else return;
    event.preventDefault();
  });

  model.on("msg:custom", (message) => {
    if (message.type !== "error") return;
    const box = root.querySelector(".ht-error");
    if (!box) return;
    box.textContent = message.message;
    box.classList.remove("flash");
    void box.offsetWidth; // restart the flash animation for a repeated refusal
    box.classList.add("flash");
  });
  for (const name of ["table", "error", "four_colour", "table_id"]) model.on(`change:${name}`, draw);
  model.on("change:announcement", () => {
    const live = root.querySelector(".ht-live");
    if (live) live.textContent = model.get("announcement").text || "";
  });
  draw();
  return () => gatherTimers.forEach(clearTimeout);
}

export default { render };
