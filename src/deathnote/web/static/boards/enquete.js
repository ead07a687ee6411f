// Le Jeu d'Enquête, drawn from the view only: the Investigation tile being played, the
// Detective marked at the table, Suspicions as tokens against the limit, revealed and dead
// Roles, the Ryuk pawn, my Role, objectives and Actions as cards.
import { h } from "../dom.js";
import { backs, card, choiceButton, infoList, infoName, leftover, foldable, outcomePanel, promptPanel, rulesPanel, seatClass, seatTags } from "./parts.js";

export const ownsSeats = true;
export const ownsChoices = true;


function roleNamer(state) {
  const roles = new Map(state.role_list.map((r) => [r.id, r]));
  return (id) => (roles.get(id) || { name: "?" }).name;
}

// A Role named on the table: a tap shows its side and objectives (from the view).
function roleInfo(state, id, shown) {
  const role = state.role_list.find((r) => r.id === id);
  if (!role) return shown || "?";
  const side = role.faction_name && role.faction_name !== role.name ? `Side: ${role.faction_name}.` : null;
  return infoName(shown || role.name, [side, ...role.objectives], { what: "Role", title: role.name });
}

// An Action card named on the table (one seen in a hand): a tap shows its text.
function actionInfo(state, number) {
  const key = String(number);
  return infoName((state.action_names || {})[key] || "?", (state.action_texts || {})[key], { what: "Action" });
}

// What the decision's values point at (the decision's structured data says which kind).
function choiceTarget(view, action) {
  const choose = view.decision && view.decision.data ? view.decision.data.choose : null;
  if (action.kind !== "pick") return null;
  if (choose === "seat" && typeof action.v === "number") return `p${action.v}`;
  if (choose === "role_ref" && typeof action.v === "string") return action.v;
  if ((choose === "card" || choose === "play") && typeof action.v === "number") return `c${action.v}`;
  return null;
}

function placedOn(view, ctx, ref, placed) {
  const acts = (ctx.legal || []).filter((a) => choiceTarget(view, a) === ref);
  for (const a of acts) placed.add(a);
  return acts.length ? h("div", { class: "buttons" }, acts.map((a) => choiceButton(ctx, a))) : null;
}

function suspicionTokens(n, limit) {
  const shown = Math.max(n, limit);
  return h(
    "span",
    { class: "suspicions", title: `${n} Suspicion${n === 1 ? "" : "s"} of ${limit}` },
    Array.from({ length: shown }, (_, i) => h("span", { class: `susp${i < n ? " on" : ""}${i >= limit ? " over" : ""}` })),
    h("small", {}, `${n} / ${limit}`),
  );
}

function seatTile(view, ctx, x, roleName, placed) {
  const state = view.state;
  const me = state.me;
  const known = me && me.known_roles ? me.known_roles[`p${x.seat}`] : null;
  const role = x.role || known ? roleInfo(state, x.role || known) : null;
  const marks = [];
  if (x.detective) marks.push(h("span", { class: "marker detective" }, "Detective"));
  if (x.pawn) marks.push(h("span", { class: "marker ryuk" }, "Ryuk pawn"));
  if (state.current === x.seat && !view.outcome) marks.push(h("span", { class: "marker turn" }, "turn"));
  if (x.alibi) marks.push(h("span", { class: "marker" }, "Alibi"));
  if (x.no_draw) marks.push(h("span", { class: "marker" }, "no draw"));
  for (const partner of x.loves || []) marks.push(h("span", { class: "marker" }, `in love with ${view.seats[partner]}`));
  const seen = me && me.known_hands ? me.known_hands[String(x.seat)] : null;
  return h(
    "li",
    { class: `${seatClass(view, ctx, x.seat)} enq-seat${x.dead ? " dead" : ""}${x.detective ? " detective" : ""}`, "data-seat": x.seat },
    h("div", { class: "seat-head" }, h("strong", {}, view.seats[x.seat]), seatTags(view, ctx, x.seat)),
    h(
      "div",
      { class: "seat-role" },
      role
        ? h("span", { class: `role-chip ${x.role ? "shown" : "known"}` }, role, x.revealed || x.detective ? " (revealed)" : x.role ? "" : " (you know)")
        : h("span", { class: "role-chip hidden" }, "Role hidden"),
      x.dead ? h("span", { class: "dead-mark" }, "dead") : null,
    ),
    marks.length ? h("div", { class: "marks" }, marks) : null,
    x.detective ? null : suspicionTokens(x.suspicions, state.suspicion_limit),
    x.hand_size ? backs(x.hand_size, "Action card") : h("small", { class: "muted" }, "no Actions"),
    seen ? h("p", { class: "seen" }, "You saw: ", infoList(seen.map((n) => actionInfo(state, n)))) : null,
    placedOn(view, ctx, `p${x.seat}`, placed),
  );
}

function inactiveRoles(view, ctx, roleName, placed) {
  const state = view.state;
  const me = state.me;
  return h(
    "div",
    { class: "inactive" },
    h("h3", {}, "Inactive Roles"),
    h(
      "ul",
      { class: "inactive-roles" },
      state.inactive.map((r) => {
        const known = me && me.known_roles ? me.known_roles[`i${r.index}`] : null;
        const name = r.role ? roleInfo(state, r.role) : known ? [roleInfo(state, known), " (you know)"] : "Role face down";
        return h(
          "li",
          { class: `inactive-role${r.dead ? " dead" : ""}` },
          h("span", {}, `Inactive Role ${r.index + 1}: `, h("strong", {}, name)),
          r.dead ? h("span", { class: "dead-mark" }, "dead") : null,
          placedOn(view, ctx, `i${r.index}`, placed),
        );
      }),
    ),
  );
}

