// The browser table: home (create or join a room), the room's lobby, the table.
// A thin front end (STYLE.md 9): it turns clicks and keys into the actions the server
// listed in view.legal, and views and events into the page.  User text (names, chat)
// only ever goes in through textContent.

import { api, Connection, forgetSeat, postText, saveName, saveSeat, savedName, savedSeat, tabSeat } from "./net.js";
import { cardBack, cardFace, cardName, colorName, COLOR_KEYS, COLORS, icon, parseCard } from "./cards.js";
import { describe } from "./log.js";
import { setSound, sound, soundOn } from "./sounds.js";

// ---------------------------------------------------------------- tiny DOM helper ---
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
  }
  return el;
}

const main = document.getElementById("main");
const roombar = document.getElementById("roombar");
const netstatus = document.getElementById("netstatus");
const toastEl = document.getElementById("toast");
let toastTimer = null;

function toast(text, kind = "error") {
  placeToast();
  toastEl.textContent = text;
  toastEl.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(hideToast, 4000);
}

function hideToast() {
  clearTimeout(toastTimer);
  toastEl.className = "toast";
}

// toasts appear just under the top bar, never over its buttons (End game, Keys)
const topbar = document.querySelector(".topbar");
function placeToast() {
  document.documentElement.style.setProperty("--topbar-h", `${Math.max(0, Math.ceil(topbar.getBoundingClientRect().bottom))}px`);
}
if (window.ResizeObserver) new ResizeObserver(placeToast).observe(topbar);

// ---------------------------------------------------------------- the app state -----
const S = {
  code: null,
  seat: null, // my seat, null when watching
  token: null,
  conn: null,
  room: null,
  state: null, // the last state message
  game: null,
  log: [], // {text, cls}
  seenSeq: -1,
  prevKind: null, // the last event's kind, for the log's wording
  choice: null, // a play being put together: {stage, options, ...}
  unoArmed: false,
  revealed: null, // {seat, cards}: a challenged hand shown to me
  summaryHidden: false,
  help: false,
  rules: null, // /api/rules
};

// ---------------------------------------------------------------- routing ----------
function route() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]{1,12})\/?$/);
  S.replay = null;
  if (m) openRoom(m[1].toUpperCase());
  else if (/^\/replay\/?$/.test(location.pathname)) showReplay();
  else showHome();
}

// ---------------------------------------------------------------- home -------------
async function showHome() {
  document.title = "unokit: UNO with friends";
  roombar.replaceChildren();
  main.replaceChildren(h("p", { class: "panel loading", text: "Loading…" }));
  try {
    S.rules = S.rules || (await api("/api/rules"));
  } catch (e) {
    main.replaceChildren(h("p", { class: "panel", text: e.message }));
    return;
  }
  main.replaceChildren(homeView());
  main.querySelector("#name")?.focus();
}

/**
 * The rules a room is dealt by, as form controls: a preset (with its description), every
 * house rule (in a closed "House rules"), and the turn timer.  The home page's create
 * form and the host's form in the lobby both use it; ``prefix`` keeps their ids apart,
 * and ``preset``, ``options`` and ``timer`` prefill it (a room's current rules).
 * ``value()`` is what ``POST /api/rooms`` and the ``rules`` message take: the preset,
 * the options that differ from it, and the timer.
 */
function rulesControls(rules, { prefix = "", preset = null, options = {}, timer = 0, onPreset = null } = {}) {
  const id = (name) => prefix + name;
  const presetSel = h("select", { id: id("preset"), name: "preset" },
    rules.presets.map((p) => h("option", { value: p.name, text: p.name })));
  if (preset && rules.presets.some((p) => p.name === preset)) presetSel.value = preset;
  const presetHelp = h("p", { class: "hint", id: id("preset-help") });
  const optBox = h("div", { class: "options" });
  const controls = {};
  const rows = {};
  for (const o of rules.options) {
    if (o.name === "launcher_weights") continue;
    let input;
    const oid = id(`opt-${o.name}`);
    if (typeof o.default === "boolean") {
      input = h("input", { type: "checkbox", id: oid, name: o.name });
    } else if (o.choices) {
      input = h("select", { id: oid, name: o.name }, o.choices.map((c) => h("option", { value: c, text: c })));
    } else {
      input = h("input", { type: "number", id: oid, name: o.name, min: 0, max: 1000000, inputmode: "numeric" });
    }
    controls[o.name] = input;
    const label = h("label", { for: oid }, h("b", { text: o.name.replaceAll("_", " ") }), h("span", { class: "hint", text: " " + o.help }));
    rows[o.name] = typeof o.default === "boolean" ? h("div", { class: "opt check" }, input, label) : h("div", { class: "opt" }, label, input);
    optBox.append(rows[o.name]);
  }
  // the game the preset plays (classic, flip, no-mercy) decides which options it takes
  const gameOf = () => rules.presets.find((x) => x.name === presetSel.value)?.game || "classic";
  const plays = (o) => !o.games || o.games.includes(gameOf());
  const showRows = () => {
    for (const o of rules.options) if (rows[o.name]) rows[o.name].hidden = !plays(o);
  };
  const presetValues = () => {
    const p = rules.presets.find((x) => x.name === presetSel.value);
    const vals = {};
    for (const o of rules.options) vals[o.name] = o.default;
    Object.assign(vals, p ? p.options : {});
    return vals;
  };
  const show = (vals) => {
    for (const [k, input] of Object.entries(controls)) {
      const v = vals[k];
      if (input.type === "checkbox") input.checked = !!v;
      else if (input.tagName === "SELECT") input.value = v;
      else {
        input.value = v === null || v === undefined ? "" : String(v);
        if (k === "hand_size") input.placeholder = vals.deck === "my-first-uno" ? "5" : "7";
      }
    }
  };
  const applyPreset = () => {
    const p = rules.presets.find((x) => x.name === presetSel.value);
    presetHelp.textContent = p ? p.description : "";
    show(presetValues());
    showRows();
    onPreset?.(p);
  };
  presetSel.addEventListener("change", applyPreset);
  applyPreset();
  show({ ...presetValues(), ...options });
  // options the form does not show (launcher_weights) are kept as they were
  const hidden = Object.fromEntries(Object.entries(options).filter(([k]) => !(k in controls)));
  const timerSel = h("select", { id: id("timer"), name: "timer" },
    rules.timers.map((t) => h("option", { value: t, text: t ? `${t} s, then the autopilot plays` : "off" })));
  if (rules.timers.includes(timer)) timerSel.value = String(timer);
  return {
    preset: h("div", { class: "field" }, h("label", { for: id("preset"), text: "Rules" }), presetSel, presetHelp),
    house: h("details", { class: "house" }, h("summary", { text: "House rules" }), optBox),
    timer: h("div", { class: "field" }, h("label", { for: id("timer"), text: "Turn timer" }), timerSel),
    value() {
      const vals = presetValues();
      const chosen = { ...hidden };
      for (const [k, input] of Object.entries(controls)) {
        if (!plays(rules.options.find((o) => o.name === k))) continue; // not this game's
        let v;
        if (input.type === "checkbox") v = input.checked;
        else if (input.tagName === "SELECT") v = input.value;
        else if (input.value === "") continue;
        else v = Number(input.value);
        if (v !== vals[k]) chosen[k] = v;
      }
      return { preset: presetSel.value, options: chosen, timer: Number(timerSel.value) };
    },
  };
}

function homeView() {
  const rules = S.rules;
  const nameInput = h("input", {
    id: "name", name: "name", maxlength: 20, required: true, autocomplete: "nickname",
    placeholder: "e.g. Ana", value: savedName(),
  });
  const seatsSel = h("select", { id: "seats", name: "seats" },
    [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => h("option", { value: n, text: `${n} players`, selected: n === 3 })));
  // a preset's player range (No Mercy: 2 to 6): the other counts are not offered
  const fitPlayers = (p) => {
    const [lo, hi] = p?.players || [2, 10];
    for (const o of seatsSel.options) o.disabled = Number(o.value) < lo || Number(o.value) > hi;
    if (Number(seatsSel.value) > hi) {
      seatsSel.value = String(hi);
      seatsSel.dispatchEvent(new Event("change"));
    }
  };
  const ruleControls = rulesControls(rules, { onPreset: fitPlayers });
  const seatBox = h("div", { class: "seat-choices" });
  const seatChoice = [null, "normal"]; // default: a friend and a bot
  const drawSeats = () => {
    const n = Number(seatsSel.value);
    while (seatChoice.length < n - 1) seatChoice.push("normal");
    seatBox.replaceChildren();
    for (let i = 1; i < n; i++) {
      const sel = h("select", { id: `seat-${i}`, "aria-label": `Seat ${i + 1}` },
        h("option", { value: "", text: "open: a friend joins" }),
        rules.levels.map((l) => h("option", { value: l, text: `bot (${l})` })));
      sel.value = seatChoice[i - 1] || "";
      sel.addEventListener("change", () => (seatChoice[i - 1] = sel.value || null));
      seatBox.append(h("div", { class: "seat-choice" }, h("label", { for: `seat-${i}`, text: `Seat ${i + 1}` }), sel));
    }
  };
  seatsSel.addEventListener("change", drawSeats);
  drawSeats();
  const err = h("p", { class: "form-error", role: "alert" });

  const create = h("form", { class: "panel create", "aria-labelledby": "create-h" },
    h("h2", { id: "create-h", text: "New room" }),
    ruleControls.preset,
    ruleControls.house,
    h("div", { class: "field" }, h("label", { for: "seats", text: "Players" }), seatsSel),
    seatBox,
    ruleControls.timer,
    err,
    h("button", { class: "btn primary big", type: "submit", id: "create-btn", text: "Create the room" }));
  create.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const name = nameInput.value.trim();
    if (!name) {
      err.textContent = "Type your name first.";
      nameInput.focus();
      return;
    }
    const n = Number(seatsSel.value);
    try {
      saveName(name);
      const res = await api("/api/rooms", {
        name, ...ruleControls.value(), seats: n, bots: seatChoice.slice(0, n - 1),
      });
      saveSeat(res.code, { token: res.token, seat: res.seat, name });
      history.pushState(null, "", res.link);
      route();
    } catch (ex) {
      err.textContent = ex.message;
    }
  });

  const codeInput = h("input", {
    id: "join-code", name: "code", maxlength: 6, autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", placeholder: "ABC234", class: "code-input",
  });
  const joinErr = h("p", { class: "form-error", role: "alert" });
  const join = h("form", { class: "panel join", "aria-labelledby": "join-h" },
    h("h2", { id: "join-h", text: "Join a room" }),
    h("p", { class: "hint", text: "Type the code a friend sent you, or open their link." }),
    h("div", { class: "field" }, h("label", { for: "join-code", text: "Room code" }), codeInput),
    joinErr,
    h("button", { class: "btn big", type: "submit", text: "Go to the room" }));
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const code = codeInput.value.trim().toUpperCase();
    if (!/^[A-Z0-9]{6}$/.test(code)) {
      joinErr.textContent = "A room code has 6 letters and digits.";
      return;
    }
    if (nameInput.value.trim()) saveName(nameInput.value.trim());
    history.pushState(null, "", `/r/${code}`);
    route();
  });

  return h("div", { class: "home" },
    h("section", { class: "panel intro" },
      h("h1", { text: "Play UNO with friends" }),
      h("p", {}, "Make a room, send the link, play in any browser. Bots fill the empty seats. Or ", h("a", { href: "/replay", id: "replay-home", text: "replay a game record" }), "."),
      h("div", { class: "field" }, h("label", { for: "name", text: "Your name" }), nameInput)),
    h("div", { class: "home-forms" }, create, join));
}

// ---------------------------------------------------------------- a room ------------
async function openRoom(code) {
  if (S.conn) S.conn.stop();
  Object.assign(S, {
    code, seat: null, token: null, conn: null, room: null, state: null, game: null,
    log: [], seenSeq: -1, prevKind: null, choice: null, unoArmed: false, revealed: null, summaryHidden: false,
    rulesForm: null,
  });
  document.title = `unokit: room ${code}`;
  drawRoombar();
  if (!S.rules) api("/api/rules").then((r) => { S.rules = r; render(); }).catch(() => {});
  const mine = tabSeat(code);
  if (mine && mine.token) {
    S.token = mine.token;
    connect();
    return;
  }
  main.replaceChildren(h("p", { class: "panel loading", text: "Looking for the room…" }));
  let room;
  try {
    room = await api(`/api/rooms/${code}`);
  } catch (e) {
    main.replaceChildren(h("section", { class: "panel" },
      h("h1", { text: e.code === "no_room" ? `There is no room ${code}` : "The room cannot be opened" }),
      h("p", { text: e.message }),
      h("a", { class: "btn", href: "/", text: "Make a new room" })));
    return;
  }
  main.replaceChildren(joinView(room));
  main.querySelector("#join-name")?.focus();
}

