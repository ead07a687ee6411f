// The Confrontation board, drawn from the view only: the Map, tokens, dice, points, trackers.
import { h } from "../dom.js";
import { infoName, rulesPanel } from "./parts.js";



function typeName(state, type) {
  return (state.crime_types[type] || {}).name || type;
}

// The Map's letter for a crime type and the notebook's reasons: words from the view.
function glyph(state, type) {
  return (state.crime_types[type] || {}).glyph || "?";
}

function reasonName(state, reason) {
  return (state.elimination_names || {})[reason] || "eliminated";
}

function facts(state) {
  const items = [
    ["Day", state.day],
    ["Phase", state.phase_name || ""],
    ["Kira's points", `${state.kira_points} / ${state.target_points}`],
    ["Quiet Nights", `${state.quiet_nights} (L can afford ${state.quiet_allowed})`],
    ["Leads left", state.leads_left],
    ["Suspect cards", `${state.suspect_cards_drawn} drawn, ${state.suspect_cards_left} left`],
  ];
  return h("dl", { class: "facts" }, items.map(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))]));
}

// "1 pt", "2 pts": a count of points, as the key and the Lead card show it.
function pts(n) {
  return `${n} pt${n === 1 ? "" : "s"}`;
}

function leadCard(state) {
  if (!state.lead) return null;
  const side = (name) => {
    const s = state.lead[name];
    return h(
      "div",
      { class: `scene ${s.type}` },
      h("span", { class: "ab" }, name),
      h("span", {}, `${glyph(state, s.type)} ${typeName(state, s.type)}`),
      h("small", {}, `${pts(s.points)}${s.apples ? `, ${s.apples} apple${s.apples > 1 ? "s" : ""}` : ""}`),
    );
  };
  return h("div", { class: "lead" }, h("h3", {}, `Lead card ${state.lead.number}`), h("div", { class: "scenes" }, side("A"), side("B")));
}

function chaseTokens(state, mine) {
  const chase = state.chase;
  const token = (who, label) => {
    const revealed = chase.revealed ? chase.revealed[who] : null;
    const own = mine && mine.role === who ? mine.my_choice : null;
    const face = revealed || own;
    const text = face ? face : chase.chosen[who] ? "?" : "–";
    return h(
      "span",
      { class: `token ${face ? "face" : chase.chosen[who] ? "down" : "none"}`, title: `${label}'s A/B token` },
      h("small", {}, label),
      text,
    );
  };
  return h("div", { class: "chase" }, h("h3", {}, "A/B tokens"), token("kira", "Kira"), token("l", "L"));
}

function dice(state) {
  if (!state.dice.length && !state.news.length) return null;
  return h(
    "div",
    { class: "dice" },
    h("h3", {}, "Tonight"),
    h("div", {}, state.dice.map((d) => h("span", { class: `die ${d}`, title: typeName(state, d) }, typeName(state, d)))),
    state.news.length ? h("p", {}, `Nightly News: ${state.news.join(", ")}`) : null,
    state.news_faces_left.length
      ? h("p", { class: "muted" }, `Still to pick: ${state.news_faces_left.map((f) => (f === "any" ? "any" : typeName(state, f))).join(", ")}`)
      : null,
  );
}

function tracker(title, data) {
  if (!data) return null;
  return h(
    "div",
    { class: "tracker" },
    h("h3", {}, title + (data.to_place ? ` (${data.to_place} to place)` : "")),
    data.rows.map((row) =>
      h(
        "div",
        { class: `row${row.complete ? " complete" : ""}${row.used ? " used" : ""}` },
        h("span", { class: "label" }, infoName(row.label, row.text, { what: "Ability" })),
        h("span", { class: "boxes" }, Array.from({ length: row.cost }, (_, i) => h("span", { class: i < row.filled ? "box on" : "box" }))),
        row.used ? h("small", {}, "used") : null,
      ),
    ),
  );
}

// The suspects' statuses the viewer knows: L's own notebook, or everyone's after the end.
function suspectStatuses(state) {
  const nb = state.notebook && state.notebook.role === "l" ? state.notebook : state.notebooks ? state.notebooks.l : null;
  const out = new Map();
  if (nb) for (const s of nb.suspects) out.set(s.letter, s);
  return out;
}

