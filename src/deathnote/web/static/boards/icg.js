// The Investigation Card Game, drawn from the view only: the ring of Placements with the red
// one marked, each seat's Clue cards, the Death Note board, my Identity, Mission and Clues.
import { h } from "../dom.js";
import { choiceAttrs } from "../screen.js";
import { actionsOn, backs, choiceButton, infoName, leftover, foldable, outcomePanel, promptPanel, rulesPanel, seatClass, seatTags } from "./parts.js";

export const ownsSeats = true;
export const ownsChoices = true;


const SEAT_KEYS = ["target", "placement", "x_kira"];

function names(state) {
  const out = new Map();
  for (const c of state.identities) out.set(c.id, c.name);
  for (const c of state.missions) out.set(c.id, c.name);
  return (id) => out.get(id) || "?";
}

// Names that show their text on a tap (issue 16 §6); every text comes from the view.
function texts(state) {
  const name = names(state);
  const missions = new Map(state.missions.map((m) => [m.id, m]));
  const kinds = state.card_texts || {};
  const mission = (id) => infoName(name(id), (missions.get(id) || {}).text, { what: "Mission", title: `Mission: ${name(id)}` });
  const identity = (id) => infoName(name(id), kinds.identity, { what: "Identity", title: `Identity: ${name(id)}` });
  const clue = (id) => {
    const m = missions.get(id);
    const lines = m ? [kinds.mission_clue, `The ${m.name} Mission: ${m.text}`] : [kinds.id_clue];
    return infoName(name(id), lines, { what: "Clue card", title: `${m ? "Mission-Clue" : "ID-Clue"}: ${name(id)}` });
  };
  return { mission, identity, clue };
}

function chip(content, cls = "") {
  return h("span", { class: `clue-chip ${cls}` }, content);
}

function seatClues(state, row, name) {
  const info = texts(state);
  if (state.rules === "light") {
    const up = state.clues.filter((c) => !row.covered.includes(c));
    return h(
      "div",
      { class: "clue-row" },
      up.map((c) => chip(info.clue(c), state.missions.some((m) => m.id === c) ? "mission" : "")),
      row.covered.length ? backs(row.covered.length, "covered Clue") : null,
    );
  }
  return h(
    "div",
    { class: "clue-row" },
    row.table.length ? row.table.map((c) => chip(info.clue(c), state.missions.some((m) => m.id === c) ? "mission" : "")) : h("small", { class: "muted" }, "no Clue revealed"),
    h("span", { class: "in-hand" }, backs(row.hand_size, "Clue card in hand")),
  );
}

function seatTile(view, ctx, row, name, placed) {
  const state = view.state;
  const me = state.me;
  const acts = (ctx.legal || []).filter((a) => SEAT_KEYS.some((k) => a[k] === row.seat));
  for (const a of acts) placed.add(a);
  const look = me && me.looks ? me.looks[String(row.seat)] : null;
  const marks = [];
  if (row.red) marks.push(h("span", { class: "marker red" }, "red Placement"));
  if (state.current === row.seat) marks.push(h("span", { class: "marker turn" }, "investigating"));
  if (state.target === row.seat) marks.push(h("span", { class: "marker" }, "investigated"));
  if (row.eyes) marks.push(h("span", { class: "marker" }, "Shinigami Eyes"));
  const info = texts(state);
  const facts = [];
  if (row.mission) facts.push(h("span", { class: "role-chip shown" }, "Mission: ", info.mission(row.mission)));
  if (row.identity) facts.push(h("span", { class: "role-chip shown" }, "Identity: ", info.identity(row.identity)));
  else if (look) facts.push(h("span", { class: "role-chip known" }, "Your eyes saw: ", info.identity(look)));
  return h(
    "li",
    { class: `${seatClass(view, ctx, row.seat)} icg-seat${row.out ? " dead" : ""}${row.red ? " red" : ""}`, "data-seat": row.seat },
    h("div", { class: "seat-head" }, h("span", { class: "placement" }, String(row.placement)), h("strong", {}, view.seats[row.seat]), seatTags(view, ctx, row.seat), row.out ? h("span", { class: "dead-mark" }, "out") : null),
    marks.length ? h("div", { class: "marks" }, marks) : null,
    facts.length ? h("div", { class: "seat-role" }, facts) : null,
    seatClues(state, row, name),
    acts.length ? h("div", { class: `buttons${acts.length > 1 ? " pair" : ""}` }, acts.map((a) => seatButton(ctx, state, a))) : null,
  );
}