function joinView(room) {
  const open = room.status === "lobby" && room.seats.some((s) => s === null);
  const nameInput = h("input", { id: "join-name", maxlength: 20, required: true, value: savedName(), autocomplete: "nickname" });
  const err = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "join-form" },
    h("div", { class: "field" }, h("label", { for: "join-name", text: "Your name" }), nameInput),
    err,
    h("button", { class: "btn primary big", type: "submit", id: "join-btn", text: "Take a seat" }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const name = nameInput.value.trim();
    if (!name) return;
    try {
      saveName(name);
      const res = await api(`/api/rooms/${S.code}/join`, { name });
      saveSeat(res.code, { token: res.token, seat: res.seat, name });
      S.token = res.token;
      connect();
    } catch (ex) {
      err.textContent = ex.message;
    }
  });
  // a spectator watches under the name typed above, if any (the spectator list, chat)
  const watch = h("button", { class: "btn", type: "button", id: "watch-btn", text: "Just watch", onclick: () => {
    const name = nameInput.value.trim();
    if (name) saveName(name);
    connect(name || null);
  } });
  const who = room.seats.filter(Boolean).map((s) => s.name);
  const saved = savedSeat(room.code);
  const resume = saved && saved.token
    ? h("div", { class: "resume" },
        h("button", { class: "btn primary big", type: "button", id: "resume-btn", text: `Continue as ${saved.name}`, onclick: () => {
          saveSeat(room.code, saved);
          S.token = saved.token;
          connect();
        } }),
        h("p", { class: "hint", text: open
          ? "This browser sat here before. Someone else on it? Take a new seat below."
          : "This browser sat here before. Someone else on it? Every seat is taken: they can just watch." }))
    : null;
  return h("section", { class: "panel joinroom" },
    h("h1", { text: `Room ${room.code}` }),
    resume,
    h("p", { text: who.length ? `At the table: ${who.join(", ")}.` : "The table is empty." }),
    h("p", { class: "hint", id: "join-rules", text: `${rulesLine(room)} ${room.seats.length} seats.` }),
    open ? form : h("p", { text: room.status === "lobby" ? "Every seat is taken: you can watch." : "The game has started: you can watch." }),
    // watching: the name typed is shown in the spectator list, and chats and reacts
    open ? null : h("div", { class: "field" }, h("label", { for: "watch-name", text: "Your name while you watch (optional: to chat and react)" }),
      h("input", { id: "watch-name", maxlength: 20, value: savedName(), autocomplete: "nickname", oninput: (e) => (nameInput.value = e.target.value) })),
    watch);
}

// A watcher in the lobby (back from a finished game, say) may take an open seat.
function lobbySeatForm() {
  const input = h("input", { id: "lobby-name", maxlength: 20, required: true, value: savedName(), autocomplete: "nickname" });
  const err = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "join-form", id: "lobby-join" },
    h("div", { class: "field" }, h("label", { for: "lobby-name", text: "A seat is open: your name" }), input),
    err,
    h("button", { class: "btn primary", type: "submit", id: "lobby-join-btn", text: "Take a seat" }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    try {
      saveName(name);
      const res = await api(`/api/rooms/${S.code}/join`, { name });
      saveSeat(res.code, { token: res.token, seat: res.seat, name });
      S.conn.stop();
      S.token = res.token;
      connect();
    } catch (ex) {
      err.textContent = ex.message;
    }
  });
  return form;
}

function connect(watchName = null) {
  main.replaceChildren(h("p", { class: "panel loading", text: "Connecting…" }));
  S.watchName = S.token ? null : watchName;
  S.watchers = null;
  S.reacts = {};
  S.conn = new Connection(S.code, S.token, { onMessage, onStatus, name: S.watchName });
  S.conn.open();
}

function onStatus(status) {
  netstatus.className = `netstatus ${status}`;
  netstatus.textContent = status === "open" ? "connected" : status === "reconnecting" ? "reconnecting…" : status === "connecting" ? "connecting…" : "";
  document.body.classList.toggle("offline", status === "reconnecting");
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.seat = msg.seat;
      if (S.rulesForm) S.rulesForm.pending = null; // a connection that dropped took its answer along
      if (S.seat === null && S.token) {
        // should not happen: a refused token comes as an error
        S.token = null;
      }
      return;
    case "room":
      S.room = msg;
      rulesArrived(msg);
      if (msg.you !== undefined) S.seat = msg.you;
      render();
      return;
    case "state":
      onState(msg);
      return;
    case "chat":
      addLog({ text: `${msg.name}${msg.seat === null ? " (watching)" : ""}: ${msg.text}`, cls: "chat" });
      drawLog();
      return;
    case "react": {
      // a quick reaction: beside the seat (or the spectator's name) for a moment, and logged
      const text = EMOTE_TEXT[msg.emote] || msg.emote;
      const key = msg.seat === null ? `w:${msg.name}` : String(msg.seat);
      S.reacts[key] = { text, until: Date.now() + 4000 };
      addLog({ text: `${msg.name}${msg.seat === null ? " (watching)" : ""}: ${text}`, cls: "chat react" });
      render();
      setTimeout(() => { if (S.reacts[key] && Date.now() >= S.reacts[key].until) { delete S.reacts[key]; render(); } }, 4100);
      return;
    }
    case "watchers":
      S.watchers = msg;
      render();
      return;
    case "error":
      onError(msg);
      return;
    default:
      return;
  }
}

function onError(msg) {
  if (msg.code === "stale_version") return; // the fresh state follows: just a redraw
  // a graceful restart is no error: the connection reconnects (net.js), the top bar
  // says "reconnecting…"
  if (msg.code === "restarting") return;
  if (msg.code === "bad_token" || msg.code === "kicked") {
    forgetSeat(S.code);
    S.token = null;
    S.seat = null;
    S.conn.stop();
    toast(msg.code === "kicked" ? "The host gave your seat to a bot. You can watch." : "Your seat here is no longer valid. You can watch or join again.");
    openRoom(S.code);
    return;
  }
  if (msg.code === "name_taken" && S.seat === null && S.watchName) {
    S.watchName = null; // watching unnamed
    toast(msg.message || msg.code);
    render();
    return;
  }
  if (msg.code === "no_room") {
    S.conn.stop();
    main.replaceChildren(h("section", { class: "panel" },
      h("h1", { text: `There is no room ${S.code}` }),
      h("p", { text: msg.message }),
      h("a", { class: "btn", href: "/", text: "Make a new room" })));
    return;
  }
  if (S.rulesForm?.pending) {
    // the host's rules were refused (bad_rules, not_host, room_started): said in the form
    rulesRefused(msg);
    return;
  }
  toast(msg.message || msg.code);
}

function addLog(entry) {
  S.log.push(entry);
  if (S.log.length > 300) S.log.splice(0, S.log.length - 300);
}

function onState(msg) {
  if (msg.game !== S.game) {
    S.game = msg.game;
    S.log = [];
    S.seenSeq = -1;
    S.revealed = null;
    S.prevKind = null;
  }
  const prev = S.state;
  const before = S.log.length ? S.log[S.log.length - 1] : null;
  const beforeText = before ? before.text : null;
  const count = S.log.length;
  const fresh = takeEvents(msg);
  if (prev && prev.game === msg.game) playSound(fresh, prev, msg);
  // what a screen reader hears: the new log lines (a joined line counts as new)
  S.fresh = S.log.slice(count).map((e) => e.text);
  if (before && before.text !== beforeText) S.fresh.unshift(before.text);
  S.state = msg;
  if (prev && prev.view.round !== msg.view.round) S.summaryHidden = false;
  if (!prev || prev.version !== msg.version) S.choice = null;
  // the server's clocks, as seconds left when it sent this state
  S.clockDeadline = msg.clock ? Date.now() + msg.clock.left * 1000 : null;
  S.nextRoundAt = msg.next_round_in !== undefined && msg.next_round_in !== null ? Date.now() + msg.next_round_in * 1000 : null;
  if (!canArmUno(msg.view)) S.unoArmed = false;
  render(prev);
  if (S.flipNote?.fresh) {
    S.flipNote.fresh = false;
    clearTimeout(S.flipTimer);
    S.flipTimer = setTimeout(() => { if (S.flipNote && Date.now() >= S.flipNote.until) { S.flipNote = null; render(); } }, 3600);
  }
}

/** A state message's new events into the log (the live table and the replay viewer). */
function takeEvents(msg) {
  const names = msg.view.names;
  const fresh = [];
  for (const ev of msg.events) {
    if (ev.seq <= S.seenSeq) continue;
    S.seenSeq = ev.seq;
    fresh.push(ev);
    // a challenged hand stays in view until the challenger's own next play (or a new round)
    if (ev.kind === "reveal" && ev.cards) S.revealed = { seat: ev.seat, cards: ev.cards };
    if (ev.kind === "round_start" || ((ev.kind === "play" || ev.kind === "keep") && ev.seat === S.seat)) S.revealed = null;
    const d = describe(ev, names, S.seat, S.prevKind, msg.view.game);
    // UNO Flip!: a flip is announced over the piles for a moment (and animated)
    if (ev.kind === "flip") S.flipNote = { side: ev.side === 1 ? "dark" : "light", until: Date.now() + 3500, fresh: true };
    S.prevKind = ev.kind;
    if (!d) continue;
    const last = S.log[S.log.length - 1];
    if (d.join && last && last.cls === "play" && !last.joined) {
      last.text = last.text.replace(/\.$/, "") + ": " + d.text;
      last.joined = true;
    } else {
      addLog({ text: d.text.charAt(0).toUpperCase() + d.text.slice(1), cls: d.cls || "" });
    }
  }
  return fresh;
}

// one sound per state message, the one that matters most (sounds.js makes them): a
// round won, UNO, a flip, your turn coming, a card played, a card you drew
function playSound(events, prev, msg) {
  const me = S.seat;
  const v = msg.view;
  const ended = (ev) => (ev.kind === "round_over" || ev.kind === "game_over") && ev.winner === me && me !== null;
  const mine = (x) => me !== null && x.current === me && !["round_over", "game_over"].includes(x.phase) && x.legal.length > 0;
  if (events.some(ended)) sound("win");
  else if (events.some((e) => e.kind === "uno")) sound("uno");
  else if (events.some((e) => e.kind === "flip")) sound("flip");
  else if (mine(v) && !mine(prev.view)) sound("turn");
  else if (events.some((e) => e.kind === "play")) sound("play");
  else if (events.some((e) => e.kind === "draw" && e.seat === me)) sound("draw");
}

// ---------------------------------------------------------------- the room bar ------
function drawRoombar() {
  const link = `${location.origin}/r/${S.code}`;
  const copy = h("button", { class: "btn small", type: "button", id: "copy-link", text: "Copy link" });
  copy.addEventListener("click", async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(link);
      ok = true;
    } catch {
      const tmp = h("input", { value: link, "aria-hidden": "true", class: "offscreen" });
      document.body.append(tmp);
      tmp.select();
      try {
        ok = document.execCommand("copy");
      } catch {
        ok = false;
      }
      tmp.remove();
    }
    toast(ok ? "Link copied: send it to your friends." : `Copy this link: ${link}`, "info");
  });
  roombar.replaceChildren(...[
    h("span", { class: "roomcode" }, h("span", { class: "rc-word", text: "Room " }), h("b", { text: S.code })),
    copy,
    S.room && S.room.status !== "lobby"
      ? h("button", { class: "btn small ghost", type: "button", id: "rules-btn", "aria-expanded": String(!!S.rulesOpen), "aria-controls": "rules", onclick: toggleRules }, icon("rules"), h("span", { class: "phone-hidden", text: "Rules" }))
      : null,
    h("button", { class: "btn small ghost", type: "button", id: "sound-btn", "aria-pressed": String(soundOn()), "aria-label": "Sounds", title: soundOn() ? "Sounds on" : "Sounds off",
      onclick: () => { setSound(!soundOn()); drawRoombar(); } },
      icon(soundOn() ? "sound" : "mute"), h("span", { class: "phone-hidden", text: soundOn() ? "Sound on" : "Sound off" })),
    h("button", { class: "btn small ghost", type: "button", id: "help-btn", "aria-expanded": String(S.help), "aria-controls": "help", text: "Keys ?", onclick: toggleHelp }),
    S.room && S.room.status === "playing" && S.seat !== null && S.seat === S.room.host
      ? h("button", { class: "btn small ghost", type: "button", id: "end-btn", "aria-label": "End game", onclick: () => {
          if (window.confirm("End the game for everyone? The record stays downloadable.")) S.conn.send({ type: "end" });
        } }, "End", h("span", { class: "phone-hidden", text: " game" }))
      : null,
  ].filter(Boolean));
}

