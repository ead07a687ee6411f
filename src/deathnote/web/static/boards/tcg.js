// The Death Note TCG, drawn from the view only: both fields as rows of cards, victory points
// toward the goal, decks and discards, the Character File, my hand; the Death Note's pending
// mark (the view holds it for its owner only).
import { h } from "../dom.js";
import { actionsOn, back, backs, choiceButton, infoName, leftover, foldable, outcomePanel, promptPanel, rulesPanel, seatClass, seatTags } from "./parts.js";

// A card named in a pile: a tap shows its printed text (from the view).
const named = (c) => infoName(c.name, c.text, { what: "Card" });

export const ownsSeats = true;
export const ownsChoices = true;


function buttonsFor(ctx, acts, placed) {
  for (const a of acts) placed.add(a);
  return acts.length ? h("div", { class: "buttons" }, acts.map((a) => choiceButton(ctx, a))) : null;
}

function faceFacts(c) {
  const facts = [c.kind_name];
  if (c.kind !== "special") facts.push(`cost ${c.cost}`);
  if (c.points !== undefined) facts.push(`${c.points} point${c.points === 1 ? "" : "s"}`);
  return facts.join(" · ");
}

function faceCard(c, cls, ...children) {
  return h(
    "div",
    { class: `card face tcg-card ${c.kind} ${cls}`, "data-card": c.id },
    h("strong", { class: "card-name" }, c.name),
    c.title ? h("small", { class: "card-title" }, c.title) : null,
    h("small", { class: "facts-line" }, faceFacts(c)),
    c.text ? h("p", { class: "card-text" }, c.text) : null,
    children,
  );
}

function specialOn(fc) {
  const sp = fc.special;
  if (!sp) return null;
  if (sp.card) {
    return h(
      "div",
      { class: `attached${sp.face_up ? "" : " down"}` },
      h("small", {}, sp.face_up ? "Special attached" : "Special attached face down (only you know it)"),
      h("strong", {}, `${sp.card.name}${sp.card.title ? ` — ${sp.card.title}` : ""}`),
      h("p", { class: "card-text" }, sp.card.text),
    );
  }
  return h("div", { class: "attached down" }, back("face-down Special"), h("small", {}, " a face-down Special"));
}

function fieldCard(view, ctx, fc, used, placed) {
  // a Character's choices name it; with two of one name the first takes them
  const mine = used.has(fc.name) ? [] : (ctx.legal || []).filter((a) => a.character === fc.name || a.target === fc.name);
  used.add(fc.name);
  const state = fc.face_up ? (fc.upright ? "" : "sideways") : "face down";
  if (!fc.face_up) {
    return h(
      "div",
      { class: "card tcg-card down", "data-card": fc.id },
      h("span", { class: "down-art" }),
      h("strong", { class: "card-name" }, fc.name),
      h("small", {}, "face down"),
      specialOn(fc),
      buttonsFor(ctx, mine, placed),
    );
  }
  return faceCard(fc, `${fc.upright ? "upright" : "sideways"}${mine.length ? " playable" : ""}`, state ? h("span", { class: "state-tag" }, state) : null, specialOn(fc), buttonsFor(ctx, mine, placed));
}

