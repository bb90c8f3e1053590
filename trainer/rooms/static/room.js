// The room page: makes a room (/rooms/) or sits at one (/rooms/r/CODE). The card table is the
// lessons' own component (table.js), handed a model backed by the room's WebSocket: its intents
// go to the server as they are, and the server's view of this seat comes back as `table`.
import tableWidget, { h } from "./table.js";

const KEY = (code) => `hearts-room:${code}`;
const NAME_KEY = "hearts-room-name";

const $ = (role) => document.querySelector(`[data-role="${role}"]`);

// ----- /rooms/: make a room -----

function showCreate() {
  document.getElementById("create").hidden = false;
  const form = document.getElementById("create-form");
  // The rule presets a room can have, named as the server names them (engine.rules.PRESET_TITLES).
  fetch("/rooms/api/presets").then((answer) => answer.json()).then(({ presets }) => {
    form.preset.append(...presets.map(([value, text]) => h("option", { value, text })));
  });
  form.name.value = localStorage.getItem(NAME_KEY) || "";
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const settings = {
      preset: form.preset.value,
      target: Number(form.target.value),
      bot_level: form.bot_level.value,
      timer: Number(form.timer.value),
      name: form.name.value,
    };
    localStorage.setItem(NAME_KEY, form.name.value);
    const answer = await fetch("/rooms/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(settings),
    });
    const data = await answer.json().catch(() => ({ text: "The server did not answer." }));
    if (!answer.ok) {
      $("create-error").textContent = data.text;
      return;
    }
    localStorage.setItem(KEY(data.code), data.secret);
    location.assign(`/rooms/r/${data.code}`);
  });
}

// ----- /rooms/r/CODE: the room -----

// The anywidget model table.js expects, over the WebSocket.
function roomModel(sendIntent) {
  const values = {
    table: null,
    error: {},
    four_colour: localStorage.getItem("hearts-four-colour") === "1",
    table_id: "room",
    announcement: { text: "" },
    shown_end: "",
    intent: null,
  };
  const handlers = {};
  const changed = new Set();
  return {
    get: (name) => values[name],
    set(name, value) {
      values[name] = value;
      changed.add(name);
    },
    save_changes() {
      if (changed.has("intent")) sendIntent(values.intent);
      if (changed.has("four_colour")) {
        localStorage.setItem("hearts-four-colour", values.four_colour ? "1" : "0");
        this.fire("change:four_colour");
      }
      changed.clear();
    },
    on(event, fn) {
      (handlers[event] ||= []).push(fn);
    },
    off() {},
    send() {},
    fire(event, ...args) {
      for (const fn of handlers[event] || []) fn(...args);
    },
    put(name, value) {
      values[name] = value;
      this.fire(`change:${name}`);
    },
  };
}