function toggleHelp() {
  S.help = !S.help;
  render();
  if (S.help) showPanel("help");
}

// a panel just opened comes into view (on a phone the side column is below the table)
function showPanel(id) {
  document.getElementById(id)?.scrollIntoView({ block: "nearest" });
}

// ---------------------------------------------------------------- rendering --------
function render(prev) {
  if (!S.room) return;
  const focusKey = document.activeElement?.dataset?.key;
  const active = document.activeElement;
  if (S.replay) {
    if (S.state) renderReplay(prev);
    if (active && active !== document.activeElement && R.bar?.contains(active)) active.focus({ preventScroll: true });
    return;
  }
  drawRoombar();
  if (S.room.status !== "lobby") S.rulesForm = null; // prefilled afresh back in the lobby
  if (S.room.status === "lobby") {
    main.replaceChildren(waitingView());
    // the host's rules form is the same element from one render to the next (what is
    // typed in it stays): moving it took the focus away, give it back
    if (active && active !== document.activeElement && S.rulesForm?.el.contains(active)) active.focus({ preventScroll: true });
  } else if (S.state) {
    const oldRow = main.querySelector(".opponents");
    const keep = oldRow ? oldRow.scrollLeft : 0;
    main.replaceChildren(tableView(prev));
    showWhoPlays(keep);
  } else {
    main.replaceChildren(h("p", { class: "panel loading", text: "Dealing…" }));
  }
  if (focusKey) {
    const el = main.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) || (focusKey.startsWith("card:") ? main.querySelector(".hand .card") : null);
    if (el) el.focus({ preventScroll: true });
  }
}

/** "Rules: party, with hand size 5 and target score 100. Turn timer: off." */
function rulesLine(room) {
  const opts = Object.entries(room.rules.options || {}).map(([k, v]) => `${k.replaceAll("_", " ")} ${optionText(v)}`);
  const house = opts.length ? `, with ${opts.length > 1 ? opts.slice(0, -1).join(", ") + " and " + opts[opts.length - 1] : opts[0]}` : " (no house rules)";
  return `Rules: ${room.rules.preset}${house}. Turn timer: ${room.timer ? room.timer + " s" : "off"}.`;
}

function optionText(v) {
  if (v === true) return "on";
  if (v === false) return "off";
  if (Array.isArray(v)) return v.join("/");
  return String(v);
}