// On a seat the player is already named: an Identity or Mission investigation's button
// says only which (the view's words); its full label stays its accessible name.
function seatButton(ctx, state, action) {
  const short = action.kind === "investigate" && action.type ? (state.investigation_names || {})[action.type] : null;
  if (!short) return choiceButton(ctx, action);
  return h("button", choiceAttrs(ctx, action, { class: "choice big", "aria-label": action.label, title: action.label }), short);
}

function deathNoteBoard(view, name) {
  const state = view.state;
  if (!state.death_notes.length && !state.claims.length) return null;
  const placementOf = (seat) => (state.seats[seat] ? state.seats[seat].placement : "?");
  return h(
    "section",
    { class: "panel dn-board", id: "death-note" },
    h("h2", {}, "Death Note board"),
    h(
      "ol",
      { class: "plain" },
      state.death_notes.map((d) =>
        h(
          "li",
          { class: d.hit ? "hit" : "" },
          d.identity === null || d.identity === undefined
            ? `Turn ${d.turn}: left empty`
            : `Turn ${d.turn}: ${name(d.identity)} at Placement ${placementOf(d.seat)}: ${d.hit ? `${view.seats[d.seat]} dies` : "no one dies"}`,
        ),
      ),
      state.claims.map((c) => h("li", { class: "claim" }, `${view.seats[c.by]} (eyes) says ${view.seats[c.seat]} is ${name(c.identity)}`)),
    ),
  );
}

function clueCard(ctx, id, name, cls, placed) {
  const acts = actionsOn(ctx, "clue", id);
  for (const a of acts) placed.add(a);
  if (acts.length === 1) {
    // the card itself is the button: tap the Clue to cover, take back or reveal it
    const button = choiceButton(ctx, acts[0]);
    button.classList.add("card", "face", "clue", "playable");
    if (cls) button.classList.add(cls);
    button.dataset.card = id;
    return button;
  }
  return h(
    "div",
    { class: `card face clue ${cls}${acts.length ? " playable" : ""}`, "data-card": id },
    h("strong", { class: "card-name" }, name(id)),
    acts.length ? h("div", { class: "buttons" }, acts.map((a) => choiceButton(ctx, a))) : null,
  );
}

function mine(view, ctx, name, placed) {
  const state = view.state;
  const me = state.me;
  if (!me) return null;
  const row = state.seats[me.seat];
  let clues;
  if (state.rules === "light") {
    clues = h(
      "div",
      {},
      h("h3", {}, "Your Clue cards (covered ones face down)"),
      h("div", { class: "cards clues" }, state.clues.map((c) => clueCard(ctx, c, name, row.covered.includes(c) ? "covered" : "", placed))),
    );
  } else {
    clues = h(
      "div",
      {},
      h("h3", {}, "Revealed on the table"),
      row.table.length ? h("div", { class: "cards clues" }, row.table.map((c) => clueCard(ctx, c, name, "revealed", placed))) : h("p", { class: "muted" }, "none"),
      h("h3", {}, "In your hand"),
      h("div", { class: "cards clues" }, (me.hand || []).map((c) => clueCard(ctx, c, name, "", placed))),
    );
  }
  const notes = [];
  if (me.picks && me.picks.length) notes.push(`Chosen so far: ${me.picks.map(name).join(", ")}`);
  if (me.death_note) notes.push(`Your Death Note token: ${name(me.death_note)}`);
  return h(
    "section",
    { class: "panel private", id: "me" },
    h("h2", {}, "Only you see this"),
    h(
      "div",
      { class: "cards" },
      h("div", { class: "card role" }, h("small", {}, "Your Identity"), h("strong", { class: "card-name" }, name(me.identity))),
      h(
        "div",
        { class: `card role ${me.team}` },
        h("small", {}, "Your Mission"),
        h("strong", { class: "card-name" }, name(me.mission)),
        h("small", {}, state.team_names[me.team]),
        h("p", { class: "card-text" }, (state.missions.find((m) => m.id === me.mission) || {}).text),
      ),
    ),
    notes.map((n) => h("p", { class: "note" }, n)),
    clues,
  );
}