function kiraBook(state) {
  if (state.notebook && state.notebook.role === "kira") return state.notebook;
  return state.notebooks ? state.notebooks.kira : null;
}

function grid(state, ctx) {
  const map = state.map;
  const byCell = new Map();
  for (const c of map.criminals) byCell.set(`${c.x},${c.y}`, { criminal: c });
  for (const s of map.suspects) byCell.set(`${s.x},${s.y}`, { ...(byCell.get(`${s.x},${s.y}`) || {}), suspect: s });
  const statuses = suspectStatuses(state);
  const news = new Set(state.news);
  // A criminal's cell chooses the action naming that criminal, a Home the one naming that
  // Suspect (never an action that merely shares its letter, like crime scene "A").
  const actionFor = (field, value) => (ctx.legal || []).find((a) => a[field] === value) || null;
  const board = h("div", { class: "map", style: { gridTemplateColumns: `repeat(${map.width}, minmax(44px, 1fr))` }, "aria-label": "Map" });
  for (let y = 0; y < map.height; y++) {
    for (let x = 0; x < map.width; x++) {
      const here = byCell.get(`${x},${y}`) || {};
      const classes = ["cell"];
      const parts = [];
      let key = null;
      let title = "";
      if (here.criminal) {
        const c = here.criminal;
        classes.push("criminal", c.type);
        if (c.killed) classes.push("killed");
        if (news.has(c.number)) classes.push("news");
        parts.push(h("span", { class: "num" }, String(c.number)));
        parts.push(h("span", { class: "glyph" }, glyph(state, c.type)));
        if (c.killed) parts.push(h("span", { class: "x" }, "✕"));
        key = c.number;
        title = `Criminal ${c.number} (${typeName(state, c.type)})${c.killed ? ", killed" : ""}`;
      }
      if (here.suspect) {
        const s = here.suspect;
        const status = statuses.get(s.letter);
        classes.push("home");
        if (status && status.status === "eliminated") classes.push("eliminated", `by-${status.reason}`);
        if (state.identity === s.letter) classes.push("kira-home");
        parts.push(h("span", { class: "letter" }, s.letter));
        if (status && status.status === "eliminated") parts.push(h("span", { class: "reason" }, reasonName(state, status.reason)));
        key = s.letter;
        title = `Suspect ${s.letter}'s Home` + (status && status.status === "eliminated" ? `: eliminated (${reasonName(state, status.reason)})` : "");
      }
      const action = ctx.onChoose
        ? (here.suspect && actionFor("suspect", here.suspect.letter)) || (here.criminal && actionFor("criminal", here.criminal.number))
        : null;
      const clickable = Boolean(action);
      if (clickable) classes.push("clickable");
      // A cell to choose is a button to the keyboard too (Enter or Space).
      const press = clickable ? () => ctx.onChoose(action) : null;
      board.append(
        h(
          "div",
          {
            class: classes.join(" "),
            title: title || null,
            "data-x": x,
            "data-y": y,
            "data-key": key,
            role: clickable ? "button" : null,
            tabindex: clickable ? 0 : null,
            "aria-label": clickable ? title : null,
            onclick: press,
            onkeydown: press
              ? (event) => {
                  if (event.key === "Enter" || event.key === " ") {
                    event.preventDefault();
                    press();
                  }
                }
              : null,
          },
          parts,
        ),
      );
    }
  }
  const kira = kiraBook(state);
  if (kira) {
    const a = kira.local_area;
    const pct = (n, of) => `${(100 * n) / of}%`;
    board.append(
      h("div", {
        class: "local-area",
        title: "Kira's Local Area",
        style: {
          left: pct(a.x0, map.width),
          top: pct(a.y0, map.height),
          width: pct(a.x1 - a.x0 + 1, map.width),
          height: pct(a.y1 - a.y0 + 1, map.height),
        },
      }),
    );
  }
  // Cells keep a tap size (44 px) on a phone: the map then pans inside its own frame and the
  // page never scrolls sideways.
  return h("div", { class: "map-wrap", id: "map-wrap" }, board);
}