// On a narrow screen the opponents' row scrolls sideways: keep whoever is to play in
// view (the row alone scrolls, never the page).
function showWhoPlays(keep) {
  const row = main.querySelector(".opponents");
  if (!row) return;
  row.scrollLeft = keep;
  const turn = row.querySelector(".opp.turn");
  if (!turn || row.scrollWidth <= row.clientWidth) return;
  const left = turn.offsetLeft; // the row is positioned: its own coordinates
  if (left < row.scrollLeft) row.scrollLeft = left - 4;
  else if (left + turn.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left + turn.offsetWidth - row.clientWidth + 4;
}

function seatName(i) {
  const s = S.room?.seats[i];
  return s ? s.name : `Seat ${i + 1}`;
}

// ---- the room before the game --------------------------------------------------------
function waitingView() {
  const room = S.room;
  const host = S.seat !== null && S.seat === room.host;
  const list = h("ol", { class: "seats", "aria-label": "Seats" });
  room.seats.forEach((s, i) => {
    const li = h("li", { class: `seat-row ${s ? s.kind : "empty"}`, dataset: { seat: i } });
    if (s) {
      li.append(
        h("span", { class: `dot ${s.connected ? "on" : "off"}`, "aria-hidden": "true" }),
        h("span", { class: "who", text: s.name }),
        h("span", { class: "tag", text: s.kind === "bot" ? `bot, ${s.level}` : i === room.host ? "host" : s.connected ? "here" : "not here yet" }),
        ...(i === S.seat ? [h("span", { class: "tag you", text: "you" })] : []));
      if (host && i !== room.host)
        li.append(h("button", { class: "btn small ghost", type: "button", text: "Remove", "aria-label": `Remove ${s.name}`, onclick: () => S.conn.send({ type: "kick", seat: i }) }));
    } else {
      li.append(h("span", { class: "dot off", "aria-hidden": "true" }), h("span", { class: "who muted", text: "open seat: waiting for a friend" }));
      if (host) {
        const sel = h("select", { "aria-label": `Bot level for seat ${i + 1}` }, ["easy", "normal", "hard"].map((l) => h("option", { value: l, text: l, selected: l === "normal" })));
        li.append(sel, h("button", { class: "btn small", type: "button", text: "Add a bot", onclick: () => S.conn.send({ type: "add_bot", seat: i, level: sel.value }) }));
      }
    }
    list.append(li);
  });
  const link = `${location.origin}/r/${room.code}`;
  return h("section", { class: "panel waiting" },
    h("h1", { text: `Room ${room.code}` }),
    h("p", { class: "share" }, "Send this link to your friends: ",
      h("a", { href: link, class: "share-link", text: link })),
    h("p", { class: "hint", id: "lobby-rules", text: rulesLine(room) }),
    room.game > 0 ? h("p", { class: "hint", id: "last-game" },
      host ? `Back from game ${room.game}: remove a bot to free its seat for a friend (they open the link), add bots, then start. ` : `Game ${room.game} is over. `,
      h("a", { href: `/api/rooms/${room.code}/record?game=${room.game}`, download: `uno-${room.code}-${room.game}.json`, text: "Download its record" }),
      " or ", h("a", { href: `/replay?room=${room.code}&game=${room.game}`, id: "last-game-replay", text: "watch its replay" }), ".") : null,
    list,
    host ? lobbyRulesForm(room) : null,
    host
      ? h("div", { class: "actions" },
          h("button", { class: "btn primary big", type: "button", id: "start-btn", text: "Start the game", onclick: () => S.conn.send({ type: "start" }) }),
          h("p", { class: "hint", text: "Open seats get a bot when you start." }))
      : h("p", { class: "waiting-note", text: S.seat === null ? "You are watching. The game starts when the host says so." : "Waiting for the host to start the game…" }),
    S.seat === null && room.seats.some((x) => x === null) ? lobbySeatForm() : null,
    S.help ? helpPanel() : null);
}

// The host's form for the next game's rules (issue 36 item 10), the create form's
// controls prefilled with the room's rules.  It is kept in S.rulesForm and reused by
// each render until the room's rules change, so a room message (someone joins) does not
// undo what the host is typing.
function rulesKey(rules, timer) {
  const opts = Object.keys(rules.options || {}).sort().map((k) => [k, rules.options[k]]);
  return JSON.stringify([rules.preset, opts, timer]);
}

function lobbyRulesForm(room) {
  if (!S.rules) return null;
  const key = rulesKey(room.rules, room.timer);
  const old = S.rulesForm;
  if (old && old.key === key) return old.el;
  const c = rulesControls(S.rules, { prefix: "lobby-", preset: room.rules.preset, options: room.rules.options || {}, timer: room.timer });
  if (old?.house.open) c.house.open = true;
  const err = h("p", { class: "form-error", id: "lobby-rules-error", role: "alert" });
  const note = h("p", { class: "hint", id: "lobby-rules-note", role: "status",
    text: old?.pending ? "Saved: the next game is dealt by these rules." : "" });
  const save = h("button", { class: "btn", type: "submit", id: "rules-save", text: "Save the rules" });
  const el = h("form", { class: "lobby-rules", id: "lobby-rules-form", "aria-labelledby": "lobby-rules-h" },
    h("h2", { id: "lobby-rules-h", text: "Rules for the next game" }),
    h("div", { class: "lobby-rules-fields" }, c.preset, c.timer),
    c.house, err, note, save);
  const form = { key, el, house: c.house, err, note, pending: null };
  el.addEventListener("change", () => {
    err.textContent = "";
    note.textContent = "Not saved yet: Save the rules, or the next game keeps the rules above.";
  });
  el.addEventListener("submit", (e) => {
    e.preventDefault();
    err.textContent = "";
    note.textContent = "";
    const value = c.value();
    if (S.conn?.send({ type: "rules", ...value })) form.pending = value;
    else err.textContent = "Not connected: try again in a moment.";
  });
  S.rulesForm = form;
  return el;
}

// the room came: if it carries the rules the host just sent, they were saved (a change
// comes back as a new key, and the form is built afresh from it, saying so)
function rulesArrived(room) {
  const f = S.rulesForm;
  if (!f?.pending || room.status !== "lobby") return;
  if (rulesKey(room.rules, room.timer) === rulesKey(f.pending, f.pending.timer) && f.key === rulesKey(room.rules, room.timer)) {
    f.pending = null;
    f.note.textContent = "Saved: the next game is dealt by these rules.";
  }
}

function rulesRefused(msg) {
  const f = S.rulesForm;
  f.pending = null;
  f.note.textContent = "";
  f.err.textContent = `Not saved: ${msg.message || msg.code}.`.replace(/\.\.$/, ".");
}

// ---- the table ----------------------------------------------------------------------
function legal() {
  return S.state ? S.state.view.legal : [];
}

function canArmUno(view) {
  return view.legal.some((a) => a.uno === true && (a.play || a.cards));
}

function send(action) {
  if (!S.state || !S.conn) return;
  S.conn.send({ type: "act", version: S.state.version, action });
  S.choice = null;
  S.unoArmed = false;
}

function tableView(prev) {
  const st = S.state;
  const v = st.view;
  const me = v.seat; // null: watching
  const n = v.names.length;
  const myTurn = me !== null && v.current === me && !["round_over", "game_over"].includes(v.phase);
  const flipNote = S.flipNote && Date.now() < S.flipNote.until ? S.flipNote : null;
  const wrap = h("div", { class: `table-wrap force-${v.color || "none"}${myTurn ? " my-turn" : ""}${v.side ? " side-" + v.side : ""}${flipNote?.fresh ? " flipping" : ""}`, dataset: { game: v.game || "classic" } });

  // opponents, in play order from my left
  const order = [];
  const start = me === null ? 0 : me + 1;
  for (let k = 0; k < n; k++) {
    const s = (start + k) % n;
    if (s !== me) order.push(s);
  }
  const opps = h("ul", { class: "opponents", "aria-label": "Other players" });
  for (const s of order) opps.append(opponentView(s, v, prev));

  // centre: draw pile, discard, colour in force, direction, turn
  const drawLegal = legal().find((a) => a.draw);
  const pile = h("button", {
    class: "pile drawpile", type: "button", id: "draw-pile", dataset: { key: "draw-pile" },
    "aria-label": `Draw pile, ${v.draw_pile} cards${drawLegal ? ". Draw a card (D)" : ""}`,
    "aria-disabled": drawLegal ? null : "true",
  }, v.pile_top
    // UNO Flip!: the draw pile's top card shows its other face to everyone (FLIP-VIEW-3)
    ? cardFace(v.pile_top, { size: "lg", dark: v.side === "light", other: true })
    : cardBack("lg"), h("span", { class: "pile-count", text: String(v.draw_pile) }));
  if (v.pile_top) pile.setAttribute("aria-label", `Draw pile, ${v.draw_pile} cards; its top card's other side is ${cardName(v.pile_top)}${drawLegal ? ". Draw a card (D)" : ""}`);
  pile.addEventListener("click", () => (drawLegal ? send({ draw: true }) : null));

  const topEl = v.top ? cardFace(v.top, { size: "lg", dark: v.side === "dark" }) : h("span", { class: "card card-lg empty" });
  if (prev && prev.view.top !== v.top && prev.view.discard.length !== v.discard.length) topEl.classList.add("fly-in");
  const discard = h("div", { class: "pile discardpile", id: "discard" },
    h("span", { class: "discard-under", "aria-hidden": "true" }),
    topEl);
  const force = v.color
    ? h("div", { class: `force-chip fc-${v.color}`, id: "color-in-force", role: "status", "aria-label": `Colour in force: ${colorName(v.color)}` },
        h("span", { class: "swatch", "aria-hidden": "true", text: v.color }),
        h("span", { class: "force-text" }, h("small", { text: "colour" }), h("b", { text: colorName(v.color).toUpperCase() })))
    : h("div", { class: "force-chip fc-none", id: "color-in-force", text: "colour: to be chosen" });
  const dir = h("div", { class: "direction", id: "direction", role: "img", "aria-label": v.direction > 0 ? "Play goes clockwise, to higher seats" : "Play goes counter-clockwise" },
    h("span", { class: `dir-arrow ${v.direction > 0 ? "cw" : "ccw"}`, "aria-hidden": "true" }, icon(v.direction > 0 ? "cw" : "ccw")),
    h("span", { class: "dir-text", text: v.direction > 0 ? "clockwise" : "counter-clockwise" }));
  // UNO Flip!: which side is up; No Mercy: the cards of knocked-out hands set aside
  const sideChip = v.side
    ? h("div", { class: `side-chip ${v.side}`, id: "side-up", role: "status", "aria-label": `The ${v.side} side is up` },
        icon("side"), h("span", { text: `${v.side} side up` }))
    : null;
  const aside = v.aside ? h("div", { class: "aside-note", id: "aside", text: `Set aside (Mercy rule): ${v.aside} cards` }) : null;
  const center = h("div", { class: "center" }, pile, discard, h("div", { class: "center-side" }, sideChip, force, dir, aside));

  const bannerText = turnText(v, myTurn);
  const banner = h("div", { class: `turn-banner${myTurn ? " mine" : ""}`, id: "turn" }, h("span", { class: "turn-text", text: bannerText }));
  // the turn timer counts down a person's decision, as the server times it (its
  // ``clock``): not a bot's, and not for spectators, who cannot act
  if (clockShown(st)) {
    banner.append(" ", h("span", { class: "turn-timer", id: "turn-timer", "aria-hidden": "true" }, icon("clock"), h("span", { class: "tt-left", text: timerText() })));
  }
  announce([...(S.fresh || []).slice(-4), bannerText].join(" "));
  S.fresh = [];
  const prompt = promptView(v, myTurn);
  const mine = me === null ? spectatorBar(v) : myArea(v, myTurn, prev);

  const stage = h("div", { class: "stage" }, center, prompt);
  const note = flipNote
    ? h("div", { class: `flip-note ${flipNote.side}`, id: "flip-note", role: "status" },
        `Flip! The ${flipNote.side} side is up`)
    : null;
  const table = h("section", { class: "table", "aria-labelledby": "table-h" },
    h("h1", { class: "visually-hidden", id: "table-h", text: S.replay ? "The table" : `Room ${S.code}: the table` }), opps, banner, note, stage, mine);
  const side = sideView();
  wrap.append(table, side);
  if (!S.replay) document.title = myTurn ? `Your turn · room ${S.code}` : `unokit: room ${S.code}`;
  const ended = S.room?.status === "over" && v.phase !== "game_over";
  if (ended && !S.summaryHidden) wrap.append(summaryView(st, true));
  else if (["round_over", "game_over"].includes(v.phase) && !S.summaryHidden) wrap.append(summaryView(st));
  else if (["round_over", "game_over"].includes(v.phase)) table.append(h("button", { class: "btn", type: "button", id: "show-summary", text: "Show the scores", onclick: () => { S.summaryHidden = false; render(); } }));
  const summary = !!wrap.querySelector("#summary");
  if (summary && !S.summaryShown) hideToast(); // the dialog comes first
  S.summaryShown = summary;
  return wrap;
}

// the turn timer (off, 15, 30 or 60 s): the autopilot decides when it runs out.  The
// server says how long is left (``clock``) with each state; the page counts from there.
function clockShown(st) {
  const c = st.clock;
  if (!c || S.seat === null || ["round_over", "game_over"].includes(st.view.phase)) return false;
  const seat = S.room?.seats[c.seat];
  return !!seat && seat.kind === "person" && !seat.autopilot;
}

function secondsLeft(deadline) {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

function timerText() {
  const left = secondsLeft(S.clockDeadline || Date.now());
  return left > 0 ? `${left}\u00a0s` : "autopilot";
}
setInterval(() => {
  const el = document.querySelector("#turn-timer .tt-left");
  if (el) el.textContent = timerText();
  const nr = document.getElementById("next-round-in");
  if (nr) nr.textContent = nextRoundText();
}, 250);

// one live region that stays in the page (a redrawn one is not reliably read out)
let announced = "";
function announce(text) {
  if (text === announced) return;
  announced = text;
  document.getElementById("announce").textContent = text;
}

function turnText(v, myTurn) {
  const name = (s) => (s === v.seat ? "You" : v.names[s]);
  if (v.phase === "game_over") return v.game_winner !== null ? `Game over: ${teamOrName(v, v.game_winner)} won!` : "Game over";
  if (v.phase === "round_over") return v.round_winner !== null ? `${name(v.round_winner)} went out: round over` : "Round over";
  const jump = !myTurn && legal().some((a) => a.play || a.cards);
  if (jump) return "Jump in! You hold the same card as the top one";
  if (myTurn) {
    switch (v.phase) {
      case "start_color":
        if (v.game === "no-mercy") return "Your turn: Colour Roulette! Name a colour";
        return v.game === "flip" ? `Your turn: choose the colour of the ${cardName(v.top)}` : "Your turn: choose the colour of the start card";
      case "challenge": return `Your turn: ${v.names[v.wd4_by]} hit you with a ${v.game === "flip" ? cardName(v.top) : "Wild Draw Four"}`;
      case "answer": return `Your turn: answer the ${cardName(v.pending)} or draw ${v.pending_total}`;
      case "drawn": return legal().some((a) => a.keep) ? "Your turn: play the card you drew, or keep it" : "Your turn: play the card you drew";
      default: return "Your turn: play a card or draw";
    }
  }
  const who = v.names[v.current];
  switch (v.phase) {
    case "start_color":
      if (v.game === "no-mercy") return `${who} names a colour for the Colour Roulette`;
      return v.game === "flip" ? `${who} is choosing a colour` : `${who} is choosing the start colour`;
    case "challenge": return v.game === "flip" ? `${who} decides: challenge the ${cardName(v.top)} or draw` : `${who} decides: challenge the Wild Draw Four or draw 4`;
    case "answer": return `${who} must answer or draw ${v.pending_total}`;
    case "drawn": return `${who} drew a card and is deciding`;
    default: return `${who}'s turn`;
  }
}

function teamOrName(v, winner) {
  if (ruleValue("scoring") === "teams") return `Team ${winner + 1}`;
  return winner === v.seat ? "You" : v.names[winner];
}

function opponentView(s, v, prev) {
  const seat = S.room?.seats[s];
  const count = v.hand_sizes[s];
  const isTurn = v.current === s && !["round_over", "game_over"].includes(v.phase);
  const li = h("li", {
    class: `opp${isTurn ? " turn" : ""}${v.live[s] ? "" : v.game === "no-mercy" ? " out knocked" : " out"}${seat && !seat.connected ? " away" : ""}`,
    dataset: { seat: s },
    "aria-label": `${v.names[s]}: ${count} card${count === 1 ? "" : "s"}${isTurn ? ", their turn" : ""}${count === 1 ? ", UNO" : ""}${v.others?.[s]?.length ? `; the other side of their cards: ${v.others[s].map(cardName).join(", ")}` : ""}`,
  });
  // UNO Flip!: everyone sees the other side of an opponent's cards, in hand order
  // (FLIP-VIEW-2); the server sends them, and never a seat's own other faces
  const others = v.others && v.others[s] && v.others[s].length ? v.others[s] : null;
  const fan = h("span", { class: others ? "fan other-fan" : "fan", "aria-hidden": "true" });
  const open = S.replay && S.state?.open ? S.state.open[s] : null; // a replay, hands open
  if (open) {
    fan.classList.add("open-fan");
    for (const code of open) fan.append(cardFace(code, { size: "sm", dark: v.side === "dark" }));
  } else if (others) for (const code of others) fan.append(cardFace(code, { size: "xs", dark: v.side === "light", other: true }));
  else for (let i = 0; i < Math.min(count, 8); i++) fan.append(cardBack("xs"));
  if (prev && prev.view.hand_sizes[s] < count) fan.classList.add("grew");
  const badges = h("span", { class: "badges" });
  if (seat?.kind === "bot") badges.append(h("span", { class: "badge bot", text: "bot" }));
  if (seat?.team !== null && seat?.team !== undefined) badges.append(h("span", { class: `badge team t${seat.team}`, text: `team ${seat.team + 1}` }));
  if (seat && seat.kind === "person" && !seat.connected) badges.append(h("span", { class: "badge away", text: "reconnecting…" }));
  if (seat?.autopilot) badges.append(h("span", { class: "badge auto", text: "autopilot" }));
  if (!v.live[s]) badges.append(v.game === "no-mercy"
    ? h("span", { class: "badge knocked", text: "knocked out (Mercy)" })
    : h("span", { class: "badge", text: "out" }));
  if (count === 1) badges.append(h("span", { class: `badge uno${v.vulnerable === s ? " uncalled" : ""}`, text: v.vulnerable === s ? "1 card, no UNO!" : "UNO!" }));
  li.append(
    h("div", { class: "opp-head" },
      isTurn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, icon("turn")) : null,
      h("span", { class: "opp-name", text: v.names[s] }),
      reactBubble(String(s)),
      h("span", { class: "opp-score", text: `${v.scores[s]} pts` })),
    h("div", { class: "opp-cards" }, fan, h("span", { class: "opp-count", text: `${count}` }, )),
    badges);
  const catchA = legal().find((a) => a.catch === s);
  if (catchA) {
    li.append(h("button", {
      class: "btn catch", type: "button", dataset: { key: `catch:${s}` },
      "aria-label": `Catch ${v.names[s]}: they did not call UNO (C)`,
      onclick: () => send({ catch: s }), text: "Catch! (C)",
    }));
  }
  return li;
}

// The host's seat controls, under the chat (after the hand in the Tab order): hand a
// person's seat to a bot when they left for good; a bot plays on.
function hostTools() {
  const v = S.state?.view;
  if (!v || !S.room || S.seat === null || S.seat !== S.room.host || S.room.status !== "playing") return null;
  const people = v.names.map((name, s) => [name, s]).filter(([, s]) => s !== S.seat && S.room.seats[s]?.kind === "person");
  if (!people.length) return null;
  const box = h("details", { class: "host-tools", id: "host-tools", open: S.toolsOpen ? true : null },
    h("summary", { text: "Seats (host)" }),
    h("p", { class: "hint", text: "Someone left for good? A bot takes their seat; they can still watch." }),
    h("div", { class: "tool-row" }, people.map(([name, s]) => h("button", {
      class: "btn small ghost to-bot", type: "button", dataset: { key: `to-bot:${s}` },
      "aria-label": `Give ${name}'s seat to a bot`, text: `${name}: give to a bot`,
      onclick: () => {
        if (window.confirm(`Give ${name}'s seat to a bot? They can still watch.`)) S.conn.send({ type: "kick", seat: s });
      },
    }))));
  box.addEventListener("toggle", () => (S.toolsOpen = box.open));
  return box;
}

function spectatorBar(v) {
  if (S.replay) return h("div", { class: "me spectator" }, h("p", { text: R.view === "open" ? "Every hand is open: the replay of a finished game." : "A spectator's view: what everyone saw, never a hand." }));
  return h("div", { class: "me spectator" }, h("p", { text: "You are watching: you see what everyone sees, never a hand." }));
}

function myArea(v, myTurn, prev) {
  const me = v.seat;
  const L = legal();
  const playable = new Set();
  for (const a of L) {
    if (a.play) playable.add(a.play);
    if (a.cards) playable.add(a.cards[0]);
  }
  const hand = h("div", { class: "hand", role: "group", "aria-label": `Your hand, ${v.hand.length} cards. Arrows move, Enter plays.` });
  const prevHand = prev && prev.view.seat === me ? [...(prev.view.hand || [])] : null;
  const counts = {};
  v.hand.forEach((code, i) => {
    counts[code] = (counts[code] || 0) + 1;
    const el = cardFace(code, { tag: "button", dark: v.side === "dark" });
    el.type = "button";
    el.dataset.key = `card:${code}:${counts[code]}`;
    el.dataset.index = String(i);
    const ok = playable.has(code);
    const drawn = v.drawn === code && v.phase === "drawn" && myTurn;
    el.classList.add(ok ? "playable" : myTurn || L.some((a) => a.play || a.cards) ? "dim" : "idle");
    if (drawn) el.classList.add("drawn");
    if (S.choice && S.choice.index === i) el.classList.add("chosen");
    el.setAttribute("aria-label", `${cardName(code)}${drawn ? ", the card you drew" : ""}${ok ? ", playable" : ", cannot be played now"}`);
    if (!ok) el.setAttribute("aria-disabled", "true");
    el.addEventListener("click", () => clickCard(code, i));
    el.addEventListener("keydown", handKeys);
    if (prevHand) {
      const at = prevHand.indexOf(code);
      if (at >= 0) prevHand.splice(at, 1);
      else el.classList.add("new");
    }
    hand.append(el);
  });
  const unoCall = L.find((a) => a.uno === true && !a.play && !a.cards);
  const canArm = canArmUno(v);
  const uno = h("button", {
    class: `btn uno-btn${S.unoArmed ? " armed" : ""}${unoCall ? " urgent" : ""}`, type: "button", id: "uno-btn", dataset: { key: "uno" },
    "aria-pressed": canArm ? String(S.unoArmed) : null,
    "aria-disabled": unoCall || canArm ? null : "true",
    "aria-label": unoCall ? "Call UNO now (U)" : canArm ? (S.unoArmed ? "UNO is called with your next card (U to undo)" : "Call UNO with your next card (U)") : "UNO (only with your second-to-last card)",
    text: "UNO!",
  });
  uno.addEventListener("click", pressUno);
  const buttons = h("div", { class: "my-buttons" });
  const drawA = L.find((a) => a.draw);
  const drawText = ruleValue("attack_launcher") ? "Launcher (D)" : v.game === "no-mercy" ? "Draw until playable (D)" : "Draw (D)";
  buttons.append(h("button", { class: "btn", type: "button", id: "draw-btn", dataset: { key: "draw" }, "aria-disabled": drawA ? null : "true", text: drawText, onclick: () => drawA && send({ draw: true }) }));
  buttons.append(uno);
  const seat = S.room?.seats[me];
  const head = h("div", { class: "me-head" },
    h("span", { class: "me-name", text: v.names[me] }),
    h("span", { class: "tag you", text: "you" }),
    reactBubble(String(me)),
    seat?.team !== null && seat?.team !== undefined ? h("span", { class: `badge team t${seat.team}`, text: `team ${seat.team + 1}` }) : null,
    h("span", { class: "me-score", text: `${v.scores[me]} pts` }),
    v.hand.length === 1 ? h("span", { class: `badge uno${v.vulnerable === me ? " uncalled" : ""}`, text: v.vulnerable === me ? "call UNO!" : "UNO!" }) : null,
    !v.live[me] && v.game === "no-mercy" ? h("span", { class: "badge knocked", text: "knocked out (Mercy): you watch this round" }) : null);
  return h("div", { class: `me${myTurn ? " turn" : ""}` }, h("div", { class: "me-bar" }, head, buttons), hand);
}

function handKeys(e) {
  const cards = [...main.querySelectorAll(".hand .card")];
  const i = cards.indexOf(e.currentTarget);
  let j = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = cards.length - 1;
  if (j !== null) {
    e.preventDefault();
    cards[j].focus();
  }
}

function pressUno() {
  const unoCall = legal().find((a) => a.uno === true && !a.play && !a.cards);
  if (unoCall) {
    send({ uno: true });
    return;
  }
  if (canArmUno(S.state.view)) {
    S.unoArmed = !S.unoArmed;
    render();
    if (S.unoArmed) toast("UNO! Now play your card.", "info");
  }
}

// ---- putting a play together: which cards, colour, target, UNO ------------------------
function clickCard(code, index) {
  const L = legal();
  const opts = L.filter((a) => a.play === code || (a.cards && a.cards[0] === code));
  if (!opts.length) {
    const v = S.state.view;
    if (!v.legal.length || v.phase === "round_over" || v.phase === "game_over") toast(v.current === v.seat ? "Nothing to play now." : `It is ${v.names[v.current]}'s turn.`, "info");
    else if (v.phase === "drawn") toast("You may only play the card you drew, or keep it.", "info");
    else toast(`${cardName(code)} does not match: play a ${colorName(v.color)} card, a ${parseCard(v.top).short}, or a Wild.`, "info");
    return;
  }
  S.choice = { card: code, index, options: opts, stage: null };
  advanceChoice();
}

function seqKey(a) {
  return a.cards ? a.cards.join("/") : a.play;
}

function advanceChoice() {
  const c = S.choice;
  let opts = c.options;
  const seqs = [...new Set(opts.map(seqKey))];
  if (seqs.length > 1 && c.seq === undefined) {
    c.stage = "multi";
    c.seqs = seqs;
    render();
    return;
  }
  if (c.seq !== undefined) opts = opts.filter((a) => seqKey(a) === c.seq);
  const colors = [...new Set(opts.map((a) => a.color).filter(Boolean))];
  if (colors.length > 1 && c.color === undefined) {
    c.stage = "color";
    c.colors = colors;
    render();
    main.querySelector(".color-pick .btn")?.focus();
    return;
  }
  if (c.color !== undefined) opts = opts.filter((a) => a.color === c.color);
  const targets = [...new Set(opts.map((a) => a.target).filter((t) => t !== undefined && t !== null))];
  if (targets.length > 1 && c.target === undefined) {
    c.stage = "target";
    c.targets = targets;
    render();
    main.querySelector(".target-pick .btn")?.focus();
    return;
  }
  if (c.target !== undefined) opts = opts.filter((a) => a.target === c.target);
  const withUno = opts.find((a) => a.uno === true);
  const without = opts.find((a) => !a.uno);
  send(S.unoArmed && withUno ? withUno : without || opts[0]);
}

function cancelChoice() {
  S.choice = null;
  render();
}

// the colours offered: those of the legal actions (UNO Flip!'s dark side: P T O V)
function colorButtons(onPick, label, keys = COLOR_KEYS) {
  return h("div", { class: "color-pick", role: "group", "aria-label": label },
    keys.map((k) => h("button", {
      class: `btn colorbtn cb-${k}`, type: "button", dataset: { key: `color:${k}`, color: k },
      "aria-label": `${COLORS[k].label} (${k})`, onclick: () => onPick(k),
    }, h("span", { class: "cb-letter", "aria-hidden": "true", text: k }), h("span", { text: COLORS[k].label }))));
}

function promptView(v, myTurn) {
  const box = h("div", { class: "prompt", id: "prompt", "aria-live": "polite" });
  const c = S.choice;
  const L = legal();
  if (c && c.stage === "multi") {
    box.append(h("p", { class: "prompt-title", text: "Play these cards together? (the last one ends on top)" }),
      h("div", { class: "choice-row" }, c.seqs.map((sq, i) => h("button", {
        class: "btn", type: "button", dataset: { key: `seq:${sq}` },
        onclick: () => { c.seq = sq; advanceChoice(); },
      }, `${i + 1}. `, sq.split("/").map(cardName).join(" + ")))),
      h("button", { class: "btn ghost", type: "button", text: "Cancel (Esc)", onclick: cancelChoice }));
    box.classList.add("active");
    return box;
  }
  if (c && c.stage === "color") {
    box.append(h("p", { class: "prompt-title", text: `${cardName(c.card)}: choose the colour` }),
      colorButtons((k) => { c.color = k; advanceChoice(); }, "Choose a colour", c.colors || COLOR_KEYS),
      h("button", { class: "btn ghost", type: "button", text: "Cancel (Esc)", onclick: cancelChoice }));
    box.classList.add("active");
    return box;
  }
  if (c && c.stage === "target") {
    box.append(h("p", { class: "prompt-title", text: "Swap hands with whom?" }),
      h("div", { class: "choice-row target-pick" }, c.targets.map((t, i) => h("button", {
        class: "btn", type: "button", dataset: { key: `target:${t}` }, onclick: () => { c.target = t; advanceChoice(); },
      }, `${i + 1}. ${v.names[t]} (${v.hand_sizes[t]} cards)`))),
      h("button", { class: "btn ghost", type: "button", text: "Cancel (Esc)", onclick: cancelChoice }));
    box.classList.add("active");
    return box;
  }
  if (!myTurn) return box;
  if (myTurn && v.phase === "start_color") {
    const colorActs = L.filter((a) => a.color && !a.play);
    const targets = [...new Set(colorActs.map((a) => a.target).filter((t) => t !== undefined))];
    const pick = (k) => {
      const opts = colorActs.filter((a) => a.color === k);
      if (targets.length > 1) {
        S.choice = { card: v.top, options: opts.map((a) => a), stage: null, color: k, startColor: true };
        S.choice.stage = "target";
        S.choice.targets = targets;
        S.choice.options = opts;
        render();
        return;
      }
      send(opts[0]);
    };
    const keys = [...new Set(colorActs.map((a) => a.color))];
    const title = v.game === "no-mercy"
      ? "Colour Roulette! Name a colour: you turn cards over until one of it comes, and keep them all."
      : v.game === "flip" ? `The ${cardName(v.top)} on top needs a colour: choose it` : `The start card is a ${cardName(v.top)}: choose its colour`;
    box.append(h("p", { class: "prompt-title", text: title }), colorButtons(pick, "Choose the colour", keys));
    box.classList.add("active");
  } else if (myTurn && (v.phase === "challenge" || (v.phase === "answer" && L.some((a) => a.challenge)))) {
    const by = v.names[v.wd4_by];
    const flip = v.game === "flip"; // Wild Draw Two or Wild Draw Colour (FLIP-CHAL)
    const cost = flip ? (v.top === "W+C" ? "draw until the colour named comes" : `draw ${v.pending_total || 2}`) : `draw ${v.pending_total || 4}`;
    box.append(
      h("p", { class: "prompt-title", text: `${by} played a ${flip ? cardName(v.top) : "Wild Draw Four"} on you.` }),
      h("p", { class: "hint", text: flip
        ? `Challenge if you think ${by} still held a card of the colour in force before it: if so ${by} takes the penalty, if not you take it and 2 more. Or accept and ${cost}.`
        : `Challenge if you think ${by} still held a ${colorName(v.prev_color)} card: if so ${by} draws 4, if not you draw 6. Or accept and draw ${v.pending_total || 4}.` }),
      h("div", { class: "choice-row" },
        h("button", { class: "btn primary", type: "button", id: "challenge-btn", dataset: { key: "challenge" }, text: "Challenge (C)", onclick: () => send({ challenge: true }) }),
        h("button", { class: "btn", type: "button", id: "accept-btn", dataset: { key: "accept" }, text: `Accept: ${cost} (A)`, onclick: () => send({ accept: true }) })));
    box.classList.add("active");
  } else if (myTurn && v.phase === "answer") {
    box.append(
      h("p", { class: "prompt-title", text: L.some((a) => a.play || a.cards)
        ? `${cardName(v.pending)}: answer with a raised card, or take ${v.pending_total} cards.`
        : `${cardName(v.pending)}: you have no card to answer it; take ${v.pending_total} cards.` }),
      h("button", { class: "btn", type: "button", id: "accept-btn", dataset: { key: "accept" }, text: `Accept: draw ${v.pending_total} (A)`, onclick: () => send({ accept: true }) }));
    box.classList.add("active");
  } else if (myTurn && v.phase === "drawn") {
    const playDrawn = L.find((a) => a.play === v.drawn);
    const keep = L.find((a) => a.keep);
    box.append(
      h("p", { class: "prompt-title" }, v.game === "no-mercy" ? "You drew until a playable card came: " : "You drew ", cardFace(v.drawn, { size: "sm", dark: v.side === "dark" }), ` ${cardName(v.drawn)}${keep ? "." : ": play it."}`),
      h("div", { class: "choice-row" },
        playDrawn ? h("button", { class: "btn primary", type: "button", id: "play-drawn-btn", dataset: { key: "play-drawn" }, text: "Play it (P)", onclick: () => clickCard(v.drawn) }) : null,
        keep ? h("button", { class: "btn", type: "button", id: "keep-btn", dataset: { key: "keep" }, text: "Keep it (K)", onclick: () => send({ keep: true }) }) : null));
    box.classList.add("active");
  }
  return box;
}

// ---- the side: log and chat -----------------------------------------------------------
function sideView() {
  // focusable: it scrolls, and a keyboard user must be able to scroll it (axe's
  // scrollable-region-focusable)
  const log = h("ol", { class: "log", id: "log", tabindex: 0, "aria-label": "What happened", "aria-live": "polite", "aria-relevant": "additions" });
  fillLog(log);
  const side = h("aside", { class: "side", "aria-label": "Log and chat" });
  if (S.revealed && S.state) {
    const names = S.state.view.names;
    side.append(h("div", { class: "reveal", id: "reveal", role: "region", "aria-label": "Revealed hand" },
      h("p", { class: "reveal-title", text: `${names[S.revealed.seat]}'s hand when you challenged (shown to you only):` }),
      h("div", { class: "reveal-cards" }, S.revealed.cards.map((code) => cardFace(code, { size: "sm", dark: S.state.view.side === "dark" }))),
      h("button", { class: "btn ghost small", type: "button", text: "Hide", onclick: () => { S.revealed = null; render(); } })));
  }
  if (S.help) side.append(helpPanel());
  if (S.rulesOpen) side.append(rulesPanel());
  side.append(h("h2", { class: "side-h", text: "Log" }), log);
  if (!S.replay) {
    const w = watchersView();
    if (w) side.append(w);
    if (S.seat !== null || S.watchName) side.append(reactionsView());
    if (S.seat !== null || (S.watchName && S.room?.watch_chat !== false)) side.append(chatForm());
    else if (S.watchName) side.append(h("p", { class: "hint", id: "watch-chat-off", text: "The host turned spectators' chat off." }));
    const wc = watchChatToggle();
    if (wc) side.append(wc);
  }
  const tools = hostTools();
  if (tools) side.append(tools);
  queueMicrotask(() => (log.scrollTop = log.scrollHeight));
  return side;
}

function chatForm() {
  // one form per room, kept across redraws so a half-typed line survives a state change
  if (S.chatForm && S.chatForm.dataset.room === S.code) return S.chatForm;
  const input = h("input", { id: "chat-input", maxlength: 200, autocomplete: "off", placeholder: "Say something…", "aria-label": "Chat message", dataset: { key: "chat" } });
  const form = h("form", { class: "chat", dataset: { room: S.code } }, input, h("button", { class: "btn small", type: "submit", text: "Send" }));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) S.conn.send({ type: "chat", text });
    input.value = "";
  });
  S.chatForm = form;
  return form;
}

