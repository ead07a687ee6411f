// "My rooms": the rooms this browser holds links for (kept in localStorage), with their state.
import { h, clear, api } from "./dom.js";
import { savedRooms, forgetRoom } from "./table.js";

const root = document.getElementById("app");

function tokenOf(link) {
  return new URL(link, window.location.origin).searchParams.get("token") || "";
}

async function stateOf(entry) {
  try {
    const info = await api("GET", `/api/rooms/${encodeURIComponent(entry.room)}?token=${encodeURIComponent(tokenOf(entry.link))}`);
    const room = info.room;
    const you = info.you || {};
    if (room.finished) return { text: "game over", kind: "over", room };
    if (you.asked) return { text: "your turn", kind: "turn", room };
    return { text: `in play, ${room.step} moves so far`, kind: "playing", room };
  } catch (e) {
    return { text: e.message, kind: "gone", room: null };
  }
}

function roleText(entry, room) {
  if (entry.role === "creator") return "your room page";
  if (entry.role === "spectator") return "watching";
  const seat = room && entry.seat !== null && entry.seat !== undefined ? room.seats[entry.seat] : null;
  return seat ? `you play ${seat.name}` : "your seat";
}

async function main() {
  clear(root);
  root.append(h("h1", {}, "My rooms"));
  const rooms = savedRooms();
  if (!rooms.length) {
    root.append(h("p", { class: "muted", id: "no-rooms" }, "This browser holds no room links yet. ", h("a", { href: "/", class: "button" }, "Start a new game")));
    return;
  }
  root.append(h("p", { class: "muted" }, "The links this browser opened, kept only in this browser."));
  const list = h("ul", { class: "my-rooms", id: "my-rooms" });
  root.append(list);
  const states = await Promise.all(rooms.map(stateOf));
  rooms.forEach((entry, i) => {
    const state = states[i];
    const forget = h("button", { type: "button", class: "small" }, "Forget");
    const item = h(
      "li",
      { class: `my-room ${state.kind}`, "data-room": entry.room },
      h("a", { href: entry.link }, `${entry.game || "A game"}: ${roleText(entry, state.room)}`),
      " ",
      h("span", { class: `tag ${state.kind === "turn" ? "ask" : ""}` }, state.text),
      " ",
      forget,
    );
    forget.addEventListener("click", () => {
      forgetRoom(entry.link);
      item.remove();
    });
    list.append(item);
  });
}

main();
