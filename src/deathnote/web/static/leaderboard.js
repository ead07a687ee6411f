// The leaderboard of one game: players by rating (OpenSkill, mu - 3 sigma), as text only.
import { h, clear, api, roomIdFromUrl } from "./dom.js";

const root = document.getElementById("app");
const gameId = roomIdFromUrl();

async function main() {
  let data;
  try {
    data = await api("GET", `/api/leaderboard/${encodeURIComponent(gameId)}`);
  } catch (e) {
    clear(root).append(h("section", { class: "panel dead-end" }, h("h2", {}, "No such leaderboard"), h("p", {}, e.message), h("p", {}, h("a", { href: "/" }, "Start a new game"))));
    return;
  }
  document.title = `${data.game_name} leaderboard · deathnote`;
  clear(root);
  root.append(h("h1", {}, `${data.game_name}: leaderboard`));
  root.append(h("p", { class: "muted" }, "Rated games only. Rating: a cautious estimate of skill (it starts at 0 and grows as games show more)."));
  if (!data.players.length) {
    root.append(h("p", { id: "no-players" }, "No rated game has ended yet."));
    return;
  }
  root.append(
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "data", id: "leaderboard" },
        h("thead", {}, h("tr", {}, ["#", "Player", "Rating", "Games", "Wins"].map((t) => h("th", {}, t)))),
        h(
          "tbody",
          {},
          data.players.map((p) =>
            h("tr", {}, h("td", {}, String(p.rank)), h("td", {}, p.bot ? `${p.name} (bot)` : p.name), h("td", {}, p.rating.toFixed(1)), h("td", {}, String(p.games)), h("td", {}, String(p.wins))),
          ),
        ),
      ),
    ),
  );
}

main();