function fillLog(log) {
  const entries = S.log.slice(-120);
  log.replaceChildren(...entries.map((e) => h("li", { class: e.cls || "", text: e.text })));
}

function drawLog() {
  const log = main.querySelector("#log");
  if (!log) return;
  fillLog(log);
  log.scrollTop = log.scrollHeight;
}

// ---- reactions and spectators (issue 36 item 16) -----------------------------------------
const EMOTE_TEXT = { nice: "Nice!", gg: "Good game!", oops: "Oops!", wow: "Wow!", hurry: "Hurry up!", thanks: "Thanks!" };

function reactBubble(key) {
  const r = S.reacts?.[key];
  return r && Date.now() < r.until ? h("span", { class: "react-bubble", role: "status", text: r.text }) : null;
}

function reactionsView() {
  return h("div", { class: "reactions", role: "group", "aria-label": "React" },
    Object.entries(EMOTE_TEXT).map(([k, text]) => h("button", {
      class: "btn small ghost", type: "button", dataset: { key: `react:${k}`, emote: k }, text,
      onclick: () => S.conn?.send({ type: "react", emote: k }),
    })));
}

function watchersView() {
  const w = S.watchers;
  if (!w || !w.count) return null;
  const unnamed = w.count - w.names.length;
  return h("section", { class: "watchers", id: "watchers", "aria-label": "Spectators" },
    h("h2", { class: "side-h", text: `Watching (${w.count})` }),
    h("ul", {}, w.names.map((n) => h("li", {}, h("span", { text: n + (n === S.watchName && S.seat === null ? " (you)" : "") }), reactBubble(`w:${n}`))),
      unnamed ? h("li", { class: "hint", text: `${unnamed} without a name` }) : null));
}

