// A game's options as a form, built from the JSON Schema of its options model (served by
// /api/games): enums as menus, booleans as checkboxes, integers as number fields with their
// bounds, seats by their names, a deck as a shipped deck or a pasted card list; the
// descriptions are the help texts. Nothing here knows a game: only the schema and its
// `x-lobby` hints (engine/options.py `lobby`).
import { h } from "./dom.js";

// The field's own schema with a nullable `anyOf` folded in.
function plain(prop) {
  if (!prop.anyOf) return { ...prop, nullable: false };
  const kinds = prop.anyOf.filter((p) => p.type !== "null");
  return { ...prop, ...(kinds[0] || {}), nullable: kinds.length < prop.anyOf.length };
}

function kindOf(prop, hints) {
  if (hints.hidden) return null;
  if (hints.decks) return "decks";
  if (prop.enum || hints.labels) return "menu";
  if (hints.seat) return "seat";
  if (prop.type === "boolean") return "check";
  if (prop.type === "integer" || prop.type === "number") return "number";
  if (prop.type === "string") return "text";
  return null; // a shape the form cannot ask for: the game's default is used
}

// A pasted deck: card numbers separated by new lines, commas or spaces; "3 DN-S01",
// "3x DN-S01" or "DN-S01 x3" count copies.
export function parseCardList(text) {
  const cards = [];
  for (const line of text.split(/[\n,;]+/)) {
    const item = line.trim();
    if (!item) continue;
    const m = item.match(/^(?:(\d+)\s*[x×]?\s+)?(\S+?)(?:\s*[x×]\s*(\d+))?$/i);
    if (!m) throw new Error(`not a card: “${item}”`);
    const copies = Number(m[1] || m[3] || 1);
    for (let i = 0; i < copies; i++) cards.push(m[2]);
  }
  return cards;
}

function deckPicker(name, index, names, value, seatName) {
  const id = `opt-${name}-${index}`;
  const pasted = Array.isArray(value) ? value.join("\n") : "";
  const menu = h(
    "select",
    { id, "data-option": name, "data-index": index },
    Object.entries(names).map(([deck, label]) => h("option", { value: deck, selected: deck === value }, label)),
    h("option", { value: "", selected: Array.isArray(value) }, "a pasted card list"),
  );
  const list = h("textarea", {
    id: `${id}-cards`,
    rows: 4,
    class: "card-list",
    placeholder: "one card number a line, e.g.\n3 DN-S01\nDN-S02 x3",
    "aria-label": `${seatName}: pasted card list`,
  });
  list.value = pasted;
  const show = () => (list.hidden = menu.value !== "");
  menu.addEventListener("change", show);
  show();
  return {
    element: h("div", { class: "deck-pick" }, h("label", { for: id }, seatName), menu, list),
    read: () => (menu.value !== "" ? menu.value : parseCardList(list.value)),
  };
}

function field(name, raw, seatNames, previous) {
  const hints = raw["x-lobby"] || {};
  const prop = plain(raw);
  const kind = kindOf(prop, hints);
  if (!kind) return null;
  const id = `opt-${name}`;
  const value = previous !== undefined ? previous : prop.default;
  const title = prop.title || name;
  const help = hints.help || prop.description || "";
  const helpId = `${id}-help`;
  const helpEl = help ? h("small", { class: "help", id: helpId }, help) : null;
  let control;
  let read;
  if (kind === "decks") {
    const count = prop.maxItems || seatNames.length;
    const pickers = Array.from({ length: count }, (_, i) =>
      deckPicker(name, i, hints.decks, Array.isArray(value) ? value[i] : undefined, seatNames[i] || `Player ${i + 1}`),
    );
    return {
      element: h("fieldset", { class: "option decks" }, h("legend", {}, title), pickers.map((p) => p.element), helpEl),
      read: () => pickers.map((p) => p.read()),
    };
  }
  if (kind === "check") {
    control = h("input", { type: "checkbox", id, "data-option": name, checked: value === true, "aria-describedby": helpEl ? helpId : null });
    read = () => control.checked;
    return { element: h("div", { class: "option check" }, h("label", { for: id }, control, " ", title), helpEl), read };
  }
  if (kind === "menu" || kind === "seat") {
    const labels = hints.labels || {};
    let values = prop.enum ? [...prop.enum] : Object.keys(labels).map((k) => (prop.type === "integer" ? Number(k) : k));
    if (kind === "seat") values = seatNames.map((_, i) => i);
    if (kind === "menu" && hints.seat) values = values.filter((v) => typeof v !== "number").concat(seatNames.map((_, i) => i));
    const words = (v) => (typeof v === "number" && hints.seat ? seatNames[v] : labels[String(v)] || String(v).replace(/_/g, " "));
    const choices = prop.nullable ? [null, ...values] : values;
    control = h(
      "select",
      { id, "data-option": name, "aria-describedby": helpEl ? helpId : null },
      choices.map((v, i) => h("option", { value: String(i), selected: v === (value === undefined ? null : value) }, v === null ? "at random" : words(v))),
    );
    read = () => choices[Number(control.value)];
  } else if (kind === "number") {
    control = h("input", {
      type: "number",
      id,
      "data-option": name,
      step: 1,
      min: prop.minimum,
      max: prop.maximum,
      placeholder: prop.nullable ? hints.empty || "none" : null,
      "aria-describedby": helpEl ? helpId : null,
    });
    control.value = value === null || value === undefined ? "" : String(value);
    read = () => {
      if (control.value.trim() === "") {
        if (prop.nullable) return null;
        throw new Error(`${title}: a whole number, please`);
      }
      const n = Number(control.value);
      if (!Number.isInteger(n)) throw new Error(`${title}: a whole number, please`);
      return n;
    };
  } else {
    control = h("input", { type: "text", id, "data-option": name, maxlength: 200, "aria-describedby": helpEl ? helpId : null });
    control.value = value || "";
    read = () => control.value;
  }
  return { element: h("div", { class: "option" }, h("label", { for: id }, title), control, helpEl), read };
}

// The form of one game: {element, read()} where read() gives the options object (or throws
// a message for the person). `previous` keeps what was chosen when the form is rebuilt.
export function optionsForm(schema, seatNames, previous = {}) {
  const fields = Object.entries((schema && schema.properties) || {})
    .map(([name, prop]) => [name, field(name, prop, seatNames, previous[name])])
    .filter(([, f]) => f);
  const element = h(
    "fieldset",
    { class: "options", id: "options" },
    h("legend", {}, "Options"),
    fields.length ? fields.map(([, f]) => f.element) : h("p", { class: "muted" }, "This game has no options."),
  );
  return {
    element,
    read: () => Object.fromEntries(fields.map(([name, f]) => [name, f.read()])),
  };
}