function side(view, ctx, seat, placed, used) {
  const state = view.state;
  const p = state.players[seat];
  const goal = state.win_points;
  const marks = [];
  if (state.current === seat && !view.outcome) marks.push(h("span", { class: "marker turn" }, "to play"));
  if (state.first === seat) marks.push(h("span", { class: "marker" }, "played first"));
  if (p.protected) marks.push(h("span", { class: "marker" }, "protected"));
  if (p.deathnote_used_this_turn) marks.push(h("span", { class: "marker" }, "Death Note used this turn"));
  const top = p.discard.length ? p.discard[p.discard.length - 1] : null;
  return h(
    "section",
    { class: `panel tcg-side ${seatClass(view, ctx, seat)}${seat === ctx.seat ? " mine" : ""}`, "data-seat": seat },
    h("div", { class: "seat-head" }, h("strong", {}, view.seats[seat]), h("span", { class: "muted" }, `${p.deck} deck`), seatTags(view, ctx, seat), marks),
    h(
      "div",
      { class: "vp", title: `${p.points} of ${goal} victory points` },
      h("div", { class: "vp-bar" }, h("div", { class: "vp-fill", style: { width: `${Math.min(100, (100 * p.points) / goal)}%` } })),
      h("small", {}, `${p.points} / ${goal} victory points`),
    ),
    h(
      "div",
      { class: "piles" },
      h("div", { class: "pile" }, h("h3", {}, "Deck"), backs(p.deck_count, "card")),
      h("div", { class: "pile" }, h("h3", {}, "Hand"), backs(p.hand_count, "card")),
      h(
        "div",
        { class: "pile" },
        h("h3", {}, `Discard (${p.discard.length})`),
        top ? h("span", {}, named(top)) : h("span", { class: "muted" }, "empty"),
        p.discard.length > 1 ? foldable(`tcg-discard-${seat}`, {}, "All", h("p", {}, p.discard.map((c, i) => [i ? ", " : "", named(c)]))) : null,
      ),
      h("div", { class: "pile" }, h("h3", {}, "Kira card"), h("span", {}, p.kira_card)),
    ),
    p.mark ? h("p", { class: "mark" }, `Your Death Note page names ${p.mark} (only you see this).`) : null,
    h("h3", {}, "Field"),
    p.field.length ? h("div", { class: "cards field" }, p.field.map((fc) => fieldCard(view, ctx, fc, used, placed))) : h("p", { class: "muted" }, "no Characters"),
  );
}

function hand(view, ctx, placed) {
  const me = typeof ctx.seat === "number" ? view.state.players[ctx.seat] : null;
  if (!me || !me.hand) return null;
  return h(
    "section",
    { class: "panel private", id: "me" },
    h("h2", {}, `Your hand (${me.hand.length})`),
    me.hand.length
      ? h("div", { class: "cards" }, me.hand.map((c) => {
          const acts = actionsOn(ctx, "card", c.id);
          return faceCard(c, acts.length ? "playable" : "", buttonsFor(ctx, acts, placed));
        }))
      : h("p", { class: "muted" }, "no cards"),
  );
}

// The Character File (the book the Death Note names from) as small cards: each Character's
// name, number, cost and points, its text on a tap; the name my Death Note page marks, if any.
function characterFile(view, ctx) {
  const state = view.state;
  const me = typeof ctx.seat === "number" ? state.players[ctx.seat] : null;
  const marked = me ? me.mark : null;
  const cards = state.character_file_cards || [];
  return foldable(
    "tcg-file",
    { class: "panel character-file", id: "character-file" },
    `Character File (${state.character_file.length} names)`,
    h(
      "div",
      { class: "cards file" },
      cards.map((c) =>
        h(
          "div",
          { class: `card face tcg-card file-card${c.name === marked ? " marked" : ""}`, "data-card": c.id },
          h("span", { class: "card-num" }, String(c.number)),
          h("strong", { class: "card-name" }, infoName(c.name, c.text, { what: "Card", title: `${c.name} (${c.number})` })),
          h("small", { class: "facts-line" }, faceFacts(c)),
          c.name === marked ? h("span", { class: "state-tag" }, "your Death Note page") : null,
        ),
      ),
    ),
  );
}

export function render(view, ctx) {
  const state = view.state;
  const placed = new Set();
  const used = new Set();
  const me = typeof ctx.seat === "number" ? ctx.seat : null;
  const order = me === null ? [0, 1] : [1 - me, me];
  const sides = order.map((s) => side(view, ctx, s, placed, used));
  const myHand = hand(view, ctx, placed);
  const head = h("div", { class: "bar tcg-head" }, h("h2", {}, `Turn ${state.turn}: ${state.phase_name}`));
  const file = characterFile(view, ctx);
  const byCard = (ctx.legal || []).some((a) => a.card !== undefined && placed.has(a));
  const prompt = promptPanel(view, ctx, leftover(ctx, placed), byCard ? "Tap a button on a card in your hand." : "Tap a button on a Character.");
  return h("div", { class: "board tcg" }, head, sides[0], prompt, sides[1], myHand, file, rulesPanel(ctx.rules));
}

export function outcome(view) {
  const state = view.state;
  const out = view.outcome;
  const won = out.winning_seats.map((s) => `${view.seats[s]} (${state.players[s].deck} deck)`);
  return outcomePanel(won.length ? `${won.join(" and ")} wins.` : "Nobody wins.", [out.reason]);
}