function watchChatToggle() {
  if (!S.room || S.seat === null || S.seat !== S.room.host) return null;
  const box = h("input", { type: "checkbox", id: "watch-chat", checked: S.room.watch_chat !== false });
  box.addEventListener("change", () => S.conn?.send({ type: "watch_chat", on: box.checked }));
  return h("div", { class: "opt check watch-chat" }, box, h("label", { for: "watch-chat", text: "Spectators may chat" }));
}

// ---- the round summary ------------------------------------------------------------------
function summaryView(st, ended = false) {
  const v = st.view;
  const over = v.phase === "game_over" || ended;
  const target = ruleValue("target_score") ?? 500;
  const rows = v.names.map((name, s) => h("tr", { class: s === v.round_winner ? "winner" : "" },
    h("th", { scope: "row", text: name + (s === v.seat ? " (you)" : "") }),
    h("td", {}, (st.hands?.[s] || []).length
      ? h("div", { class: "sum-hand" }, st.hands[s].map((code) => cardFace(code, { size: "xs", dark: v.side === "dark" })))
      : h("span", { class: "went-out", text: s === v.round_winner ? "none: went out" : !v.live[s] && v.game === "no-mercy" ? "knocked out (Mercy rule)" : "none" })),
    h("td", { class: "num", text: String(st.points?.[s] ?? 0) }),
    h("td", { class: "num", text: String(v.scores[teamScoring(v) ? S.room?.seats[s]?.team ?? s % 2 : s]) })));
  const seated = v.seat !== null;
  const host = S.seat !== null && S.seat === S.room?.host;
  const buttons = h("div", { class: "choice-row" });
  if (!over && seated && !S.replay) buttons.append(h("button", { class: "btn primary", type: "button", id: "next-round-btn", text: "Next round (N)", onclick: () => S.conn.send({ type: "next_round" }) }));
  if (over && host) {
    buttons.append(h("button", { class: "btn primary", type: "button", id: "rematch-btn", text: "Play again", onclick: () => S.conn.send({ type: "rematch" }) }));
    // "end" on a finished game: the room goes back to the lobby (seats, bots, a player
    // whose seat went to a bot may take a seat again), then Start the game
    buttons.append(h("button", { class: "btn", type: "button", id: "lobby-btn", text: "Back to the lobby", onclick: () => S.conn.send({ type: "end" }) }));
  }
  if (over && !S.replay) buttons.append(h("a", { class: "btn", id: "replay-link", href: `/replay?room=${S.code}&game=${st.game}`, text: "Watch the replay" }));
  if (over && !S.replay) buttons.append(h("a", { class: "btn", id: "record-link", href: `/api/rooms/${S.code}/record?game=${st.game}`, download: `uno-${S.code}-${st.game}.json`, text: "Download the record" }));
  buttons.append(h("button", { class: "btn ghost", type: "button", id: "hide-summary", text: "See the table", onclick: () => { S.summaryHidden = true; render(); } }));
  let title = v.round_winner !== null ? `${v.round_winner === v.seat ? "You" : v.names[v.round_winner]} went out!` : "Round over";
  if (v.round_winner !== null && v.game === "no-mercy" && v.live.filter(Boolean).length === 1 && st.hands?.[v.round_winner]?.length)
    title = `${v.round_winner === v.seat ? "You are" : v.names[v.round_winner] + " is"} the last one left: the Mercy rule knocked out the others`;
  if (over) title = v.game_winner !== null ? `${teamOrName(v, v.game_winner)} won the game!` : "Game over";
  if (ended) title = "The host ended the game";
  return h("section", { class: "summary", id: "summary", role: "dialog", "aria-modal": "false", "aria-labelledby": "summary-h" },
    h("h2", { id: "summary-h", text: title }),
    h("p", { class: "hint", text: over
      ? `The game is over (the target was ${target} point${target === 1 ? "" : "s"}).` + (S.replay ? "" : host ? " Play again with the same seats, or go back to the lobby to change them." : " The host can start another.")
      : `Round ${v.round + 1} is over. First to ${target} point${target === 1 ? "" : "s"} wins.${seated && !S.replay ? " The next round starts when someone presses Next round, or by itself." : ""}` }),
    !over && S.nextRoundAt ? h("p", { class: "next-round-in", id: "next-round-in", role: "timer", text: nextRoundText() }) : null,
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Player" }), h("th", { scope: "col", text: "Cards left" }), h("th", { scope: "col", text: "Points" }), h("th", { scope: "col", text: "Score" }))),
      h("tbody", {}, rows)),
    roundsView(st),
    buttons);
}

function teamScoring(v) {
  return v.scores.length !== v.names.length;
}

// ---- scores by round: a table of every round's points, and the totals as a chart --------
const LINE_COLORS = ["#ffdd57", "#7cc4ff", "#ff8a80", "#8ef0a8", "#d7a6ff", "#ffb74d", "#80deea", "#f48fb1", "#c5e1a5", "#e0e0e0"];

function roundsView(st) {
  const totals = st.totals || [];
  const v = st.view;
  if (!totals.length) return null;
  const labels = teamScoring(v) ? totals[0].map((_, i) => `Team ${i + 1}`) : v.names.map((n, s) => (s === v.seat ? "You" : n));
  const points = totals.map((t, r) => t.map((x, i) => x - (r ? totals[r - 1][i] : 0)));
  const table = h("table", { class: "scores by-round", id: "by-round" },
    h("caption", { text: "Scores by round" }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Round" }), labels.map((l) => h("th", { scope: "col", class: "num", text: l })))),
    h("tbody", {}, points.map((row, r) => h("tr", {},
      h("th", { scope: "row", text: String(r + 1) }),
      row.map((x) => h("td", { class: "num", text: x ? `+${x}` : "0" }))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: "Total" }),
      totals[totals.length - 1].map((x) => h("td", { class: "num", text: String(x) })))));
  return h("div", { class: "rounds" }, h("div", { class: "rounds-table", tabindex: 0, role: "region", "aria-label": "Scores by round" }, table), totalsChart(totals, labels));
}

function svg(tag, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, val] of Object.entries(attrs)) el.setAttribute(k, String(val));
  return el;
}