function showRoom(code) {
  document.getElementById("room").hidden = false;
  $("new-room").hidden = false;
  let secret = localStorage.getItem(KEY(code));
  let socket = null;
  let lastIntent = null;
  let room = null;
  let countdown = null;
  let retry = 0;
  let errors = 0;
  let started = false;
  let invite = `${location.origin}/rooms/r/${code}`;

  const model = roomModel((intent) => {
    lastIntent = intent;
    send({ type: "intent", view: intent.view, messages: intent.messages });
  });
  tableWidget.render({ model, el: document.getElementById("table") });

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function connect(name) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/rooms/ws/${code}`);
    let seated = false;
    let refused = false;
    socket.addEventListener("open", () => {
      retry = 0;
      socket.send(JSON.stringify({ type: "hello", secret, name }));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "welcome") seated = true;
      else if (message.type === "error" && !seated) refused = true;
      receive(message);
    });
    socket.addEventListener("close", () => {
      // Refused a seat (the room is full, started or gone): the error says why; trying again
      // would not change it. A server that is down or restarting is tried again.
      if (!started || refused) {
        $("connection").textContent = "";
        return;
      }
      $("connection").textContent = "Connection lost: reconnecting…";
      retry = Math.min(retry + 1, 5);
      setTimeout(() => connect(name), 500 * retry);
    });
  }

  function receive(message) {
    if (message.type === "welcome") {
      started = true;
      if (message.link) invite = message.link; // the server's address on the network
      secret = message.secret;
      localStorage.setItem(KEY(code), secret);
      $("connection").textContent = "";
      // Messages sent while the connection was down: the server applies each number once.
      if (lastIntent) send({ type: "intent", view: lastIntent.view, messages: lastIntent.messages });
    } else if (message.type === "state") {
      room = message.view.room;
      if (message.view.seats) $("room-error").textContent = "";
      drawPanel();
      if (message.view.seats) {
        document.getElementById("table").hidden = false;
        model.put("announcement", { text: [room.spoken, room.notice].filter(Boolean).join(" ") });
        model.put("table", message.view);
      } else document.getElementById("table").hidden = true;
    } else if (message.type === "error") {
      errors += 1;
      const shown = errors;
      if (model.get("table")) {
        // At the table its own error line says it (as in the lessons), for a few seconds.
        model.put("error", { message: message.text, n: errors });
        model.fire("msg:custom", { type: "error", message: message.text });
        setTimeout(() => {
          if (errors === shown) model.put("error", {});
        }, 8000);
      } else $("room-error").textContent = message.text;
    } else if (message.type === "review") {
      showReview(message);
    }
  }

  // The seat's finished game as a progress file (review.py); the secret goes in the body, never the address.
  async function downloadGame() {
    const answer = await fetch(`/rooms/api/rooms/${code}/game`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ secret }),
    });
    if (!answer.ok) throw new Error((await answer.json().catch(() => ({}))).text || answer.statusText);
    return answer.blob();
  }

  async function showReview(payload) {
    const box = $("review");
    try {
      const { drawReview } = await import("./review.js");
      drawReview(box, payload, { download: downloadGame });
      // It is drawn below the table: bring it into view once, when it starts (the button is above).
      if (!box.dataset.seen) box.scrollIntoView({ block: "start" });
      box.dataset.seen = "1";
    } catch {
      box.textContent = payload.text || "The review could not be shown.";
    }
  }

  function seatItem(seat) {
    const classes = ["rm-seat"];
    if (room.turn.includes(seat.seat)) classes.push("turn");
    if (seat.is_you) classes.push("you");
    let state;
    let dot;
    if (seat.kind === "bot") [state, dot] = [`${room.bot_level} bot`, "bot"];
    else if (seat.kind === "empty") [state, dot] = ["free seat", ""];
    else if (seat.bot_playing) [state, dot] = ["away: a bot plays", "bot"];
    else if (seat.connected) [state, dot] = ["connected", "on"];
    else [state, dot] = ["disconnected", "off"];
    const me = room.seats[room.you];
    const canHand = me.is_host && seat.kind === "human" && !seat.connected && !seat.bot_playing && room.status === "playing";
    return h(
      "li",
      { class: classes.join(" "), "data-seat": seat.seat, "data-state": dot || "empty" },
      h("span", { class: `rm-dot ${dot}`, "aria-hidden": "true" }),
      h("span", { text: `${seat.name}${seat.is_you ? " (you)" : ""}${seat.is_host ? " · host" : ""}` }),
      h("span", { class: "rm-state", text: `· ${state}` }),
      canHand
        ? h("button", { type: "button", class: "ht-button", "data-action": "bot-seat",
          onclick: () => send({ type: "bot_seat", seat: seat.seat }), text: "Let a bot play" })
        : null,
    );
  }

  function turnText() {
    if (room.status === "lobby") return "";
    if (room.status === "over") return "The game is over.";
    if (room.next_hand_in !== null) {
      const ready = room.ready.map((s) => room.seats[s].name).join(", ");
      return `Next hand in ${room.next_hand_in} s, or when everyone has pressed New hand${ready ? ` (ready: ${ready})` : ""}.`;
    }
    if (!room.turn.length) return "";
    const names = room.turn.map((s) => (s === room.you ? "you" : room.seats[s].name));
    const whose = room.turn.length > 1 || room.phase === "passing"
      ? `Waiting for the pass of: ${names.join(", ")}`
      : room.turn[0] === room.you ? "Your turn" : `${names[0]}'s turn`;
    return room.seconds_left === null ? `${whose}.` : `${whose} · ${room.seconds_left} s left.`;
  }

  function drawPanel() {
    const panel = $("panel");
    const link = invite;
    const me = room.seats[room.you];
    const parts = [];
    if (room.status === "lobby") {
      const copy = h("button", { type: "button", class: "ht-button", "data-action": "copy-link", text: "Copy link",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            copy.textContent = "Copied";
          } catch {
            input.select();
          }
        } });
      const input = h("input", { value: link, readonly: true, "aria-label": "Invite link", "data-role": "invite-link",
        onfocus: (event) => event.target.select() });
      parts.push(h("p", { text: "Send this link to your friends: whoever opens it takes a free seat." }));
      parts.push(h("div", { class: "rm-invite" }, input, copy));
      if (["127.0.0.1", "localhost", "[::1]"].includes(new URL(link).hostname)) {
        parts.push(h("p", { class: "rm-hint", "data-role": "loopback-hint" },
          "This address works on this computer only. To invite friends on your network, start the rooms with ",
          h("code", { text: "hearts-trainer host --host 0.0.0.0" }), " and send the address it prints."));
      }
      parts.push(me.is_host
        ? h("button", { type: "button", class: "ht-button rm-primary", "data-action": "start", text: "Start the game",
          onclick: () => send({ type: "start" }) })
        : h("p", { text: "Waiting for the host to start the game. Empty seats get bots." }));
    }
    const timer = room.timer ? `${room.timer} s to decide` : "no timer";
    parts.push(h("p", { class: "rm-settings", "data-role": "settings",
      text: `${room.rules} · game to ${room.target} · ${room.bot_level} bots · ${timer}` }));
    parts.push(h("ul", { class: "rm-seats", "data-role": "seats", "aria-label": "Seats" }, room.seats.map(seatItem)));
    const turn = turnText();
    parts.push(h("div", { class: `rm-turn${room.seconds_left !== null && room.seconds_left <= 5 ? " hurry" : ""}`,
      "data-role": "turn", text: turn }));
    parts.push(h("div", { class: "rm-notice", "data-role": "notice", text: room.notice }));
    if (room.status === "over") {
      parts.push(h("button", { type: "button", class: "ht-button rm-primary", "data-action": "review-game",
        text: "Review my game", onclick: () => send({ type: "review" }) }));
    }
    panel.replaceChildren(...parts);
    // The seconds left go down here between the server's updates.
    clearInterval(countdown);
    if (room.seconds_left !== null || room.next_hand_in !== null) {
      countdown = setInterval(() => {
        if (room.seconds_left !== null) room.seconds_left = Math.max(0, room.seconds_left - 1);
        if (room.next_hand_in !== null) room.next_hand_in = Math.max(0, room.next_hand_in - 1);
        const node = $("turn");
        if (node) {
          node.textContent = turnText();
          node.classList.toggle("hurry", room.seconds_left !== null && room.seconds_left <= 5);
        }
      }, 1000);
    }
  }

  if (secret) connect(localStorage.getItem(NAME_KEY) || "");
  else offerSeat();

  // A newcomer is asked their name only if a seat can be theirs (the game may have started).
  async function offerSeat() {
    const answer = await fetch(`/rooms/api/rooms/${code}/seat`).catch(() => null);
    const seat = answer ? await answer.json().catch(() => null) : null;
    if (seat && !seat.open) {
      $("room-error").textContent = seat.text;
      return;
    }
    const form = document.getElementById("join-form");
    form.hidden = false;
    form.name.value = localStorage.getItem(NAME_KEY) || "";
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      localStorage.setItem(NAME_KEY, form.name.value);
      form.hidden = true;
      connect(form.name.value);
    });
  }
}

const match = location.pathname.match(/^\/rooms\/r\/([A-Za-z0-9_-]+)$/);
if (match) showRoom(match[1]);
else showCreate();
