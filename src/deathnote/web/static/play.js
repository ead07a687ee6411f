// The play page: one WebSocket, this seat's view only; reconnects when the link drops.
import { h, api, tokenFromUrl, roomIdFromUrl, deadEnd } from "./dom.js";
import { paint, boardFor } from "./screen.js";
import { applyPatch } from "./delta.js";

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
const REMATCH_GUARD_MS = 1000; // a tap meant for the last choice must not start a rematch
const MAX_ATTEMPTS = 30;

function setStatus(text, kind = "") {
  status.textContent = text;
  status.className = `status ${kind}`;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function choose(action) {
  if (!last || sentStep === last.step) return;
  sentStep = last.step;
  for (const b of root.querySelectorAll("button.choice")) b.disabled = true;
  const { label, ...json } = action;
  send({ type: "act", action: json, step: last.step });
}

function matching(legal, number) {
  return legal.find((a) => Object.entries(a).some(([k, v]) => k !== "kind" && k !== "label" && v === number));
}

async function draw(message) {
  last = message;
  sentStep = null;
  const info = (gamesInfo || []).find((g) => g.id === message.room.game);
  const board = await boardFor(message.room.game, info && info.board);
  if (message !== last) return;
  const extra = [];
  if (message.view.outcome) {
    if (overSince === null) overSince = Date.now();
    const wait = REMATCH_GUARD_MS - (Date.now() - overSince);
    if (wait > 0) setTimeout(() => {
      const button = document.getElementById("rematch");
      if (button) button.disabled = false;
    }, wait);
    extra.push(
      h(
        "div",
        { class: "buttons end" },
        h(
          "button",
          { type: "button", id: "rematch", disabled: wait > 0, onclick: () => send({ type: "rematch" }) },
          message.room.rematch ? "Join the rematch" : "Rematch",
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
    onCell: message.role === "seat"
      ? (number) => {
          const action = matching(message.view.legal || [], number);
          if (action) choose(action);
        }
      : null,
    extra: extra.length ? h("div", {}, extra) : null,
  });
  root.dataset.step = String(message.step);
  root.dataset.over = message.view.outcome ? "yes" : "no";
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
  },
  rematch: (m) => {
    window.location.href = m.url;
  },
  pong: () => {},
};

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/${roomId}?token=${encodeURIComponent(token)}`);
  socket.addEventListener("open", () => {
    attempts = 0;
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
    setStatus(`connection lost, reconnecting (${attempts})…`, "error");
    setTimeout(connect, Math.min(5000, 300 * attempts));
  });
}

api("GET", "/api/games")
  .then((g) => (gamesInfo = g))
  .catch(() => (gamesInfo = []))
  .finally(connect);