/** The totals after each round, one line per player (or team), from 0 before round 1. */
function totalsChart(totals, labels) {
  const W = 320, H = 140, L = 34, R = 8, T = 8, B = 22;
  const target = Number(ruleValue("target_score") ?? 0);
  const top = Math.max(1, ...totals.flat());
  const yMax = target && target <= top * 1.6 ? Math.max(top, target) : top;
  const x = (r) => L + (r * (W - L - R)) / totals.length;
  const y = (val) => T + (H - T - B) * (1 - val / yMax);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", id: "totals-chart", role: "img",
    "aria-label": `Totals after each round: ${labels.map((l, i) => `${l} ${totals.map((t) => t[i]).join(", ")}`).join("; ")}` });
  chart.append(svg("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "axis" }));
  chart.append(svg("line", { x1: L, y1: T, x2: L, y2: y(0), class: "axis" }));
  if (yMax === target) {
    chart.append(svg("line", { x1: L, y1: y(target), x2: W - R, y2: y(target), class: "target" }));
  }
  const tick = (val) => {
    const t = svg("text", { x: L - 4, y: y(val) + 4, "text-anchor": "end", class: "tick" });
    t.textContent = String(val);
    chart.append(t);
  };
  tick(0);
  tick(yMax);
  totals.forEach((_, r) => {
    const t = svg("text", { x: x(r + 1), y: H - 6, "text-anchor": "middle", class: "tick" });
    t.textContent = String(r + 1);
    chart.append(t);
  });
  labels.forEach((_, i) => {
    const pts = [[x(0), y(0)], ...totals.map((t, r) => [x(r + 1), y(t[i])])];
    const color = LINE_COLORS[i % LINE_COLORS.length];
    chart.append(svg("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: color, "stroke-width": 2.5, class: "line", "data-seat": i }));
    for (const [px, py] of pts.slice(1)) chart.append(svg("circle", { cx: px, cy: py, r: 3, fill: color }));
  });
  const legend = h("ul", { class: "legend", "aria-hidden": "true" }, labels.map((l, i) => h("li", {},
    h("span", { class: `swatch-line sw-${i % LINE_COLORS.length}` }), l)));
  return h("figure", { class: "totals" }, chart, legend);
}

function nextRoundText() {
  const left = secondsLeft(S.nextRoundAt || Date.now());
  return left > 0 ? `Next round in ${left}\u00a0s` : "Next round: dealing…";
}

/** An option of this room's rules: its own options, else its preset's, else the default. */
function ruleValue(name) {
  const mine = S.room?.rules?.options || {};
  if (name in mine) return mine[name];
  const preset = S.rules?.presets.find((p) => p.name === S.room?.rules?.preset);
  if (preset && name in preset.options) return preset.options[name];
  return S.rules?.options.find((o) => o.name === name)?.default;
}

// ---- the rules in force ------------------------------------------------------------------
const CUSTOM = {
  none: "Wild Customizable cards act as plain Wilds.",
  next_draws_3: "A Wild Customizable makes the next player draw 3 (they still play).",
  others_draw_2: "A Wild Customizable makes everyone else draw 2.",
  others_discard_wilds: "A Wild Customizable makes everyone else put down their wilds.",
  extra_turn: "A Wild Customizable gives its player another turn.",
  discard_color: "A Wild Customizable lets its player put down every card of the colour named.",
};
const DECKS = {
  classic: "The classic deck of 108 cards.",
  "mattel-2018-swap": "The 2018 deck of 112 cards, with Wild Swap Hands and Wild Customizable cards.",
  "mattel-2018-shuffle": "The 2018 deck of 112 cards, with Wild Shuffle Hands and Wild Customizable cards.",
  "my-first-uno": "The children's deck of 36 cards.",
  flip: "UNO Flip!: 112 two-sided cards, a light side and a dark side; a Flip card turns every card over.",
  "no-mercy": "UNO Show 'Em No Mercy: 168 cards, draw until you can play, stacking by value, and the Mercy rule.",
};
const SCORING = {
  standard: "Whoever goes out scores the points left in the other hands.",
  low: "Everyone scores the points left in their own hand; at the target, the fewest points wins.",
  elimination: "Everyone scores their own hand; reaching the target puts a player out, and the last one left wins.",
  teams: "Partners sitting opposite score together.",
  "first-out": "The first player to go out wins the game; no points are counted.",
};
const STACKING = {
  off: "Draw cards do not stack: the next player draws and is skipped.",
  pass: "A Draw Two or Wild Draw Four may be passed on with a matching card.",
  progressive: "Draw cards stack: answer with another and the penalties add up for the next player.",
};

/** One sentence for an option's value (the rule as it plays at this table). */
function ruleSentence(name, v) {
  const n = Number(v);
  switch (name) {
    case "deck": return DECKS[v] || `The ${v} deck.`;
    case "custom_rule": return CUSTOM[v] || `Wild Customizable: ${v}.`;
    case "custom_cards": return `${n} Wild Customizable card${n === 1 ? " is" : "s are"} in the deck.`;
    case "hand_size": return `Each player is dealt ${n} card${n === 1 ? "" : "s"}.`;
    case "target_score": return `The game ends when someone reaches ${n} point${n === 1 ? "" : "s"}.`;
    case "scoring": return SCORING[v] || `Scoring: ${v}.`;
    case "wild_points": return `A plain Wild left in a hand counts ${n} points.`;
    case "uno_penalty": return `Caught not calling UNO: draw ${n} card${n === 1 ? "" : "s"}.`;
    case "false_uno_penalty": return n ? `Calling UNO without having one card left costs ${n} card${n === 1 ? "" : "s"}.` : "Calling UNO too early costs nothing.";
    case "wd4_bluffing": return v ? "A Wild Draw Four may be played while holding the colour in force, at the risk of a challenge." : "A Wild Draw Four may only be played without a card of the colour in force.";
    case "wd4_guilty": return v === "retract" ? "A Wild Draw Four found guilty is taken back, and its player draws 4." : "A Wild Draw Four found guilty makes its player draw 4.";
    case "draw_until_playable": return v ? "You keep drawing until a playable card comes." : "You draw one card; if it can be played, you may play it at once.";
    case "force_play_drawn": return v ? "A playable card you drew must be played." : "A playable card you drew may be kept.";
    case "stacking": return STACKING[v] || `Stacking: ${v}.`;
    case "stack_draw4_on_draw2": return v ? "A Wild Draw Four may answer a Draw Two." : "A Draw Two is answered only with a Draw Two.";
    case "multi_play": return v ? "Several cards of the same number may be played together." : "One card is played at a time.";
    case "jump_in": return v ? "Anyone holding the very card on top may play it out of turn (jump in)." : "Nobody plays out of turn.";
    case "seven_zero": return v ? "A 7 swaps hands with a player of your choice; a 0 passes every hand on." : "A 7 and a 0 are plain numbers.";
    case "attack_launcher": return v ? "Instead of drawing you press the launcher: it fires 0 to 12 cards at you." : "You draw from the pile.";
    // UNO Flip! (RULES-MODERN.md A12)
    case "flip_start": return v === "flip" ? "A Flip turned up as the start card flips the round at once." : "A Flip turned up as the start card goes back, and another is turned.";
    case "flip_inverts_discard": return v ? "A flip turns the whole discard pile over: its bottom card comes on top." : "A flip turns only the Flip card over.";
    case "flip_exposed_action": return v ? "The action of the card a flip brings on top happens." : "The card a flip brings on top does nothing by itself.";
    case "flip_wild_color": return v === "next_player" ? "A wild a flip brings on top: the next player names its colour." : "A wild a flip brings on top: the player of the Flip names its colour.";
    case "flip_last_card": return v === "no_flip" ? "A Flip as the last card ends the round before the flip." : "A Flip as the last card still flips, and the round is scored on the new side.";
    case "flip_pairing": return "Light and dark faces are paired at random for the game.";
    // No Mercy (RULES-MODERN.md B11)
    case "nm_deck": return `The deck's breakdown: ${v}.`;
    case "nm_voluntary_draw": return v ? "You may draw (until a playable card comes) even holding a playable card." : "Holding a playable card, you must play one.";
    case "nm_stack_threshold": return v === "total" ? "A stack is answered with a draw card worth at least the total so far." : "A stack is answered with a draw card worth at least the last one played.";
    case "nm_stack_match_color": return v ? "A stack answer must also match colour or symbol." : "Any draw card of enough value answers a stack, whatever its colour.";
    case "nm_stack_deflect": return v ? "A Skip or Reverse passes a pending stack on." : "Only draw cards answer a stack.";
    case "mercy_limit": return n ? `Holding ${n} cards or more knocks a player out (the Mercy rule).` : "No Mercy rule: nobody is knocked out.";
    case "nm_knockout_cards": return v === "discard_bottom" ? "A knocked-out hand goes under the discard pile." : "A knocked-out hand is set aside until the next reshuffle.";
    case "nm_last_card_effect": return v ? "A last card's effect still happens." : "A last card's effect does not happen: the round is over.";
    case "nm_roulette_color": return v === "player" ? "After a Colour Roulette, the colour of the player who played it is in force." : "After a Colour Roulette, the colour the victim named is in force.";
    default: return `${name.replaceAll("_", " ")}: ${optionText(v)}.`;
  }
}

/** The rules of this room: the preset's description, then one sentence per rule that
 * differs from the official rules, then the target and the penalties. */
function rulesInForce() {
  const room = S.room;
  const preset = S.rules?.presets.find((p) => p.name === room.rules.preset);
  const defaults = {};
  const game = preset?.game || "classic"; // a modern game lists only the options it plays
  for (const o of S.rules?.options || []) if (!o.games || o.games.includes(game)) defaults[o.name] = o.default;
  const house = [];
  const names = Object.keys(defaults).filter((k) => k !== "launcher_weights");
  for (const k of names) {
    const v = ruleValue(k);
    if (JSON.stringify(v) !== JSON.stringify(defaults[k])) house.push([k, v]);
  }
  const always = ["target_score", "uno_penalty", "stacking", "mercy_limit"].filter((k) => k in defaults && !house.some(([n]) => n === k)).map((k) => [k, ruleValue(k)]);
  return { preset: room.rules.preset, description: preset?.description || "", house, always };
}

function rulesPanel() {
  if (!S.rules) return h("section", { class: "help rules", id: "rules" }, h("p", { text: "Loading the rules…" }));
  const r = rulesInForce();
  const item = ([k, v]) => h("li", { dataset: { rule: k } }, h("b", { text: k.replaceAll("_", " ") + ": " }), ruleSentence(k, v));
  return h("section", { class: "help rules", id: "rules", "aria-labelledby": "rules-h" },
    h("h2", { id: "rules-h", text: `Rules: ${r.preset}` }),
    r.description ? h("p", { class: "hint", text: r.description.charAt(0).toUpperCase() + r.description.slice(1) + "." }) : null,
    h("h3", { text: r.house.length ? "House rules" : "No house rules: the official rules" }),
    r.house.length ? h("ul", { class: "rule-list", id: "house-rules" }, r.house.map(item)) : null,
    h("ul", { class: "rule-list" }, r.always.map(item),
      h("li", {}, h("b", { text: "turn timer: " }), S.room.timer ? `${S.room.timer} s, then the autopilot decides.` : "off.")),
    h("button", { class: "btn small", type: "button", id: "rules-close", text: "Close", onclick: toggleRules }));
}

function toggleRules() {
  S.rulesOpen = !S.rulesOpen;
  render();
  if (S.rulesOpen) showPanel("rules");
}

// ---- help ---------------------------------------------------------------------------------
// key names as words: an arrow glyph may be missing from the reader's fonts
const KEYS = [
  ["Left, Right", "move along your hand (Home, End: its ends)"], ["Enter, Space", "play the focused card"],
  ["D", "draw"], ["K", "keep the drawn card"], ["P", "play the drawn card"], ["U", "UNO"],
  ["C", "catch (or challenge)"], ["A", "accept the penalty"], ["R, Y, G, B", "pick a colour"],
  ["1-9", "pick a player or a choice"], ["N", "next round"], ["Esc", "cancel a choice, close this"], ["?", "show or hide the keys"],
];

function helpPanel() {
  return h("section", { class: "help", id: "help", "aria-labelledby": "help-h" },
    h("h2", { id: "help-h", text: "Keys" }),
    h("dl", {}, KEYS.map(([k, d]) => [h("dt", { text: k }), h("dd", { text: d })])),
    h("button", { class: "btn small", type: "button", id: "help-close", text: "Close", onclick: toggleHelp }));
}

// ---------------------------------------------------------------- the replay viewer ---
// Issue 36 item 13: a game record played again with the live table's renderer.  The
// server turns the record into the table's own state messages (server/replay.py: the
// engine replays it, from one seat, a spectator, or with every hand open), so the page
// holds no copy of the rules: stepping is moving along those frames, and the log is the
// same log, built from their events.
const R = { frames: [], rounds: [], players: [], rules: null, at: -1, view: "spectator", source: null, timer: null, speed: 1, message: "", bar: null, holder: null };
const SPEEDS = [0.5, 1, 2, 4, 8];

async function showReplay() {
  if (S.conn) S.conn.stop();
  stopPlaying();
  Object.assign(S, {
    code: null, seat: null, token: null, conn: null, room: null, state: null, game: null,
    log: [], seenSeq: -1, prevKind: null, choice: null, unoArmed: false, revealed: null, summaryHidden: false,
    rulesForm: null, replay: true, flipNote: null,
  });
  Object.assign(R, { frames: [], at: -1, bar: null, holder: null, message: "" });
  document.title = "unokit: replay";
  roombar.replaceChildren(h("span", { class: "roomcode", text: "Replay" }));
  if (!S.rules) {
    try {
      S.rules = await api("/api/rules");
    } catch {
      S.rules = null;
    }
  }
  const q = new URLSearchParams(location.search);
  const room = q.get("room");
  if (room && /^[A-Za-z0-9]{6}$/.test(room)) {
    R.source = { room: room.toUpperCase(), game: Math.max(1, Number(q.get("game")) || 1) };
    R.view = q.get("view") || "spectator";
    loadReplay();
    return;
  }
  R.source = null;
  main.replaceChildren(replayOpenView());
}

function replayOpenView(error = "") {
  const err = h("p", { class: "form-error", role: "alert", id: "replay-error", text: error });
  const file = h("input", { type: "file", id: "replay-file", accept: ".json,application/json,text/plain" });
  file.addEventListener("change", () => file.files[0] && readRecordFile(file.files[0]));
  const panel = h("section", { class: "panel replay-open", id: "replay-drop" },
    h("h1", { text: "Replay a game" }),
    h("p", { text: "Open a game record: one downloaded from a finished game (Download the record), the output of unokit demo, or any record of docs/records.md. You can also drop the file on this page." }),
    h("div", { class: "field" }, h("label", { for: "replay-file", text: "Game record (JSON)" }), file),
    err,
    h("p", { class: "hint" }, "A finished room's game has a link too: ", h("code", { text: "/replay?room=CODE&game=1" }), "."),
    h("a", { class: "btn", href: "/", text: "Back to the home page" }));
  return panel;
}

// a record file dropped anywhere on the replay page
document.addEventListener("dragover", (e) => {
  if (S.replay) e.preventDefault();
});
document.addEventListener("drop", (e) => {
  if (!S.replay) return;
  e.preventDefault();
  const f = e.dataTransfer?.files?.[0];
  if (f) readRecordFile(f);
});

function readRecordFile(f) {
  if (f.size > 4 * 1024 * 1024) {
    main.replaceChildren(replayOpenView("That file is too big to be a game record."));
    return;
  }
  f.text().then((text) => {
    R.source = { text, name: f.name };
    R.view = "spectator";
    loadReplay();
  }, () => main.replaceChildren(replayOpenView("The file cannot be read.")));
}

async function loadReplay() {
  stopPlaying();
  const keepAt = R.at;
  main.replaceChildren(h("p", { class: "panel loading", text: "Replaying the record…" }));
  const view = encodeURIComponent(R.view);
  let got;
  try {
    got = R.source.text !== undefined
      ? await postText(`/api/replay?view=${view}`, R.source.text)
      : await api(`/api/rooms/${R.source.room}/replay?game=${R.source.game}&view=${view}`);
  } catch (e) {
    R.frames = [];
    main.replaceChildren(replayOpenView(`This record cannot be replayed: ${e.message}`));
    return;
  }
  if (!got.frames.length) {
    main.replaceChildren(replayOpenView(`This record cannot be replayed: ${got.message || "it has no moves"}`));
    return;
  }
  Object.assign(R, { frames: got.frames, rounds: got.rounds, players: got.players, rules: got.rules, message: got.ok ? "" : got.message, at: -1, bar: null, holder: null });
  S.room = {
    type: "room", code: "replay", status: "playing", host: -1, you: null, game: 1, timer: 0,
    rules: got.rules, rounds: [],
    seats: got.players.map((name, i) => ({ seat: i, name, kind: "person", level: null, connected: true, away: null, autopilot: false, team: null })),
  };
  S.seat = /^\d+$/.test(R.view) ? Number(R.view) : null;
  document.title = `unokit: replay${R.source.room ? " of room " + R.source.room : ""}`;
  goTo(keepAt >= 0 ? Math.min(keepAt, R.frames.length - 1) : 0);
}

/** Show frame ``k``: the log is built from the frames' events up to it. */
function goTo(k) {
  k = Math.max(0, Math.min(R.frames.length - 1, k));
  const prev = k === R.at + 1 ? S.state : null; // one step: the table animates it
  if (k === R.at + 1 && R.at >= 0) {
    takeEvents(R.frames[k]);
  } else {
    Object.assign(S, { log: [], seenSeq: -1, prevKind: null, revealed: null });
    for (let i = 0; i <= k; i++) takeEvents(R.frames[i]);
    S.flipNote = null;
    if (R.frames[k].events.some((e) => e.kind === "flip")) S.flipNote = { side: R.frames[k].view.side, until: Date.now() + 3500, fresh: true };
  }
  R.at = k;
  S.state = R.frames[k];
  S.summaryHidden = false;
  S.nextRoundAt = null;
  S.clockDeadline = null;
  render(prev);
  if (S.flipNote) S.flipNote.fresh = false;
}

function stopPlaying() {
  clearInterval(R.timer);
  R.timer = null;
}

function togglePlay() {
  if (R.timer) {
    stopPlaying();
  } else {
    if (R.at >= R.frames.length - 1) goTo(0);
    R.timer = setInterval(() => {
      if (R.at >= R.frames.length - 1) {
        stopPlaying();
        render();
        return;
      }
      goTo(R.at + 1);
    }, 900 / R.speed);
  }
  render();
}

function roundOf(k) {
  let r = 0;
  R.rounds.forEach((start, i) => { if (start <= k) r = i; });
  return r;
}

function replayWhere() {
  const f = R.frames[R.at];
  const r = roundOf(R.at);
  const start = R.rounds[r];
  const end = r + 1 < R.rounds.length ? R.rounds[r + 1] : R.frames.length;
  const move = f.action < 0 ? "the deal" : `move ${f.action + 1} of ${end - start - 1}`;
  return `Round ${r + 1} of ${R.rounds.length}: ${move}`;
}

// the controls stay the same elements from one frame to the next (a slider being
// dragged, a focused button), only their values change
function replayBar() {
  if (!R.bar) {
    const btn = (id, text, label, onclick) => h("button", { class: "btn small", type: "button", id, "aria-label": label, dataset: { key: id }, text, onclick });
    const pos = h("input", { type: "range", id: "rp-pos", min: 0, max: R.frames.length - 1, value: 0, "aria-label": "Position in the game" });
    pos.addEventListener("input", () => { stopPlaying(); goTo(Number(pos.value)); });
    const round = h("select", { id: "rp-round", "aria-label": "Jump to a round" },
      R.rounds.map((_, i) => h("option", { value: i, text: `Round ${i + 1}` })));
    round.addEventListener("change", () => { stopPlaying(); goTo(R.rounds[Number(round.value)]); });
    const speed = h("select", { id: "rp-speed", "aria-label": "Speed" },
      SPEEDS.map((x) => h("option", { value: x, text: `${x}x speed`, selected: x === R.speed })));
    speed.addEventListener("change", () => {
      R.speed = Number(speed.value);
      if (R.timer) { stopPlaying(); togglePlay(); }
    });
    const viewSel = h("select", { id: "rp-view", "aria-label": "Whose view" },
      R.players.map((name, i) => h("option", { value: String(i), text: `${name}'s view` })),
      h("option", { value: "spectator", text: "A spectator's view" }),
      h("option", { value: "open", text: "Every hand open" }));
    viewSel.value = R.view;
    viewSel.addEventListener("change", () => { R.view = viewSel.value; loadReplay(); });
    const where = h("p", { class: "rp-where", id: "rp-where", role: "status" });
    const play = btn("rp-play", "Play", "Play (Space)", togglePlay);
    R.bar = h("section", { class: "replay-bar panel", id: "replay-bar", "aria-label": "Replay" },
      h("div", { class: "rp-row" },
        h("h1", { class: "rp-title", text: R.source?.room ? `Replay: room ${R.source.room}, game ${R.source.game}` : `Replay${R.source?.name ? ": " + R.source.name : ""}` }),
        viewSel,
        h("a", { class: "btn small ghost", href: "/replay", id: "rp-other", text: "Open another record" })),
      h("div", { class: "rp-row" },
        btn("rp-first", "Start", "The first move (Home)", () => { stopPlaying(); goTo(0); }),
        btn("rp-back", "Back", "One move back (Left)", () => { stopPlaying(); goTo(R.at - 1); }),
        play,
        btn("rp-next", "Forward", "One move forward (Right)", () => { stopPlaying(); goTo(R.at + 1); }),
        btn("rp-last", "End", "The last move (End)", () => { stopPlaying(); goTo(R.frames.length - 1); }),
        round, speed),
      h("div", { class: "rp-row" }, pos, where),
      R.message ? h("p", { class: "form-error", id: "rp-message", text: `The record stops at an illegal move: ${R.message}` }) : null);
    Object.assign(R, { pos, round, where, play });
  }
  R.pos.value = String(R.at);
  R.round.value = String(roundOf(R.at));
  R.where.textContent = replayWhere();
  R.play.textContent = R.timer ? "Pause" : "Play";
  R.play.setAttribute("aria-label", R.timer ? "Pause (Space)" : "Play (Space)");
  return R.bar;
}

function renderReplay(prev) {
  const bar = replayBar();
  if (!R.holder || main.firstChild !== bar) {
    R.holder = h("div", { class: "replay-table" });
    main.replaceChildren(bar, R.holder);
  }
  const oldRow = R.holder.querySelector(".opponents");
  const keep = oldRow ? oldRow.scrollLeft : 0;
  R.holder.replaceChildren(tableView(prev));
  showWhoPlays(keep);
}

function replayKeys(e) {
  if (!R.frames.length || e.target.closest?.(".hand")) return false;
  const go = (k) => { e.preventDefault(); stopPlaying(); goTo(k); };
  switch (e.key) {
    case "ArrowRight": go(R.at + 1); return true;
    case "ArrowLeft": go(R.at - 1); return true;
    case "Home": go(0); return true;
    case "End": go(R.frames.length - 1); return true;
    case "PageDown": go(R.rounds[Math.min(R.rounds.length - 1, roundOf(R.at) + 1)]); return true;
    case "PageUp": go(R.rounds[Math.max(0, roundOf(R.at) - (R.at === R.rounds[roundOf(R.at)] ? 1 : 0))]); return true;
    case " ":
      if (e.target.tagName === "BUTTON" || e.target.tagName === "A") return false;
      e.preventDefault();
      togglePlay();
      return true;
    default:
      return false;
  }
}

// ---------------------------------------------------------------- keys -------------------
document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (S.replay) { // a replay: moving along the game; nothing is sent
    if (R.frames.length && e.target.type !== "range") replayKeys(e);
    if (e.key !== "?" && e.key !== "Escape") return;
  }
  const key = e.key;
  if (key === "?") {
    toggleHelp();
    e.preventDefault();
    return;
  }
  if (key === "Escape" && (S.help || S.rulesOpen) && !S.choice) {
    if (S.help) toggleHelp();
    else toggleRules();
    return;
  }
  if (!S.state || S.room?.status === "lobby") return;
  const v = S.state.view;
  const L = legal();
  const c = S.choice;
  const lower = key.toLowerCase();
  if (key === "Escape") {
    if (c) cancelChoice();
    else if (S.help) toggleHelp();
    else if (S.rulesOpen) toggleRules();
    return;
  }
  // colour keys: the colours offered (R Y G B; UNO Flip!'s dark side P T O V)
  if (c && c.stage === "color" && lower.length === 1 && (c.colors || COLOR_KEYS).includes(key.toUpperCase())) {
    c.color = key.toUpperCase();
    advanceChoice();
    return;
  }
  if (!c && v.phase === "start_color" && v.current === v.seat && /^[a-z]$/.test(lower) && main.querySelector(`.cb-${key.toUpperCase()}`)) {
    main.querySelector(`.cb-${key.toUpperCase()}`).click();
    return;
  }
  if (/^[1-9]$/.test(key)) {
    const btns = main.querySelectorAll(".prompt .choice-row .btn");
    const b = btns[Number(key) - 1];
    if (c && b) b.click();
    return;
  }
  const find = (f) => L.find(f);
  switch (lower) {
    case "d": if (find((a) => a.draw)) send({ draw: true }); break;
    case "k": if (find((a) => a.keep)) send({ keep: true }); break;
    case "p": if (v.drawn && find((a) => a.play === v.drawn)) clickCard(v.drawn); break;
    case "u": pressUno(); break;
    case "a": if (find((a) => a.accept)) send({ accept: true }); break;
    case "c": {
      if (find((a) => a.challenge)) send({ challenge: true });
      else {
        const ca = find((a) => a.catch !== undefined);
        if (ca) send({ catch: ca.catch });
      }
      break;
    }
    case "n":
      if (v.phase === "round_over" && v.seat !== null) S.conn.send({ type: "next_round" });
      break;
    default:
      return;
  }
});

window.addEventListener("popstate", route);
route();
