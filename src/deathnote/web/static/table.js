// Around the game screen: this seat's nickname, "your turn" (title and optional sound) and
// the rooms this browser holds links for ("my rooms", kept in localStorage only).
import { h, clear } from "./dom.js";

const ROOMS_KEY = "deathnote.rooms";
const NICK_KEY = "deathnote.nick";
const SOUND_KEY = "deathnote.sound";
const PLAYER_KEY = "deathnote.player";
const MAX_ROOMS = 50;

function readJson(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value === null || value === undefined ? fallback : value;
  } catch {
    return fallback;
  }
}

// The links this browser has opened, newest first: {room, link, role, seat, game, seen}.
export function savedRooms() {
  const rooms = readJson(ROOMS_KEY, []);
  return Array.isArray(rooms) ? rooms.filter((r) => r && typeof r.room === "string" && typeof r.link === "string") : [];
}

export function rememberRoom(entry) {
  try {
    const rooms = savedRooms().filter((r) => r.link !== entry.link);
    rooms.unshift({ ...entry, seen: Date.now() });
    localStorage.setItem(ROOMS_KEY, JSON.stringify(rooms.slice(0, MAX_ROOMS)));
  } catch {
    /* storage refused (private mode): the page works without it */
  }
}

export function forgetRoom(link) {
  try {
    localStorage.setItem(ROOMS_KEY, JSON.stringify(savedRooms().filter((r) => r.link !== link)));
  } catch {
    /* nothing kept */
  }
}

// This browser's player key (ratings): made once, kept in localStorage, sent with the name.
export function playerKey() {
  let key = readJson(PLAYER_KEY, null);
  if (typeof key !== "string" || !/^[A-Za-z0-9_-]{16,128}$/.test(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    try {
      localStorage.setItem(PLAYER_KEY, JSON.stringify(key));
    } catch {
      /* not kept: a new key next time */
    }
  }
  return key;
}

// A bar above the game: the nickname form (seats only) and the sound switch.
function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The clocks line: each seat's time left where this viewer sees it asked, counting down.
export function clockLine(room, mySeat) {
  if (!room.clock) return null;
  const shownAt = Date.now();
  const line = h("p", { class: "clocks", id: "clocks" });
  const draw = () => {
    clear(line);
    line.append(h("span", { class: "muted" }, `Clock ${room.clock.label}. `));
    for (const s of room.seats) {
      if (!s.clock) continue;
      const left = s.clock.left;
      const parts = [];
      if (left !== undefined && left !== null) parts.push(`${mmss(left - (Date.now() - shownAt) / 1000)} left`);
      if (s.seat === mySeat || left !== undefined) parts.push(`reserve ${mmss(s.clock.reserve)}`);
      if (s.clock.timeouts) parts.push(`${s.clock.timeouts} timed out`);
      if (!parts.length) continue;
      const low = left !== undefined && left - (Date.now() - shownAt) / 1000 < 10;
      line.append(h("span", { class: `clock${low ? " low" : ""}`, "data-seat": s.seat }, `${s.name}: ${parts.join(", ")}`), " ");
    }
  };
  draw();
  const timer = setInterval(() => (line.isConnected ? draw() : clearInterval(timer)), 1000);
  return line;
}

export function tableBar({ onName, onTakeBack }) {
  const bar = h("section", { class: "panel table-bar", id: "table-bar" });
  const app = document.getElementById("app");
  app.parentNode.insertBefore(bar, app);
  let shownNick;
  let mine = false;
  let lastDeciding = false;
  const clocks = h("div", { id: "clock-slot" });
  const takeBack = h("div", { id: "take-back-slot" });
  const rated = h("span", { id: "rated-slot" });
  const sound = h("input", { type: "checkbox", id: "sound" });
  sound.checked = readJson(SOUND_KEY, false) === true;
  sound.addEventListener("change", () => {
    try {
      localStorage.setItem(SOUND_KEY, JSON.stringify(sound.checked));
    } catch {
      /* not kept */
    }
  });
  const soundLabel = h("label", { class: "sound" }, sound, " Sound on my turn");

  const nickForm = (current) => {
    const input = h("input", { id: "nick", name: "nick", maxlength: 40, autocomplete: "nickname", placeholder: "your name", value: current || readJson(NICK_KEY, "") || "" });
    const form = h(
      "form",
      { id: "nick-form", class: "nick" },
      h("label", {}, h("span", {}, current ? "Your name at this table" : "Choose your name at this table"), input),
      h("button", { type: "submit", class: "small" }, current ? "Rename" : "Join"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      try {
        localStorage.setItem(NICK_KEY, JSON.stringify(name));
      } catch {
        /* not kept */
      }
      onName(name);
    });
    return form;
  };

  return {
    // A view message: redraw the bar only when what it shows changed (typing survives).
    update(message) {
      const isSeat = message.role === "seat" && message.seat !== null && message.seat !== undefined;
      const seat = isSeat ? message.room.seats[message.seat] : null;
      const nick = seat ? seat.nick || null : null;
      if (shownNick !== nick || mine !== isSeat) {
        shownNick = nick;
        mine = isSeat;
        clear(bar);
        if (isSeat) {
          // (never append null: the DOM writes it as the word "null")
          if (nick) bar.append(h("p", { id: "nick-shown" }, "You play as ", h("strong", {}, nick)));
          bar.append(nickForm(nick));
        }
        bar.append(soundLabel, rated, takeBack, clocks);
      }
      clear(clocks).append(clockLine(message.room, isSeat ? message.seat : null) || "");
      clear(rated);
      if (message.room.rated) {
        rated.append(h("span", { class: "tag" }, "Rated game "), h("a", { href: `/leaderboard/${encodeURIComponent(message.room.game)}`, id: "leaderboard-link" }, "leaderboard"));
      }
      clear(takeBack);
      if (seat && seat.kind === "bot" && seat.taken_over && !message.view.outcome) {
        takeBack.append(
          h("p", { class: "warn", id: "bot-plays" }, "A bot plays your seat now. "),
          h("button", { type: "button", id: "take-back", onclick: () => onTakeBack() }, "Take my seat back"),
        );
      }
      const deciding = Boolean(message.view.decision && (message.view.legal || []).length && !message.view.outcome);
      document.title = deciding ? "● Your turn · deathnote" : message.view.outcome ? "Game over · deathnote" : "Play · deathnote";
      if (deciding && !lastDeciding && sound.checked) beep();
      lastDeciding = deciding;
    },
  };
}

let audio = null;
function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.15);
  } catch {
    /* no sound here */
  }
}
