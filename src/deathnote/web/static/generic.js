// The generic game screen: any game from its view and legal actions, no rules known here.
import { h, humanKey } from "./dom.js";

const PRIVATE_KEYS = new Set(["me", "notebook", "hand", "private", "you", "mine", "my"]);

// Any JSON value as HTML: lists of alike objects become tables, objects definition lists.
export function renderValue(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (typeof value === "boolean") return h("span", {}, value ? "yes" : "no");
  if (typeof value !== "object") return h("span", {}, String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return h("span", { class: "muted" }, "none");
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", {}, value.map((v) => (v === null ? "—" : String(v))).join(", "));
    }
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const keys = [...new Set(value.flatMap((v) => Object.keys(v)))];
      return h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "data" },
          h("thead", {}, h("tr", {}, keys.map((k) => h("th", {}, humanKey(k))))),
          h(
            "tbody",
            {},
            value.map((row) => h("tr", {}, keys.map((k) => h("td", {}, renderValue(row[k], depth + 1))))),
          ),
        ),
      );
    }
    return h("ol", {}, value.map((v) => h("li", {}, renderValue(v, depth + 1))));
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return h("span", { class: "muted" }, "none");
  return h(
    "dl",
    { class: depth ? "kv nested" : "kv" },
    entries.map(([k, v]) => [h("dt", {}, humanKey(k)), h("dd", {}, renderValue(v, depth + 1))]),
  );
}

// The state split in what the table shows and what only this seat sees.
export function renderState(state) {
  const table = {};
  const mine = {};
  for (const [key, value] of Object.entries(state || {})) {
    if (PRIVATE_KEYS.has(key)) mine[key] = value;
    else table[key] = value;
  }
  return h(
    "div",
    { class: "state" },
    Object.keys(mine).length
      ? h("section", { class: "panel private" }, h("h2", {}, "Only you see this"), renderValue(mine))
      : null,
    h("section", { class: "panel" }, h("h2", {}, "The table"), renderValue(table)),
  );
}