function history(view, name) {
  const state = view.state;
  if (!state.history.length) return null;
  return foldable(
    "icg-history",
    { class: "panel history" },
    `Investigations so far (${state.history.length})`,
    h(
      "ol",
      {},
      state.history.map((x) => {
        const kind = x.type ? ` (${state.investigation_names[x.type]})` : "";
        const parts = [];
        if (x.covered && x.covered.length) parts.push(`covered ${x.covered.map(name).join(", ")}`);
        if (x.returned && x.returned.length) parts.push(`took back ${x.returned.map(name).join(", ")}`);
        if (x.revealed && x.revealed.length) parts.push(`revealed ${x.revealed.map(name).join(", ")}`);
        return h("li", {}, `Turn ${x.turn}: ${view.seats[x.by]} investigated ${view.seats[x.seat]}${kind}${parts.length ? `: ${parts.join("; ")}` : ""}`);
      }),
    ),
  );
}

export function render(view, ctx) {
  const state = view.state;
  const name = names(state);
  const placed = new Set();
  const closed = state.eyes_closed && !view.outcome;
  const table = h(
    "section",
    { class: `panel icg-table${closed ? " eyes-closed" : ""}`, id: "table" },
    h("div", { class: "bar" }, h("h2", {}, closed ? `${state.phase_name}: eyes closed` : state.phase_name), h("span", { class: "muted" }, `Turn ${state.turn} · ${state.rules_name}`)),
    closed ? h("p", { class: "eyes" }, "Everyone's eyes are closed.") : null,
    h("ul", { class: "seats icg-seats" }, state.seats.map((row) => seatTile(view, ctx, row, name, placed))),
  );
  const hand = mine(view, ctx, name, placed);
  const byCard = (ctx.legal || []).some((a) => a.clue !== undefined);
  const prompt = promptPanel(view, ctx, leftover(ctx, placed), byCard ? "Tap a button on one of your Clue cards." : "Tap a button on a player.");
  const order = byCard ? [prompt, hand, table] : [prompt, table, hand];
  const kinds = state.card_texts || {};
  const cardTexts = [
    ...state.missions.map((m) => [`Mission: ${m.name}`, m.text]),
    ["Identity cards", kinds.identity],
    ["ID-Clue cards", kinds.id_clue],
    ["Mission-Clue cards", kinds.mission_clue],
  ].filter(([, text]) => text);
  return h("div", { class: "board icg" }, order, deathNoteBoard(view, name), history(view, name), rulesPanel(ctx.rules, cardTexts));
}

export function outcome(view) {
  const state = view.state;
  const name = names(state);
  const out = view.outcome;
  const team = out.winners.map((w) => state.team_names[w] || w).join(" and ") || "Nobody";
  const players = out.winning_seats.map((s) => `${view.seats[s]} (${state.seats[s].mission ? name(state.seats[s].mission) : "?"})`);
  return outcomePanel(`${team} wins${players.length ? `: ${players.join(", ")}` : ""}.`, [out.reason]);
}
