// The lobby: pick a game, its options and seats; create the room; copy the invite links.
import { h, clear, api, absolute, copyButton } from "./dom.js";
import { optionsForm } from "./options-form.js";

const root = document.getElementById("app");

function seatRow(game, index, names) {
  const select = h(
    "select",
    { name: `seat-${index}`, "data-seat": index },
    h("option", { value: "human" }, "a person (invite link)"),
    (game.bots || game.agents.map((a) => ({ agent: a, label: `bot, ${a}` }))).map((b) =>
      h("option", { value: `bot:${b.agent}` }, b.label),
    ),
  );
  if (index > 0) select.value = `bot:${game.agents.includes("heuristic") ? "heuristic" : "random"}`;
  return h("label", { class: "seat-row" }, h("span", {}, names[index] || `Player ${index + 1}`), select);
}

export function linksPanel(room, links) {
  const row = (label, path) =>
    h("li", {}, h("strong", {}, label), " ", h("a", { href: path, class: "invite" }, absolute(path)), " ", copyButton(absolute(path)));
  return h(
    "section",
    { class: "panel", id: "links" },
    h("h2", {}, "Invite links"),
    h("p", { class: "muted" }, "Each person link is a secret seat: send it only to that person."),
    h(
      "ul",
      { class: "links" },
      links.seats.map((path, i) => (path ? row(room.seats[i].name, path) : null)),
      row("Spectators", links.spectator),
      row("Room page (yours: presence, hand a seat to a bot)", links.admin),
    ),
  );
}

async function main() {
  const games = await api("GET", "/api/games");
  clear(root);
  const gameSelect = h("select", { id: "game", name: "game" }, games.map((g) => h("option", { value: g.id }, g.name)));
  const players = h("input", { id: "players", type: "number", min: 1, max: 12 });
  const optionsBox = h("div", { id: "options-box" });
  let options = null;
  const seats = h("div", { id: "seats" });
  const clock = h(
    "select",
    { id: "clock", name: "clock" },
    h("option", { value: "none" }, "no clock"),
    h("option", { value: "relaxed" }, "relaxed: 2 min a decision, 10 min in reserve"),
    h("option", { value: "normal" }, "normal: 45 s a decision, 3 min in reserve"),
    h("option", { value: "fast" }, "fast: 15 s a decision, 1 min in reserve"),
  );
  // The bot that takes over a person's seat handed to a bot (idle or gone).
  const standIn = h("select", { id: "stand-in", name: "stand-in" });
  const rated = h("input", { type: "checkbox", id: "rated", name: "rated" });
  const standInRow = h("label", { id: "stand-in-row" }, h("span", {}, "A seat left idle goes to"), standIn);
  // A rated room's idle seats are always played by the weakest bot (the server's rule:
  // nobody gains by leaving their seat), so the level is not asked then.
  const ratedStandIn = h("p", { class: "help", id: "rated-stand-in" }, "In a rated game a seat left idle goes to the weakest bot.");
  const showStandIn = () => {
    standInRow.style.display = rated.checked ? "none" : "";
    standIn.disabled = rated.checked;
    ratedStandIn.style.display = rated.checked ? "" : "none";
  };
  rated.addEventListener("change", showStandIn);
  showStandIn();
  const message = h("p", { class: "status", id: "lobby-error" });
  const result = h("div", { id: "result" });

  const current = () => games.find((g) => g.id === gameSelect.value);
  let drawn = "";
  const drawSeats = () => {
    const game = current();
    const count = Math.max(game.min_players, Math.min(game.max_players, Number(players.value) || game.min_players));
    // A change event that changes nothing (leaving the field) keeps what was chosen below.
    if (drawn === `${game.id}/${count}`) return;
    drawn = `${game.id}/${count}`;
    const names = count === game.min_players ? game.seat_names : [];
    clear(seats).append(...Array.from({ length: count }, (_, i) => seatRow(game, i, names)));
    // The options form of this game, for this many seats (seat options name the seats).
    let kept = {};
    try {
      kept = options && options.game === game.id ? options.read() : {};
    } catch {
      kept = {};
    }
    options = optionsForm(game.options_schema, Array.from({ length: count }, (_, i) => names[i] || `Player ${i + 1}`), kept);
    options.game = game.id;
    clear(optionsBox).append(options.element);
    const levels = game.bots || game.agents.map((a) => ({ agent: a, label: `bot, ${a}` }));
    clear(standIn).append(...levels.map((b) => h("option", { value: b.agent }, b.label)));
    standIn.value = game.agents.includes("heuristic") ? "heuristic" : "random";
  };
  gameSelect.addEventListener("change", () => {
    const game = current();
    players.min = game.min_players;
    players.max = game.max_players;
    players.value = game.min_players;
    players.disabled = game.min_players === game.max_players;
    drawSeats();
  });
  players.addEventListener("change", drawSeats);

  const form = h(
    "form",
    { class: "panel lobby", id: "new-room" },
    h("h1", {}, "New room"),
    h("label", {}, h("span", {}, "Game"), gameSelect),
    h("label", {}, h("span", {}, "Players"), players),
    optionsBox,
    h("fieldset", {}, h("legend", {}, "Seats"), seats),
    standInRow,
    h("label", {}, h("span", {}, "Turn clock (a bot moves when it runs out)"), clock),
    h("label", {}, h("span", {}, "Rated (the result counts on the game's leaderboard)"), rated),
    ratedStandIn,
    h("button", { type: "submit", id: "create" }, "Create the room"),
    message,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "";
    let opts = {};
    try {
      opts = options.read();
    } catch (error) {
      message.textContent = error.message;
      return;
    }
    const seatSpecs = [...seats.querySelectorAll("select")].map((s) =>
      s.value === "human" ? (rated.checked ? { kind: "human" } : { kind: "human", stand_in: standIn.value }) : { kind: "bot", agent: s.value.slice(4) },
    );
    try {
      const created = await api("POST", "/api/rooms", { game: gameSelect.value, players: seatSpecs.length, options: opts, seats: seatSpecs, clock: clock.value, rated: rated.checked });
      const info = await api("GET", `/api/rooms/${created.room}?token=${encodeURIComponent(created.creator_token)}`);
      clear(result).append(linksPanel(info.room, created.links));
    } catch (error) {
      message.textContent = error.message;
    }
  });
  root.append(form, result);
  gameSelect.dispatchEvent(new Event("change"));
}

if (root.classList.contains("lobby")) main().catch((e) => (root.textContent = e.message));
