// Pieces the drawn boards share: choice buttons placed on what they act on, seat tags,
// the prompt panel and the end. No rules here: only what the view and its legal list say.
import { h } from "../dom.js";
import { choiceAttrs } from "../screen.js";

// One big button for one legal action (its label comes from the server).
export function choiceButton(ctx, action, text) {
  return h("button", choiceAttrs(ctx, action, { class: "choice big" }), text || action.label);
}

// The legal actions that name `key` = `value` (e.g. the card or the seat they act on).
export function actionsOn(ctx, key, value) {
  return (ctx.legal || []).filter((a) => a[key] === value);
}

// The legal actions none of `keys` places elsewhere, for the prompt panel.
export function leftover(ctx, placed) {
  return (ctx.legal || []).filter((a) => !placed.has(a));
}

// The decision under way: the prompt and the buttons not placed on a card or seat, or whom
// the table waits for. `hint` says where the other buttons are.
export function promptPanel(view, ctx, rest, hint) {
  if (!ctx.onChoose || view.outcome) return null;
  const decision = view.decision;
  if (decision && (ctx.legal || []).length) {
    return h(
      "section",
      { class: "panel choices", id: "choices", tabindex: -1 },
      h("h2", {}, decision.prompt),
      rest.length ? h("div", { class: "buttons" }, rest.map((a) => choiceButton(ctx, a))) : null,
      rest.length < ctx.legal.length && hint ? h("p", { class: "muted" }, hint) : null,
    );
  }
  const names = (view.waiting || []).map((s) => view.seats[s]);
  return h(
    "section",
    { class: "panel choices", id: "choices", tabindex: -1 },
    h("p", { class: "muted" }, names.length ? `Waiting for ${names.join(", ")}…` : "Waiting…"),
  );
}

// Presence tags of a seat from the room facts (you, bot, away, deciding).
export function seatTags(view, ctx, seat) {
  const room = (ctx.room && ctx.room.seats ? ctx.room.seats : []).find((s) => s.seat === seat);
  const waiting = new Set(view.waiting || []);
  const tags = [];
  if (seat === ctx.seat && !ctx.replay) tags.push(h("span", { class: "tag you" }, "you"));
  if (room && room.kind === "bot") tags.push(h("span", { class: "tag" }, "bot"));
  if (room && room.kind !== "bot" && !room.connected && !ctx.replay) tags.push(h("span", { class: "tag warn" }, "away"));
  if (waiting.has(seat) && !view.outcome) tags.push(h("span", { class: "tag ask" }, "deciding"));
  return tags;
}

export function seatClass(view, ctx, seat) {
  const room = (ctx.room && ctx.room.seats ? ctx.room.seats : []).find((s) => s.seat === seat);
  const online = room ? room.connected || room.kind === "bot" : true;
  return `seat ${online ? "online" : "offline"}${(view.waiting || []).includes(seat) ? " waiting" : ""}`;
}

// A card drawn face up: its printed number (if any), name and text.
export function card(c, extra = {}, ...children) {
  return h(
    "div",
    { class: `card face ${extra.class || ""}`, "data-card": c.id },
    c.number !== undefined && c.number !== null ? h("span", { class: "card-num" }, String(c.number)) : null,
    h("strong", { class: "card-name" }, c.name),
    c.text ? h("p", { class: "card-text" }, c.text) : null,
    children,
  );
}

// A card seen from its back; `label` says what it is ("card", "Clue card").
export function back(label = "card") {
  return h("span", { class: "card-back", title: label, "aria-label": label });
}

// A pile of `n` cards seen from the back: a few drawn fanned, then the count.
export function backs(n, label) {
  const drawn = Math.min(n, 8);
  return h("span", { class: "backs", title: `${n} ${label}${n === 1 ? "" : "s"}` }, Array.from({ length: drawn }, () => back(label)), h("small", {}, String(n)));
}

// The end, from the game's own words: the reason and the winners by name and team.
export function outcomePanel(title, lines) {
  return h("section", { class: "panel outcome", id: "outcome" }, h("h2", {}, "Game over"), h("p", { class: "winners" }, title), lines.map((l) => h("p", {}, l)));
}

// A folded section that stays open across repaints once a person opened it (every update
// redraws the screen, which would fold it again).
const opened = new Set();
export function foldable(key, attrs, summary, ...children) {
  const el = h("details", { ...attrs, open: opened.has(key) }, h("summary", {}, summary), children);
  el.addEventListener("toggle", () => (el.open ? opened.add(key) : opened.delete(key)));
  return el;
}

// The game's rules in short (its own words, from GET /api/games: ctx.rules), and the texts
// of its cards and Roles, folded until tapped.
export function rulesPanel(lines, texts = []) {
  return foldable(
    "rules",
    { class: "panel rules-help", id: "rules" },
    "Rules in short",
    h("ul", {}, lines.map((l) => h("li", {}, l))),
    texts.length
      ? [h("h3", {}, "Cards and Roles"), h("dl", { class: "texts" }, texts.map(([name, text]) => [h("dt", {}, name), h("dd", {}, text)]))]
      : null,
  );
}

// The text of a card, Role, tile or ability named on the screen, on a tap or from the
// keyboard: the name is a button opening a dialog with the text the view gave (no text of
// ours). `text` is a string or a list of lines; without a text the name stays plain.
export function infoName(name, text, extra = {}) {
  const lines = (Array.isArray(text) ? text : [text]).filter(Boolean);
  if (!lines.length) return h("span", { class: extra.class || null }, name);
  return h(
    "button",
    {
      type: "button",
      class: `info-link ${extra.class || ""}`,
      "aria-haspopup": "dialog",
      title: `${extra.what || "Text of"} ${name}`,
      onclick: () => showInfo(extra.title || name, lines),
    },
    name,
  );
}

// Several such names in a row that may wrap (a hand, a pile, what a seat saw): rows as
// tall as a tap target, so no name's target reaches over the row above (inline, the
// targets' negative margins overlap when the row wraps). The underlines and the gap part
// the names: a comma would stand apart after a short name's 44 px target.
export function infoList(items) {
  return h("span", { class: "info-list" }, items);
}

export function showInfo(title, lines) {
  let dialog = document.getElementById("info");
  if (!dialog) {
    dialog = h(
      "dialog",
      { id: "info", class: "info", "aria-labelledby": "info-title" },
      h("h2", { id: "info-title" }),
      h("div", { class: "info-text" }),
      h("form", { method: "dialog" }, h("button", { type: "submit", class: "close" }, "Close")),
    );
    // A tap outside the dialog closes it too.
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close();
    });
    document.body.append(dialog);
  }
  dialog.querySelector("#info-title").textContent = title;
  const body = dialog.querySelector(".info-text");
  while (body.firstChild) body.removeChild(body.firstChild);
  body.append(...lines.map((line) => h("p", {}, line)));
  if (!dialog.open) dialog.showModal();
}
