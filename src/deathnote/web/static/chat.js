// Table chat below the game: the players' channel, and for spectators their own channel.
// Every message is shown as text (h() uses text nodes only).
import { h, clear } from "./dom.js";

const TITLES = { players: "Table chat", spectators: "Spectators' chat" };

function entry(message) {
  return h("li", { "data-number": message.number, "data-channel": message.channel }, h("strong", {}, `${message.name}:`), message.text);
}

// A chat panel placed after #app. `role`: "seat", "spectator" or "creator"; `send(text)`
// is null on pages that only read (the replay). While the game runs a seat and the
// creator's room page read the players' channel only (the creator often plays too), and
// the room page writes to neither; the spectators' link reads both.
export function chatPanel({ role, send, readOnly = false }) {
  const panel = h("section", { class: "panel chat", id: "chat" });
  const app = document.getElementById("app");
  app.parentNode.insertBefore(panel, app.nextSibling);
  const writes = role === "seat" ? "players" : "spectators";
  const channels = readOnly || role === "spectator" ? ["players", "spectators"] : ["players"];
  const canWrite = Boolean(send) && !readOnly && role !== "creator";
  const lists = {};
  for (const channel of channels) {
    lists[channel] = h("ol", { id: `chat-${channel}`, "aria-live": "polite" });
    const note = channel === "spectators" && !readOnly ? h("p", { class: "muted" }, "Only spectators read this channel while the game runs.") : null;
    panel.append(...[h("h2", {}, TITLES[channel]), note, lists[channel]].filter(Boolean));
  }
  if (canWrite) {
    const input = h("input", { id: "chat-text", name: "chat", maxlength: 1000, autocomplete: "off", placeholder: writes === "players" ? "Say something to the table" : "Say something to the spectators" });
    const form = h("form", { id: "chat-form" }, input, h("button", { type: "submit", class: "small" }, "Send"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      send(text);
      input.value = "";
    });
    panel.append(form);
  }
  const seen = new Set();
  const add = (message) => {
    const list = lists[message.channel];
    const key = `${message.channel}:${message.number}`;
    if (!list || seen.has(key)) return;
    seen.add(key);
    list.append(entry(message));
    list.scrollTop = list.scrollHeight;
  };
  return {
    add,
    replace(messages) {
      for (const list of Object.values(lists)) clear(list);
      seen.clear();
      for (const m of messages) add(m);
    },
  };
}
