// The creator's room page: invite links, presence, and handing an idle seat to a bot.
import { h, clear, api, tokenFromUrl, roomIdFromUrl, deadEnd } from "./dom.js";
import { linksPanel } from "./lobby.js";
import { renderSeats } from "./screen.js";
import { applyPatch } from "./delta.js";
import { rememberRoom, clockLine } from "./table.js";
import { chatPanel } from "./chat.js";

const root = document.getElementById("app");
const status = document.getElementById("status");
const roomId = roomIdFromUrl();
const token = tokenFromUrl();
let links = null;
let last = null;
let lastState = null;

function draw(message) {
  last = message;
  const room = message.room;
  clear(root);
  root.append(h("header", { class: "bar" }, h("h1", {}, `${room.game_name}: room ${room.id}`)));
  root.append(renderSeats(room, message.view, null));
  const clocks = clockLine(room, null);
  if (clocks) root.append(clocks);
  if (links) root.append(linksPanel(room, links));
  root.append(joinedPanel(room));
  const rows = room.seats
    .filter((s) => s.kind === "human")
    .map((s) =>
      h(
        "li",
        {},
        `${s.name}: ${s.connected ? "connected" : "away"}${s.idle != null ? `, deciding for ${Math.round(s.idle)}s` : ""} `,
        h(
          "button",
          {
            type: "button",
            class: "small hand",
            "data-seat": s.seat,
            onclick: async () => {
              try {
                await api("POST", `/api/rooms/${roomId}/seats/${s.seat}/bot`, { token });
                status.textContent = `${s.name} is now played by a bot`;
              } catch (e) {
                status.textContent = e.message;
              }
            },
          },
          "Hand to a bot",
        ),
      ),
    );
  root.append(h("section", { class: "panel" }, h("h2", {}, "Seats left idle"), rows.length ? h("ul", {}, rows) : h("p", { class: "muted" }, "Every seat is a bot."), h("p", { class: "muted" }, "A seat can be handed to a bot when its person is away, or has been deciding for too long.")));
  if (message.view.outcome) root.append(h("p", {}, h("a", { href: `/replay/${roomId}?token=${encodeURIComponent(token)}` }, "Replay this game")));
}

// Who has joined: each person seat's link, the nickname its holder chose, and presence.
function joinedPanel(room) {
  const people = room.seats.filter((s) => links && links.seats[s.seat]);
  return h(
    "section",
    { class: "panel", id: "joined" },
    h("h2", {}, "Who has joined"),
    people.length
      ? h(
          "ul",
          {},
          people.map((s) =>
            h(
              "li",
              { "data-seat": s.seat },
              h("strong", {}, `${s.seat_name}'s link: `),
              s.nick ? `${s.nick}, ` : "nobody has chosen a name yet, ",
              s.kind === "bot" ? "played by a bot now" : s.connected ? "connected" : "away",
              " ",
              h(
                "button",
                {
                  type: "button",
                  class: "small mute",
                  "data-seat": s.seat,
                  onclick: async () => {
                    try {
                      await api("POST", `/api/rooms/${roomId}/seats/${s.seat}/mute`, { token, muted: !s.muted });
                      status.textContent = s.muted ? `${s.name} may chat again` : `${s.name} is muted in the chat`;
                    } catch (e) {
                      status.textContent = e.message;
                    }
                  },
                },
                s.muted ? "Unmute in chat" : "Mute in chat",
              ),
            ),
          ),
        )
      : h("p", { class: "muted" }, "Every seat is a bot."),
  );
}

async function main() {
  try {
    const info = await api("GET", `/api/rooms/${roomId}?token=${encodeURIComponent(token)}`);
    links = info.links || null;
    rememberRoom({ room: roomId, link: `/room/${roomId}?token=${token}`, role: "creator", seat: null, seatName: null, game: info.room.game_name });
  } catch (e) {
    deadEnd(root, e.message);
    return;
  }
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  let attempts = 0;
  let socket = null;
  // The table's chat, to moderate it (mute a seat): read only, and never the spectators'
  // channel while the game runs (the creator often holds a seat too).
  const chat = chatPanel({ role: "creator", send: null });
  const connect = () => {
    socket = new WebSocket(`${scheme}://${window.location.host}/ws/${roomId}?token=${encodeURIComponent(token)}`);
    socket.addEventListener("message", (event) => {
      const m = JSON.parse(event.data);
      if (m.type === "view") {
        // Later views hold only the log after the step we had (`since`): append them;
        // a `patch` instead of the `state` changes the state we had (delta.js).
        if (m.since !== null && m.since !== undefined) {
          if (!last || last.step !== m.since) return socket.close();
          m.view.log = [...(last.view.log || []), ...m.view.log];
          if (m.view.patch) {
            m.view.state = applyPatch(structuredClone(lastState), m.view.patch);
            delete m.view.patch;
          }
        } else if (m.view.patch) return socket.close();
        lastState = structuredClone(m.view.state); // as sent: the page may change its copy
        draw(m);
      }
      else if (m.type === "error") status.textContent = m.message;
      else if (m.type === "chat") chat.add(m);
      else if (m.type === "chat_log") chat.replace(m.messages);
      else if (m.type === "rematch") window.location.href = m.url;
    });
    socket.addEventListener("close", () => {
      if (attempts++ < 30) setTimeout(connect, 1000);
    });
  };
  connect();
  // Idle times move on while nobody acts: refresh the page's facts now and then.
  setInterval(async () => {
    try {
      const info = await api("GET", `/api/rooms/${roomId}?token=${encodeURIComponent(token)}`);
      if (last && info.room.step === last.room.step) draw({ ...last, room: info.room });
    } catch {
      /* the WebSocket reports problems */
    }
  }, 5000);
}

main();
