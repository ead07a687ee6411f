// The replay page of a finished game: step through it as any seat, a spectator, or everyone.
import { h, clear, api, tokenFromUrl, roomIdFromUrl, deadEnd } from "./dom.js";
import { paint, boardFor } from "./screen.js";
import { chatPanel } from "./chat.js";

const root = document.getElementById("app");
const status = document.getElementById("status");
const roomId = roomIdFromUrl();
const token = tokenFromUrl(); // the replay opens to the holders of the room's links
let viewer = "omniscient";
let step = -1;
let gamesInfo = [];

async function show() {
  let data;
  try {
    data = await api("GET", `/api/rooms/${roomId}/replay?token=${encodeURIComponent(token)}&viewer=${encodeURIComponent(viewer)}&step=${step}`);
  } catch (e) {
    deadEnd(root, e.message);
    return;
  }
  step = data.step;
  const info = gamesInfo.find((g) => g.id === data.room.game);
  const board = await boardFor(data.room.game, info && info.board);
  const choices = [
    ["omniscient", "Everything"],
    ["spectator", "A spectator"],
    ...data.view.seats.map((name, i) => [String(i), name]),
  ];
  const select = h(
    "select",
    {
      id: "viewer",
      onchange: (event) => {
        viewer = event.target.value;
        show();
      },
    },
    choices.map(([value, label]) => h("option", { value, selected: value === String(viewer) }, label)),
  );
  const go = (to) => () => {
    step = Math.max(0, Math.min(data.steps, to));
    show();
  };
  const range = h("input", { type: "range", id: "step", min: 0, max: data.steps, value: data.step, onchange: (event) => go(Number(event.target.value))() });
  const controls = h(
    "section",
    { class: "panel replay-controls" },
    h("label", {}, "Seen by ", select),
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "button", "aria-label": "First step", title: "First step", onclick: go(0) }, "«"),
      h("button", { type: "button", id: "prev", "aria-label": "Previous step", title: "Previous step", onclick: go(data.step - 1) }, "◀"),
      h("span", { id: "step-count" }, `step ${data.step} / ${data.steps}`),
      h("button", { type: "button", id: "next", "aria-label": "Next step", title: "Next step", onclick: go(data.step + 1) }, "▶"),
      h("button", { type: "button", "aria-label": "Last step", title: "Last step", onclick: go(data.steps) }, "»"),
    ),
    range,
    data.last ? h("p", { class: "muted" }, `Last action: ${data.last}`) : null,
  );
  const seat = /^\d+$/.test(String(viewer)) ? Number(viewer) : null;
  paint(root, { view: { ...data.view, legal: [] }, room: data.room, seat, board, onChoose: null, extra: controls, replay: true, rules: info ? info.rules_summary : [] });
  status.textContent = "";
}

// The table's chat, both channels, beside the replay (the game is over).
async function showChat() {
  try {
    const data = await api("GET", `/api/rooms/${roomId}/chat?token=${encodeURIComponent(token)}`);
    if (data.messages.length) chatPanel({ role: "spectator", send: null, readOnly: true }).replace(data.messages);
  } catch {
    /* the page says what is wrong with the link */
  }
}

api("GET", "/api/games")
  .then((g) => (gamesInfo = g))
  .finally(() => show().then(showChat));
