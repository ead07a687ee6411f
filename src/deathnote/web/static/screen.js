// One game screen (play and replay share it): seats, board or generic state, choices, log.
import { h, clear } from "./dom.js";
import { renderState } from "./generic.js";

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
        s.kind === "bot" ? h("span", { class: "tag" }, `bot: ${s.agent}`) : null,
        s.kind !== "bot" && !s.connected ? h("span", { class: "tag warn" }, "away") : null,
        waiting.has(s.seat) ? h("span", { class: "tag ask" }, s.idle != null ? `deciding ${Math.round(s.idle)}s` : "deciding") : null,
      ),
    ),
  );
}

export function renderLog(log) {
  const list = h("ol", { class: "log" }, log.map((entry) => h("li", {}, entry.text)));
  return h("section", { class: "panel" }, h("h2", {}, "Log"), list);
}

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
export function paint(root, { view, room, seat, board, onChoose, onCell, extra, replay = false }) {
  clear(root);
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
  const ctx = { legal, onCell: onCell || null, onChoose: onChoose || null, room, seat, replay };
  if (!(board && board.ownsSeats)) root.append(renderSeats(room, view, seat));
  if (view.outcome) root.append(board && board.outcome ? board.outcome(view, ctx) : renderOutcome(view.outcome, view.seats));
  if (extra) root.append(extra);
  if (board && board.ownsChoices) {
    // the board draws the prompt, the buttons and "Waiting for ..." beside what they act on
  } else if (onChoose && view.decision && legal.length) {
    root.append(
      h(
        "section",
        { class: "panel choices", id: "choices" },
        h("h2", {}, view.decision.prompt),
        h(
          "div",
          { class: "buttons" },
          legal.map((action, index) =>
            h(
              "button",
              {
                type: "button",
                class: "choice",
                "data-kind": action.kind,
                "data-index": index,
                onclick: () => onChoose(action),
              },
              action.label,
            ),
          ),
        ),
      ),
    );
  } else if (onChoose && !view.outcome) {
    const names = (view.waiting || []).map((s) => view.seats[s]);
    root.append(
      h("section", { class: "panel choices", id: "choices" }, h("p", { class: "muted" }, names.length ? `Waiting for ${names.join(", ")}…` : "Waiting…")),
    );
  }
  const main = h("div", { class: "main" });
  if (board) main.append(board.render(view, ctx));
  else main.append(renderState(view.state));
  main.append(renderLog(view.log || []));
  root.append(main);
}
