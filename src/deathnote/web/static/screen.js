// One game screen (play and replay share it): seats, board or generic state, choices, log.
import { h } from "./dom.js";
import { renderState } from "./generic.js";
import { patchChildren } from "./patch.js";

const boards = new Map();

// The game's own board module when the server says it has one; else the generic screen.
export async function boardFor(gameId, hasBoard) {
  if (!hasBoard) return null;
  if (!boards.has(gameId)) {
    try {
      boards.set(gameId, await import(`./boards/${gameId}.js`));
    } catch {
      boards.set(gameId, null);
    }
  }
  return boards.get(gameId);
}

export function renderSeats(room, view, mySeat) {
  const waiting = new Set(view.waiting || []);
  return h(
    "ul",
    { class: "seats" },
    room.seats.map((s) =>
      h(
        "li",
        {
          class: ["seat", s.connected ? "online" : "offline", waiting.has(s.seat) ? "waiting" : ""].join(" "),
          "data-seat": s.seat,
        },
        h("span", { class: "dot", title: s.connected ? "connected" : "not connected" }),
        h("strong", {}, s.name),
        s.seat === mySeat ? h("span", { class: "tag" }, "you") : null,
        s.kind === "bot" ? h("span", { class: "tag" }, s.bot ? `bot, ${s.bot}` : "bot") : null,
        s.kind !== "bot" && !s.connected ? h("span", { class: "tag warn" }, "away") : null,
        waiting.has(s.seat) ? h("span", { class: "tag ask" }, s.idle != null ? `deciding ${Math.round(s.idle)}s` : "deciding") : null,
      ),
    ),
  );
}

export function renderLog(log) {
  const list = h("ol", { class: "log", id: "log", tabindex: 0, "aria-label": "Log" }, log.map((entry) => h("li", {}, entry.text)));
  return h("section", { class: "panel", id: "log-panel" }, h("h2", {}, "Log"), list);
}

// A choice's action without its label: what the server is sent, and the button's key.
export function actionJson(action) {
  const { label, ...json } = action;
  return json;
}

export function actionKey(action) {
  return JSON.stringify(actionJson(action));
}

// One button for one legal action; it carries its action so that a late tap can be checked.
export function choiceAttrs(ctx, action, extra = {}) {
  return {
    type: "button",
    class: "choice",
    "data-kind": action.kind,
    "data-index": ctx.legal.indexOf(action),
    "data-key": actionKey(action),
    onclick: ctx.onChoose ? () => ctx.onChoose(action) : null,
    disabled: !ctx.onChoose,
    ...extra,
  };
}