function notebook(state) {
  const nb = state.notebook;
  if (!nb) return null;
  if (nb.role === "kira") {
    return h(
      "section",
      { class: "panel private", id: "notebook" },
      h("h2", {}, "Kira's notebook (only you see this)"),
      h("p", {}, `You are Suspect ${nb.identity}; your Home is at column ${nb.home.x + 1}, row ${nb.home.y + 1}.`),
      h("p", {}, `Local Area criminals: ${nb.local_criminals.join(", ") || "none"}`),
      h("p", {}, `Regional kills: ${nb.regional_used} used, ${nb.regional_left} left${nb.regional_kills.length ? ` (${nb.regional_kills.join(", ")})` : ""}`),
      h("p", {}, `Points from the Chase: ${nb.chase_points}${nb.ryuk_points ? `, from Ryuk: ${nb.ryuk_points}` : ""}`),
      tracker("Ryuk's tracker", nb.ryuk),
    );
  }
  return h(
    "section",
    { class: "panel private", id: "notebook" },
    h("h2", {}, "L's notebook (only you see this)"),
    h(
      "div",
      { class: "suspects" },
      nb.suspects.map((s) =>
        h(
          "span",
          { class: `suspect ${s.status}`, title: s.reason ? reasonName(state, s.reason) : "still a suspect" },
          s.letter,
          s.reason ? h("small", {}, reasonName(state, s.reason)) : null,
        ),
      ),
    ),
    h("p", {}, `Suspect cards drawn: ${nb.cards.join(", ") || "none"}`),
    tracker("Intel tracker", nb.intel),
  );
}

function history(state) {
  if (!state.history.length) return null;
  return h(
    "details",
    { class: "history" },
    h("summary", {}, `Nights so far (${state.history.length})`),
    h("ol", {}, state.history.map((n) => h("li", {}, `Night ${n.day}: news ${n.news.join(", ")}: ${n.killed === null || n.killed === undefined ? "Quiet Night" : `criminal ${n.killed} killed`}`))),
  );
}

export function render(view, ctx) {
  const state = view.state;
  return h(
    "div",
    { class: "board confrontation" },
    h(
      "section",
      { class: "panel table-top" },
      h("h2", {}, `Chapter ${state.chapter}`),
      facts(state),
      h("div", { class: "tokens" }, leadCard(state), chaseTokens(state, state.notebook), dice(state)),
      state.identity ? h("p", { class: "identity" }, `Kira was Suspect ${state.identity}.`) : null,
    ),
    h(
      "section",
      { class: "panel" },
      grid(state, ctx),
      h(
        "p",
        { class: "legend muted" },
        Object.keys(state.crime_types).map((t) => h("span", { class: `key ${t}` }, `${glyph(state, t)} = ${typeName(state, t)} (${pts(state.crime_types[t].points)})`)),
        " ✕ = killed",
      ),
    ),
    notebook(state),
    state.notebooks && !state.notebook ? tracker("Ryuk's tracker", state.notebooks.kira.ryuk) : null,
    history(state),
    rulesPanel(ctx.rules),
  );
}

// After an update: when new cells become choosable, pan the map (inside its frame only, the
// page stays where it is) so that the first of them is in sight.
let shownChoosable = "";
export function afterPaint(root) {
  const wrap = root.querySelector("#map-wrap");
  if (!wrap) return;
  const cells = [...wrap.querySelectorAll(".cell.clickable")];
  const keys = cells.map((c) => c.dataset.key).join(",");
  if (keys === shownChoosable) return;
  shownChoosable = keys;
  if (!cells.length) return;
  const seen = (c) => c.offsetLeft >= wrap.scrollLeft && c.offsetLeft + c.offsetWidth <= wrap.scrollLeft + wrap.clientWidth && c.offsetTop >= wrap.scrollTop && c.offsetTop + c.offsetHeight <= wrap.scrollTop + wrap.clientHeight;
  if (cells.some(seen)) return;
  wrap.scrollLeft = Math.max(0, cells[0].offsetLeft - wrap.clientWidth / 3);
  wrap.scrollTop = Math.max(0, cells[0].offsetTop - wrap.clientHeight / 3);
}
