// Death Note Werewolf, drawn from the view only: the seats around the table, the piles,
// my Role and hand as cards; the eyes-closed steps as a dark table.
import { h } from "../dom.js";
import { actionsOn, backs, card, choiceButton, infoList, infoName, leftover, foldable, outcomePanel, promptPanel, rulesPanel, seatClass, seatTags } from "./parts.js";

export const ownsSeats = true;
export const ownsChoices = true;


function lookups(state) {
  const cards = new Map(state.card_list.map((c) => [c.id, c]));
  const roles = new Map(state.role_list.map((r) => [r.id, r]));
  const cardName = (id) => (cards.get(id) || { name: "?" }).name;
  const roleByName = (name) => [...roles.values()].find((r) => r.name === name) || null;
  // A card or Role named on the table: a tap shows its text (from the view's lists).
  const cardInfo = (id) => infoName(cardName(id), (cards.get(id) || {}).text, { what: "Card" });
  const roleInfo = (name) => infoName(name, (roleByName(name) || {}).text, { what: "Role" });
  const cardList = (ids) => infoList(ids.map(cardInfo));
  return { cards, roles, cardName, roleName: (id) => (roles.get(id) || { name: "?" }).name, cardInfo, roleInfo, cardList };
}

function seatTile(view, ctx, x, look, placed) {
  const state = view.state;
  const me = state.me;
  const known = me && me.known_roles ? me.known_roles[String(x.seat)] : null;
  const role = x.role_name || (known ? look.roleName(known) : null);
  const acts = actionsOn(ctx, "seat", x.seat);
  for (const a of acts) placed.add(a);
  const marks = [];
  if (x.first) marks.push(h("span", { class: "marker first", title: "first player" }, "First player"));
  if (x.current && !state.eyes_closed && !view.outcome) marks.push(h("span", { class: "marker turn" }, "Turn"));
  const seen = me && me.seen_hands ? me.seen_hands[String(x.seat)] : null;
  return h(
    "li",
    { class: `${seatClass(view, ctx, x.seat)} ww-seat${x.alive ? "" : " dead"}${x.current ? " current" : ""}`, "data-seat": x.seat },
    h("div", { class: "seat-head" }, h("strong", {}, view.seats[x.seat]), seatTags(view, ctx, x.seat)),
    h(
      "div",
      { class: "seat-role" },
      role
        ? h("span", { class: `role-chip ${x.role_name ? "shown" : "known"}` }, look.roleInfo(role), x.role_name || x.seat === (me && me.seat) ? "" : " (you know)")
        : h("span", { class: "role-chip hidden" }, "Role hidden"),
      x.alive ? null : h("span", { class: "dead-mark" }, "dead"),
    ),
    marks.length ? h("div", { class: "marks" }, marks) : null,
    x.hand_size ? backs(x.hand_size, "card") : h("small", { class: "muted" }, "no cards"),
    seen ? h("p", { class: "seen" }, "You saw: ", look.cardList(seen)) : null,
    acts.length ? h("div", { class: "buttons" }, acts.map((a) => choiceButton(ctx, a))) : null,
  );
}

function piles(state, look) {
  const top = state.discard.length ? look.cards.get(state.discard[state.discard.length - 1]) : null;
  return h(
    "div",
    { class: "piles" },
    h("div", { class: "pile" }, h("h3", {}, "Deck"), backs(state.deck, "card")),
    h(
      "div",
      { class: "pile" },
      h("h3", {}, `Discard pile (${state.discard.length})`),
      top ? card(top, { class: "small" }) : h("span", { class: "muted" }, "empty"),
      state.discard.length > 1
        ? foldable("ww-discard", {}, "All discarded cards", h("p", {}, look.cardList(state.discard)))
        : null,
    ),
    state.removed.length ? h("div", { class: "pile" }, h("h3", {}, "Out of the game"), h("p", {}, look.cardList(state.removed))) : null,
  );
}

function mine(view, ctx, look, placed) {
  const me = view.state.me;
  if (!me) return null;
  const role = look.roles.get(me.role);
  const hand = me.hand.map((c) => {
    const acts = actionsOn(ctx, "card", c.id);
    for (const a of acts) placed.add(a);
    return card(c, { class: acts.length ? "playable" : "" }, acts.length ? h("div", { class: "buttons" }, acts.map((a) => choiceButton(ctx, a))) : null);
  });
  const notes = [];
  if (me.took) notes.push(`You took ${look.cardName(me.took)}.`);
  if (me.suggested !== undefined) notes.push(`The Worshipper points at ${me.suggested < 0 ? "no one" : view.seats[me.suggested]}.`);
  return h(
    "section",
    { class: "panel private", id: "me" },
    h("h2", {}, "Only you see this"),
    h(
      "div",
      { class: "cards" },
      h("div", { class: `card role ${me.team}` }, h("small", {}, "Your Role"), h("strong", { class: "card-name" }, me.role_name), h("small", {}, role ? role.team_name : ""), h("p", { class: "card-text" }, me.text)),
      hand,
    ),
    notes.map((n) => h("p", { class: "note" }, n)),
  );
}

// The texts of the Roles and cards in this game, for the rules panel.
function texts(state) {
  const inGame = new Set(state.roles_in_game);
  const roles = state.role_list.filter((r) => inGame.has(r.id)).map((r) => [`${r.name} (${r.team_name})`, r.text]);
  const cards = state.card_list.filter((c) => state.cards_in_game[c.id]).map((c) => [`${c.number} ${c.name} (${state.cards_in_game[c.id]} in the game)`, c.text]);
  return [...roles, ...cards];
}

export function render(view, ctx) {
  const state = view.state;
  const look = lookups(state);
  const placed = new Set();
  const table = h(
    "section",
    { class: `panel ww-table${state.eyes_closed && !view.outcome ? " eyes-closed" : ""}`, id: "table" },
    h(
      "div",
      { class: "bar" },
      h("h2", {}, state.eyes_closed && !view.outcome ? `${state.phase_name}: eyes closed` : state.phase_name),
      h("span", { class: "muted" }, `Judgments so far: ${state.judgments} · turns left this phase: ${state.turns_left}`),
    ),
    state.eyes_closed && !view.outcome ? h("p", { class: "eyes" }, "Everyone's eyes are closed.") : null,
    h("ul", { class: "seats ww-seats" }, state.seats.map((x) => seatTile(view, ctx, x, look, placed))),
    piles(state, look),
  );
  const hand = mine(view, ctx, look, placed);
  const byCard = (ctx.legal || []).some((a) => a.card !== undefined);
  const prompt = promptPanel(view, ctx, leftover(ctx, placed), byCard ? "Tap a button on one of your cards." : "Tap a button on a player.");
  const endHands =
    view.outcome && state.hands
      ? h(
          "section",
          { class: "panel" },
          h("h2", {}, "Hands at the end"),
          h("ul", {}, state.hands.map((hand, i) => h("li", {}, `${view.seats[i]}: `, hand.length ? look.cardList(hand) : "no cards"))),
        )
      : null;
  return h("div", { class: "board werewolf" }, byCard ? [prompt, hand, table] : [prompt, table, hand], endHands, rulesPanel(ctx.rules, texts(state)));
}

export function outcome(view) {
  const state = view.state;
  const out = view.outcome;
  const team = out.winners.map((w) => state.team_names[w] || w).join(" and ") || "Nobody";
  const players = out.winning_seats.map((s) => `${view.seats[s]} (${state.seats[s].role_name || "?"})`);
  return outcomePanel(`${team} wins${players.length ? `: ${players.join(", ")}` : ""}.`, [out.reason]);
}