// A short message that stays in sight whatever is scrolled (a late tap, an offline tap).
let noticeTimer = null;
export function notify(text, kind = "warn") {
  let box = document.getElementById("notice");
  if (!box) {
    box = h("div", { id: "notice", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), 6000);
}

// A tap that began on a choice and ended after that choice left the screen (the game moved
// on under the finger) is said out loud instead of vanishing.
const LIVE = "button.choice:not(:disabled), .clickable";
let armed = null;
function watchTaps() {
  document.addEventListener(
    "pointerdown",
    (event) => {
      const target = event.target instanceof Element ? event.target.closest(LIVE) : null;
      armed = target && target.closest("#app") ? target : null;
    },
    true,
  );
  document.addEventListener(
    "pointerup",
    () => {
      const was = armed;
      armed = null;
      if (was && (!was.isConnected || !was.matches(LIVE))) {
        notify("That choice is gone: the game moved on before your tap. Look again and choose.");
      }
    },
    true,
  );
}
if (typeof document !== "undefined") watchTaps();

export function renderOutcome(outcome, seats) {
  if (!outcome) return null;
  // winners by seat name: outcome.winners holds team ids ("l"), never shown to a person
  const seatsWon = (outcome.winning_seats || []).map((s) => seats[s]).join(", ");
  return h(
    "section",
    { class: "panel outcome", id: "outcome" },
    h("h2", {}, "Game over"),
    h("p", {}, outcome.reason),
    h("p", { class: "winners" }, `Winners: ${seatsWon || "nobody"}`),
  );
}

// Paint the screen into `root` from one view message; `onChoose(action)` sends a choice.
// The screen is built whole, then the page is patched into it (patch.js): what stays is
// kept, with its scroll, focus and hover; the log follows its newest entry unless the person
// scrolled it up.
export function paint(root, options) {
  const oldLog = root.querySelector("#log");
  const following = !oldLog || oldLog.scrollTop + oldLog.clientHeight >= oldLog.scrollHeight - 8;
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement : null;
  const next = document.createElement(root.nodeName);
  build(next, options);
  patchChildren(root, next);
  if (options.board && options.board.afterPaint) options.board.afterPaint(root);
  const log = root.querySelector("#log");
  if (log && following) log.scrollTop = log.scrollHeight;
  if (focused && !focused.isConnected) {
    // The control a keyboard was on went with its decision: land on the next one, and say
    // so when the decision went without this person choosing.
    const landing = root.querySelector("#choices button.choice:not(:disabled), button.choice:not(:disabled)") || root.querySelector("#choices");
    if (landing) landing.focus({ preventScroll: true });
    if (!justChose) notify("The choice you were on is gone: the game moved on.", "info");
    justChose = false;
  }
}

let justChose = false;

function build(root, { view, room, seat, board, onChoose, extra, replay = false, rules = [] }) {
  const legal = view.legal || [];
  const header = h(
    "header",
    { class: "bar" },
    h("h1", {}, room.game_name),
    h(
      "span",
      { class: "who" },
      replay
        ? `Replay seen by ${seat === null || seat === undefined ? (view.viewer === "omniscient" ? "everyone" : "a spectator") : view.seats[seat]}`
        : seat === null || seat === undefined
          ? "Spectator"
          : `You are ${view.seats[seat]}`,
    ),
  );
  root.append(header);
  if (room.seed_chosen) {
    // Everyone is told: the room's creator chose the seed, so knows the deal in advance.
    root.append(h("p", { class: "muted", id: "seed-chosen" }, "The room's creator chose this game's random seed (every other seat is a bot)."));
  }
  // A drawn board may seat the players itself, place the choices on what they act on and
  // word the end (board.ownsSeats / ownsChoices / outcome); it gets all it needs in ctx.
  const chose = onChoose
    ? (action) => {
        justChose = true;
        onChoose(action);
      }
    : null;
  // rules: the game's own summary of its rules (GET /api/games), for the board's rules panel
  const ctx = { legal, onChoose: chose, room, seat, replay, rules: rules || [] };
  if (!(board && board.ownsSeats)) root.append(renderSeats(room, view, seat));
  if (view.outcome) root.append(board && board.outcome ? board.outcome(view, ctx) : renderOutcome(view.outcome, view.seats));
  if (extra) root.append(extra);
  if (board && board.ownsChoices) {
    // the board draws the prompt, the buttons and "Waiting for ..." beside what they act on
  } else if (onChoose && view.decision && legal.length) {
    root.append(
      h(
        "section",
        { class: "panel choices", id: "choices", tabindex: -1 },
        h("h2", {}, view.decision.prompt),
        h(
          "div",
          { class: "buttons" },
          legal.map((action) => h("button", choiceAttrs(ctx, action), action.label)),
        ),
      ),
    );
  } else if (onChoose && !view.outcome) {
    const names = (view.waiting || []).map((s) => view.seats[s]);
    root.append(
      h("section", { class: "panel choices", id: "choices", tabindex: -1 }, h("p", { class: "muted" }, names.length ? `Waiting for ${names.join(", ")}…` : "Waiting…")),
    );
  }
  const main = h("div", { class: "main" });
  if (board) main.append(board.render(view, ctx));
  else main.append(renderState(view.state));
  main.append(renderLog(view.log || []));
  root.append(main);
}
