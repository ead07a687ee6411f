// The play page: one WebSocket, this seat's view only; reconnects when the link drops.
import { h, api, tokenFromUrl, roomIdFromUrl, deadEnd } from "./dom.js";
import { paint, boardFor, notify, actionJson, actionKey } from "./screen.js";
import { applyPatch } from "./delta.js";
import { tableBar, rememberRoom, playerKey } from "./table.js";
import { chatPanel } from "./chat.js";

const root = document.getElementById("app");
const status = document.getElementById("status");
const roomId = roomIdFromUrl();
const token = tokenFromUrl();
let socket = null;
let last = null;
let sentStep = null;
let attempts = 0;
let gamesInfo = null;
let overSince = null;
let lastError = null;
let queued = null; // a choice tapped while the connection was down, sent once it is back
const REMATCH_GUARD_MS = 1000; // a tap meant for the last choice must not start a rematch
const MAX_ATTEMPTS = 30;
const bar = tableBar({ onName: (name) => send({ type: "name", name, key: playerKey() }), onTakeBack: () => send({ type: "take_back" }) });
let remembered = false;
let chat = null;
let chatWaiting = []; // chat that arrived before the first view said who we are

function setStatus(text, kind = "") {
  status.textContent = text;
  status.className = `status ${kind}`;
}

function online() {
  return socket !== null && socket.readyState === WebSocket.OPEN;
}

function send(message) {
  if (online()) socket.send(JSON.stringify(message));
}

function choose(action) {
  if (!last) return;
  if (!online()) {
    // Kept, not dropped: sent when the connection is back if the game still asks for it.
    queued = action;
    notify(`You are offline: “${action.label}” is kept and will be sent when the connection is back.`);
    return;
  }
  if (sentStep === last.step) return;
  sentStep = last.step;
  for (const b of root.querySelectorAll("button.choice")) b.disabled = true;
  send({ type: "act", action: actionJson(action), step: last.step });
}

// After a reconnection the fresh view says whether the kept choice is still open.
function sendQueued() {
  if (!queued || !last) return;
  const action = queued;
  queued = null;
  const still = (last.view.legal || []).find((a) => actionKey(a) === actionKey(action));
  if (still) {
    notify(`Back online: “${action.label}” is sent.`, "ok");
    choose(still);
  } else {
    notify(`Back online: “${action.label}” was not sent, the game moved on while you were away. Look again.`);
  }
}

async function draw(message) {
  last = message;
  sentStep = null;
  bar.update(message);
  if (!chat) {
    chat = chatPanel({ role: message.role, send: (text) => send({ type: "chat", text }) });
    for (const m of chatWaiting) chat.add(m);
    chatWaiting = [];
  }
  if (!remembered) {
    remembered = true;
    const seat = message.seat !== null && message.seat !== undefined ? message.room.seats[message.seat] : null;
    rememberRoom({ room: roomId, link: `/play/${roomId}?token=${token}`, role: message.role, seat: message.seat, seatName: seat ? seat.seat_name : null, game: message.room.game_name });
  }
  const info = (gamesInfo || []).find((g) => g.id === message.room.game);
  const board = await boardFor(message.room.game, info && info.board);
  if (message !== last) return;
  const extra = [];
  if (message.view.outcome) {
    if (overSince === null) overSince = Date.now();
    const wait = REMATCH_GUARD_MS - (Date.now() - overSince);
    if (wait > 0) setTimeout(() => {
      for (const button of root.querySelectorAll("button.rematch")) button.disabled = false;
    }, wait);
    // The first to ask chooses the seating; everyone else joins that rematch.
    const two = message.room.seats.length === 2;
    const seatings = message.room.series_next
      ? [["rematch", "same", message.room.rematch ? "Join the series' next game" : "Next game of the series"]]
      : message.room.rematch
      ? [["rematch", "same", "Join the rematch"]]
      : [
          ["rematch", "same", "Rematch"],
          ["rematch-swap", "swap", two ? "Rematch, sides swapped" : "Rematch, everyone one seat on"],
          ["rematch-shuffle", "shuffle", "Rematch, seats shuffled"],
        ];
    extra.push(
      h(
        "div",
        { class: "buttons end" },
        seatings.map(([id, seating, text]) =>
          h("button", { type: "button", id, class: "rematch", disabled: wait > 0, onclick: () => send({ type: "rematch", seating }) }, text),
        ),
        h("a", { href: `/replay/${roomId}?token=${encodeURIComponent(token)}`, id: "replay-link", class: "button" }, "Replay this game"),
      ),
    );
  }
  paint(root, {
    view: message.view,
    room: message.room,
    seat: message.seat,
    board,
    onChoose: message.role === "seat" ? choose : null,
    extra: extra.length ? h("div", {}, extra) : null,
    rules: info ? info.rules_summary : [],
  });
  root.dataset.step = String(message.step);
  root.dataset.over = message.view.outcome ? "yes" : "no";
  sendQueued();
}

// A view after the first holds only the log entries after the step we last had
// (`since`): append them; and, instead of the whole `state`, often a `patch` of the state
// we had (applyPatch). A gap (a missed message) means our view is stale: reconnect, and
// the server sends the whole view again.
let lastState = null; // the state as the server sent it (screens may change their copy)
function merged(message) {
  let view = message.view;
  if (message.since !== null && message.since !== undefined) {
    if (!last || last.step !== message.since) return null;
    view = { ...view, log: [...(last.view.log || []), ...view.log] };
    if (view.patch) {
      const { patch, ...rest } = view;
      view = { ...rest, state: applyPatch(structuredClone(lastState), patch) };
    }
  } else if (view.patch) return null;
  lastState = structuredClone(view.state);
  return { ...message, view };
}

const handlers = {
  view: (m) => {
    const message = merged(m);
    if (message) draw(message);
    else socket.close();
  },
  error: (m) => {
    sentStep = null;
    for (const b of root.querySelectorAll("button.choice")) b.disabled = false;
    lastError = m.message;
    setStatus(m.message, "error");
    if (last) notify(m.message);
  },
  rematch: (m) => {
    window.location.href = m.url;
  },
  chat: (m) => (chat ? chat.add(m) : chatWaiting.push(m)),
  chat_log: (m) => (chat ? chat.replace(m.messages) : (chatWaiting = [...m.messages])),
  taken_back: () => setStatus("Your seat is yours again", "ok"),
  named: (m) => setStatus(`You play as ${m.name}`, "ok"),
  pong: () => {},
};

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/${roomId}?token=${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => {
    attempts = 0;
    root.dataset.online = "yes";
    setStatus("connected", "ok");
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const handler = handlers[message.type];
    if (handler) handler(message);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403 || event.code === 4404 || event.code === 4409) {
      // The link cannot open this room: say so on the page, not only in the status line.
      if (!last) deadEnd(root, lastError);
      return;
    }
    if (attempts >= MAX_ATTEMPTS) {
      setStatus("disconnected: reload the page to try again", "error");
      return;
    }
    attempts += 1;
    root.dataset.online = "no";
    setStatus(`connection lost, reconnecting (${attempts})…`, "error");
    setTimeout(connect, Math.min(5000, 300 * attempts));
  });
}

api("GET", "/api/games")
  .then((g) => (gamesInfo = g))
  .catch(() => (gamesInfo = []))
  .finally(connect);