function tileCard(t, title) {
  return h(
    "div",
    { class: "card face tile" },
    h("small", {}, title),
    h("span", { class: "card-num" }, String(t.number)),
    h("strong", { class: "card-name" }, t.name),
    h("small", {}, `${t.suspicions} Suspicion${t.suspicions === 1 ? "" : "s"}${t.ryuk ? " · Ryuk" : ""}`),
    h("p", { class: "card-text" }, t.text),
  );
}

function actionCard(view, ctx, c, placed) {
  const buttons = placedOn(view, ctx, `c${c.number}`, placed);
  return card(
    { ...c, text: null },
    { class: `action${c.ryuk ? " ryuk" : ""}${buttons ? " playable" : ""}` },
    h("small", { class: "timing" }, `${c.timing_name}${c.ryuk ? " · Ryuk" : ""}`),
    h("p", { class: "card-text" }, c.text),
    buttons,
  );
}

function mine(view, ctx, roleName, placed) {
  const state = view.state;
  const me = state.me;
  if (!me) return null;
  return h(
    "section",
    { class: "panel private", id: "me" },
    h("h2", {}, "Only you see this"),
    h(
      "div",
      { class: "cards" },
      h(
        "div",
        { class: `card role ${me.faction}` },
        h("small", {}, "Your Role"),
        h("strong", { class: "card-name" }, me.role_name),
        h("small", {}, me.faction_name),
        h("ul", { class: "objectives" }, me.objectives.map((o) => h("li", {}, o))),
      ),
      me.looking ? tileCard(me.looking, "You look at this Investigation") : null,
      me.hand.map((c) => actionCard(view, ctx, c, placed)),
    ),
  );
}

function apples(view) {
  const state = view.state;
  if (!state.apples) return null;
  const roleName = roleNamer(state);
  return h(
    "section",
    { class: "panel", id: "apples" },
    h("h2", {}, state.series ? `Apples after game ${state.series.game} of ${state.series.games}` : "Apples"),
    h(
      "table",
      { class: "data apples" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Role"), h("th", {}, "This game"), h("th", {}, "Series"))),
      h(
        "tbody",
        {},
        state.seats.map((x, i) =>
          h(
            "tr",
            { class: state.series && state.series.over && state.series.winners.includes(i) ? "series-winner" : null },
            h("td", {}, view.seats[i]),
            h("td", {}, x.role ? roleName(x.role) : "?"),
            h("td", { title: (state.apple_lines[i] || []).join("\n") }, String(state.apples[i])),
            h("td", {}, String(state.series_apples[i])),
          ),
        ),
      ),
    ),
    h("ul", { class: "apple-lines" }, state.seats.map((x, i) => ((state.apple_lines[i] || []).length ? h("li", {}, `${view.seats[i]}: ${state.apple_lines[i].join(" ")}`) : null))),
  );
}

export function render(view, ctx) {
  const state = view.state;
  const roleName = roleNamer(state);
  const placed = new Set();
  const tokens = state.role_tokens.filter((t) => t.status !== "hidden");
  const table = h(
    "section",
    { class: "panel enq-table", id: "table" },
    h(
      "div",
      { class: "bar" },
      h("h2", {}, `Round ${state.round} of 5 (${state.direction_name})`),
      h("span", { class: "muted" }, `Investigations left this round: ${state.tiles_left_this_round} · Actions in the pile: ${state.deck} · a Role is revealed at ${state.suspicion_limit} Suspicions`),
    ),
    state.revealed_tile ? tileCard(state.revealed_tile, "Investigation being played") : null,
    state.table_notes.map((n) => h("p", { class: "note" }, n)),
    h("ul", { class: "seats enq-seats" }, state.seats.map((x) => seatTile(view, ctx, x, roleName, placed))),
    inactiveRoles(view, ctx, roleName, placed),
    tokens.length
      ? h("p", { class: "tokens-line" }, "Role tokens: ", tokens.map((t) => h("span", { class: `clue-chip ${t.status}` }, roleInfo(state, t.role), `: ${state.token_status_names[t.status]}`)))
      : null,
  );
  const hand = mine(view, ctx, roleName, placed);
  const byCard = (ctx.legal || []).some((a) => String(choiceTarget(view, a) || "").startsWith("c"));
  const prompt = promptPanel(view, ctx, leftover(ctx, placed), byCard ? "Tap a button on one of your Actions." : "Tap a button on a player or a Role.");
  return h("div", { class: "board enquete" }, byCard ? [prompt, hand, table] : [prompt, table, hand], apples(view), rulesPanel(ctx.rules, state.role_list.map((r) => [`${r.name} (${r.faction_name})`, r.objectives.join(" ")])));
}

export function outcome(view) {
  const state = view.state;
  const roleName = roleNamer(state);
  const rows = state.seats
    .map((x, i) => ({ text: `${view.seats[i]} (${x.role ? roleName(x.role) : "?"}): ${state.apples ? state.apples[i] : 0}`, n: state.apples ? state.apples[i] : 0 }))
    .sort((a, b) => b.n - a.n);
  const lines = [view.outcome.reason];
  const series = state.series;
  if (series && series.over) {
    const best = state.series_apples[series.winners[0]];
    const who = series.winners.map((s) => view.seats[s]).join(" and ");
    lines.unshift(`${series.winners.length > 1 ? "Series winners" : "Series winner"}: ${who}, with ${best} Apples over ${series.games} games.`);
  } else if (series) {
    lines.unshift(`Game ${series.game} of ${series.games} of the series: the Apples carry on to the next game.`);
  }
  return outcomePanel(`Apples this game: ${rows.map((r) => r.text).join(", ")}.`, lines);
}
