// The forms that hold what is typed in them: the home page's (a new room, a code to
// join), a room's join page, a watcher taking an open seat, the host's rules for the
// next game.  Unlike render/, these build DOM (with dom.js's el) and wire their own
// inputs: a form is built once and kept while the user types, and the render functions
// place it as it is.

import { el } from "./dom.js";
import { api, apiWithProfile, saveName, saveSeat, savedName, savedSeat } from "./net.js";
import { profilePanel } from "./profile.js";
import { setHints } from "./store.js";
import { gameDescriptor } from "./render/game.js";
import { choiceText, optionHelp, optionLabel, presetDescription, presetName, rulesLine } from "./render/rules.js";
import { errorText, language, LANGUAGES, t, tn, tNodes, tOr } from "./i18n.js";

/**
 * The rules a room is dealt by, as form controls: a preset (with its description), the
 * house rules of the game it plays (in a closed "House rules"), and the turn timer.  The
 * home page's create form and the host's form in the lobby both use it; ``prefix`` keeps
 * their ids apart, and ``preset``, ``options`` and ``timer`` prefill it (a room's current
 * rules).  ``value()`` is what ``POST /api/rooms`` and the ``rules`` message take: the
 * preset, the options that differ from it, and the timer.
 *
 * Which options a game plays is the server's word (its descriptor's ``options``, in
 * /api/rules ``games``): the form holds only those, so nothing ticked is ever left out
 * of what is sent; a game that does not play an option is never offered it (a Flip room
 * had "seven zero" on offer, then dropped, issue 47).
 */
export function rulesControls(rules, { prefix = "", preset = null, options = {}, timer = 0, onPreset = null } = {}) {
  const id = (name) => prefix + name;
  const presetSel = el("select", { id: id("preset"), name: "preset" },
    rules.presets.map((p) => el("option", { value: p.name, text: presetName(p.name) })));
  if (preset && rules.presets.some((p) => p.name === preset)) presetSel.value = preset;
  const presetHelp = el("p", { class: "hint", id: id("preset-help") });
  const optBox = el("div", { class: "options", id: id("options") });
  const controls = {};
  const rows = {};
  for (const o of rules.options) {
    if (o.name === "launcher_weights") continue;
    let input;
    const oid = id(`opt-${o.name}`);
    if (typeof o.default === "boolean") {
      input = el("input", { type: "checkbox", id: oid, name: o.name });
    } else if (o.choices) {
      input = el("select", { id: oid, name: o.name }, o.choices.map((c) => el("option", { value: c, text: choiceText(o.name, c) })));
    } else {
      input = el("input", { type: "number", id: oid, name: o.name, min: 0, max: 1000000, inputmode: "numeric" });
    }
    controls[o.name] = input;
    const label = el("label", { for: oid }, el("b", { text: optionLabel(o.name) }), el("span", { class: "hint", text: " " + optionHelp(o) }));
    rows[o.name] = typeof o.default === "boolean" ? el("div", { class: "opt check" }, input, label) : el("div", { class: "opt" }, label, input);
  }
  const presetOf = () => rules.presets.find((x) => x.name === presetSel.value);
  // the options of the game the preset plays, in the order the server lists them
  const played = () => {
    const game = gameDescriptor(rules, presetOf()?.game);
    return rules.options.map((o) => o.name).filter((k) => k in controls && game.options.includes(k));
  };
  const presetValues = () => {
    const vals = {};
    for (const o of rules.options) vals[o.name] = o.default;
    Object.assign(vals, presetOf()?.options || {});
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
  // options the form does not show (launcher_weights) are kept as they were, while the
  // preset is the one they came with (another preset starts from its own options)
  let kept = Object.fromEntries(Object.entries(options).filter(([k]) => !(k in controls)));
  const applyPreset = () => {
    const p = presetOf();
    presetHelp.textContent = p ? presetDescription(p) : "";
    show(presetValues());
    optBox.replaceChildren(...played().map((k) => rows[k]));
    // the ways of scoring the game plays (its descriptor's scorings): no other is offered
    const scorings = gameDescriptor(rules, p?.game).scorings;
    for (const o of controls.scoring?.options || []) o.hidden = o.disabled = !!scorings && !scorings.includes(o.value);
    onPreset?.(p);
  };
  presetSel.addEventListener("change", () => {
    kept = {};
    applyPreset();
  });
  applyPreset();
  show({ ...presetValues(), ...options });
  const timerSel = el("select", { id: id("timer"), name: "timer" },
    rules.timers.map((sec) => el("option", { value: sec, text: sec ? t("rules.timerOption", { n: sec }) : t("common.off") })));
  if (rules.timers.includes(timer)) timerSel.value = String(timer);
  return {
    preset: el("div", { class: "field" }, el("label", { for: id("preset"), text: t("rules.preset") }), presetSel, presetHelp),
    house: el("details", { class: "house" }, el("summary", { text: t("rules.house") }), optBox),
    timer: el("div", { class: "field" }, el("label", { for: id("timer"), text: t("rules.timer") }), timerSel),
    value() {
      const vals = presetValues();
      const chosen = { ...kept };
      for (const k of played()) {
        const input = controls[k];
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

/** The home page: your name, a new room's rules and seats, or a code to join.
 * ``go(path)`` goes to a page of the app (a room made, a room to join). */
export function homeView(rules, go) {
  const nameInput = el("input", {
    id: "name", name: "name", maxlength: 20, required: true, autocomplete: "nickname",
    placeholder: t("home.namePlaceholder"), value: savedName(),
  });
  const seatsSel = el("select", { id: "seats", name: "seats" },
    [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => el("option", { value: n, text: tn("home.playerCount", n), selected: n === 3 })));
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
  const seatBox = el("div", { class: "seat-choices" });
  const seatChoice = [null, "normal"]; // default: a friend and a bot
  const drawSeats = () => {
    const n = Number(seatsSel.value);
    while (seatChoice.length < n - 1) seatChoice.push("normal");
    seatBox.replaceChildren();
    for (let i = 1; i < n; i++) {
      const sel = el("select", { id: `seat-${i}`, "aria-label": t("common.seat", { n: i + 1 }) },
        el("option", { value: "", text: t("home.seatOpen") }),
        rules.levels.map((l) => el("option", { value: l, text: t("home.seatBot", { level: tOr(`levels.${l}`, l) }) })));
      sel.value = seatChoice[i - 1] || "";
      sel.addEventListener("change", () => (seatChoice[i - 1] = sel.value || null));
      seatBox.append(el("div", { class: "seat-choice" }, el("label", { for: `seat-${i}`, text: t("common.seat", { n: i + 1 }) }), sel));
    }
  };
  seatsSel.addEventListener("change", drawSeats);
  drawSeats();
  const err = el("p", { class: "form-error", role: "alert" });
  const publicBox = el("input", { type: "checkbox", id: "public", name: "public" });
  const nameOrFocus = () => {
    const name = nameInput.value.trim();
    if (!name) nameInput.focus();
    return name;
  };

  const create = el("form", { class: "panel create", "aria-labelledby": "create-h" },
    el("h2", { id: "create-h", text: t("home.newRoom") }),
    ruleControls.preset,
    ruleControls.house,
    el("div", { class: "field" }, el("label", { for: "seats", text: t("home.players") }), seatsSel),
    seatBox,
    ruleControls.timer,
    el("div", { class: "opt check" }, publicBox, el("label", { for: "public", text: t("home.public") })),
    err,
    el("button", { class: "btn primary big", type: "submit", id: "create-btn", text: t("home.create") }));
  create.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const name = nameInput.value.trim();
    if (!name) {
      err.textContent = t("home.nameFirst");
      nameInput.focus();
      return;
    }
    const n = Number(seatsSel.value);
    try {
      saveName(name);
      const res = await apiWithProfile("/api/rooms", {
        name, ...ruleControls.value(), seats: n, bots: seatChoice.slice(0, n - 1),
        public: publicBox.checked, lang: language(),
      });
      saveSeat(res.code, { token: res.token, seat: res.seat, name });
      go(res.link);
    } catch (ex) {
      err.textContent = ex.message;
    }
  });

  const codeInput = el("input", {
    id: "join-code", name: "code", maxlength: 6, autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", placeholder: "ABC234", class: "code-input",
  });
  const joinErr = el("p", { class: "form-error", role: "alert" });
  const join = el("form", { class: "panel join", "aria-labelledby": "join-h" },
    el("h2", { id: "join-h", text: t("home.join") }),
    el("p", { class: "hint", text: t("home.joinHint") }),
    el("div", { class: "field" }, el("label", { for: "join-code", text: t("home.roomCode") }), codeInput),
    joinErr,
    el("button", { class: "btn big", type: "submit", text: t("home.go") }));
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const code = codeInput.value.trim().toUpperCase();
    if (!/^[A-Z0-9]{6}$/.test(code)) {
      joinErr.textContent = t("home.badCode");
      return;
    }
    if (nameInput.value.trim()) saveName(nameInput.value.trim());
    go(`/r/${code}`);
  });

  // Quick play: a seat among strangers in an open public room of this game, or a new
  // public room of it (issue 49 item 3)
  const quickSel = el("select", { id: "quick-preset", name: "quick-preset", "aria-label": t("home.quickGame") },
    rules.presets.map((p) => el("option", { value: p.name, text: presetName(p.name) })));
  const quickErr = el("p", { class: "form-error", role: "alert" });
  const quick = el("form", { class: "quick", id: "quick-form" },
    el("div", { class: "field" }, el("label", { for: "quick-preset", text: t("home.quickGame") }), quickSel),
    el("button", { class: "btn primary big", type: "submit", id: "quick-btn", text: t("home.quickBtn") }),
    el("button", { class: "btn big", type: "button", id: "learn-btn", text: t("home.learn"), onclick: () => learn() }),
    el("p", { class: "hint", text: t("home.quickHint") }),
    el("p", { class: "hint", text: t("home.learnHint") }),
    quickErr);
  // a seat for the name typed above, from ``path`` (Quick play, Learn to play): saved
  // for this tab, then the room; ``then(res)`` before going there
  const seatFrom = async (path, body, then = () => {}) => {
    quickErr.textContent = "";
    const name = nameOrFocus();
    if (!name) {
      quickErr.textContent = t("home.nameFirst");
      return;
    }
    try {
      saveName(name);
      const res = await apiWithProfile(path, { name, ...body, lang: language() });
      saveSeat(res.code, { token: res.token, seat: res.seat, name });
      then(res);
      go(res.link);
    } catch (ex) {
      quickErr.textContent = ex.message;
    }
  };
  // "Learn to play": a round against two easy bots, hints on, started at once
  const learn = () => seatFrom("/api/rooms", { preset: "classic", seats: 3, bots: ["easy", "easy"] }, (res) => {
    setHints(true);
    try {
      sessionStorage.setItem(`unokit:autostart:${res.code}`, "1");
    } catch {
      /* no autostart: the host presses Start */
    }
  });
  quick.addEventListener("submit", (e) => {
    e.preventDefault();
    seatFrom("/api/quickplay", { preset: quickSel.value });
  });
  const list = publicRoomsPanel(go, () => nameInput.value.trim());

  return el("div", { class: "home" },
    el("section", { class: "panel intro" },
      el("h1", { text: t("home.title") }),
      el("p", {}, ...tNodes("home.intro", { link: el("a", { href: "/replay", id: "replay-home", text: t("home.introLink") }) })),
      el("div", { class: "field" }, el("label", { for: "name", text: t("home.yourName") }), nameInput),
      quick),
    list,
    el("div", { class: "home-forms" }, create,
      el("div", { class: "home-side" }, join, profilePanel(go, () => nameInput.value.trim()))));
}

/** The open public rooms (``GET /api/public``), each with a Join button that opens the
 * room's page to take a seat; loaded when the home page is drawn and on Refresh. */
export function publicRoomsPanel(go, nameNow) {
  const body = el("div", { class: "public-body", "aria-live": "polite" }, el("p", { class: "hint", text: t("common.loading") }));
  const refresh = el("button", { class: "btn small", type: "button", id: "public-refresh", text: t("home.publicRefresh") });
  const load = async () => {
    let rooms;
    try {
      rooms = (await api("/api/public")).rooms;
    } catch (ex) {
      body.replaceChildren(el("p", { class: "form-error", text: t("home.publicFailed", { reason: ex.message }) }));
      return;
    }
    body.replaceChildren(publicRoomsList(rooms, go, nameNow));
  };
  refresh.addEventListener("click", load);
  load();
  return el("section", { class: "panel public-rooms", id: "public-rooms", "aria-labelledby": "public-h" },
    el("div", { class: "public-head" }, el("h2", { id: "public-h", text: t("home.publicTitle") }), refresh),
    body);
}

export function publicRoomsList(rooms, go, nameNow) {
  if (!rooms.length) return el("p", { class: "hint", id: "public-none", text: t("home.publicNone") });
  return el("ul", { class: "public-list" }, rooms.map((r) => el("li", { class: "public-room", dataset: { code: r.code } },
    el("b", { class: "public-what", text: rulesLine({ rules: { preset: r.preset, options: r.options }, timer: r.timer }) }),
    el("div", { class: "public-who" },
      el("span", { text: t("home.publicWho", { host: r.host || "?", names: r.people.join(", ") }) }),
      el("span", { class: "badge", text: tn("home.publicFree", r.free, { total: r.seats }) }),
      el("span", { class: "badge lang", lang: r.lang, text: LANGUAGES[r.lang]?.name || r.lang })),
    el("button", {
      class: "btn", type: "button", text: t("home.publicJoin"), "aria-label": t("home.publicJoinLabel", { code: r.code, host: r.host || "?" }),
      onclick: () => {
        const name = nameNow();
        if (name) saveName(name);
        go(`/r/${r.code}`);
      },
    }))));
}

/** A room seen from outside: take a seat, continue as before, or just watch.
 * ``enter(token, name)``: connect with a seat's token (null: watch, under ``name``). */
export function joinView(room, enter) {
  const open = room.status === "lobby" && room.seats.some((s) => s === null);
  const nameInput = el("input", { id: "join-name", maxlength: 20, required: true, value: savedName(), autocomplete: "nickname" });
  const err = el("p", { class: "form-error", role: "alert" });
  const form = el("form", { class: "join-form" },
    el("div", { class: "field" }, el("label", { for: "join-name", text: t("home.yourName") }), nameInput),
    err,
    el("button", { class: "btn primary big", type: "submit", id: "join-btn", text: t("join.takeSeat") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const name = nameInput.value.trim();
    if (!name) return;
    try {
      saveName(name);
      const res = await apiWithProfile(`/api/rooms/${room.code}/join`, { name });
      saveSeat(res.code, { token: res.token, seat: res.seat, name });
      enter(res.token);
    } catch (ex) {
      err.textContent = ex.message;
    }
  });
  // a spectator watches under the name typed above, if any (the spectator list, chat)
  const watch = el("button", { class: "btn", type: "button", id: "watch-btn", text: t("join.watch"), onclick: () => {
    const name = nameInput.value.trim();
    if (name) saveName(name);
    enter(null, name || null);
  } });
  const who = room.seats.filter(Boolean).map((s) => s.name);
  const saved = savedSeat(room.code);
  const resume = saved && saved.token
    ? el("div", { class: "resume" },
        el("button", { class: "btn primary big", type: "button", id: "resume-btn", text: t("join.continueAs", { name: saved.name }), onclick: () => {
          saveSeat(room.code, saved);
          enter(saved.token);
        } }),
        el("p", { class: "hint", text: open
          ? t("join.resumeOpen")
          : t("join.resumeFull") }))
    : null;
  return el("section", { class: "panel joinroom" },
    el("h1", { text: t("room.title", { code: room.code }) }),
    resume,
    el("p", { text: who.length ? t("join.atTable", { names: who.join(", ") }) : t("join.empty") }),
    el("p", { class: "hint", id: "join-rules", text: `${rulesLine(room)} ${tn("join.seats", room.seats.length)}` }),
    open ? form : el("p", { text: room.status === "lobby" ? t("join.full") : t("join.started") }),
    // watching: the name typed is shown in the spectator list, and chats and reacts
    open ? null : el("div", { class: "field" }, el("label", { for: "watch-name", text: t("join.watchName") }),
      el("input", { id: "watch-name", maxlength: 20, value: savedName(), autocomplete: "nickname", oninput: (e) => (nameInput.value = e.target.value) })),
    watch);
}

// A watcher in the lobby (back from a finished game, say) may take an open seat.
export function lobbySeatForm(code, enter) {
  const input = el("input", { id: "lobby-name", maxlength: 20, required: true, value: savedName(), autocomplete: "nickname" });
  const err = el("p", { class: "form-error", role: "alert" });
  const form = el("form", { class: "join-form", id: "lobby-join" },
    el("div", { class: "field" }, el("label", { for: "lobby-name", text: t("lobby.seatOpenName") }), input),
    err,
    el("button", { class: "btn primary", type: "submit", id: "lobby-join-btn", text: t("join.takeSeat") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    try {
      saveName(name);
      const res = await apiWithProfile(`/api/rooms/${code}/join`, { name });
      saveSeat(res.code, { token: res.token, seat: res.seat, name });
      enter(res.token);
    } catch (ex) {
      err.textContent = ex.message;
    }
  });
  return form;
}

// The host's form for the next game's rules (issue 36 item 10), the create form's
// controls prefilled with the room's rules.  The controller keeps it and
// reuses it for each render until the room's rules change, so a room message (someone joins) does not
// undo what the host is typing.
export function rulesKey(rules, timer) {
  const opts = Object.keys(rules.options || {}).sort().map((k) => [k, rules.options[k]]);
  return JSON.stringify([rules.preset, opts, timer]);
}

export function lobbyRulesForm(room, rules, old, send) {
  const key = rulesKey(room.rules, room.timer);
  if (old && old.key === key) return old;
  const c = rulesControls(rules, { prefix: "lobby-", preset: room.rules.preset, options: room.rules.options || {}, timer: room.timer });
  if (old?.house.open) c.house.open = true;
  const err = el("p", { class: "form-error", id: "lobby-rules-error", role: "alert" });
  const note = el("p", { class: "hint", id: "lobby-rules-note", role: "status",
    text: old?.pending ? t("lobby.rulesSaved") : "" });
  const save = el("button", { class: "btn", type: "submit", id: "rules-save", text: t("lobby.rulesSave") });
  const formEl = el("form", { class: "lobby-rules", id: "lobby-rules-form", "aria-labelledby": "lobby-rules-h" },
    el("h2", { id: "lobby-rules-h", text: t("lobby.rulesTitle") }),
    el("div", { class: "lobby-rules-fields" }, c.preset, c.timer),
    c.house, err, note, save);
  const form = { key, el: formEl, house: c.house, err, note, pending: null };
  formEl.addEventListener("change", () => {
    err.textContent = "";
    note.textContent = t("lobby.rulesChanged");
  });
  formEl.addEventListener("submit", (e) => {
    e.preventDefault();
    err.textContent = "";
    note.textContent = "";
    const value = c.value();
    if (send({ type: "rules", ...value })) form.pending = value;
    else err.textContent = t("lobby.notConnected");
  });
  return form;
}

// the room came: if it carries the rules the host just sent, they were saved (a change
// comes back as a new key, and the form is built afresh from it, saying so)
export function rulesArrived(f, room) {
  if (!f?.pending || room.status !== "lobby") return;
  if (rulesKey(room.rules, room.timer) === rulesKey(f.pending, f.pending.timer) && f.key === rulesKey(room.rules, room.timer)) {
    f.pending = null;
    f.note.textContent = t("lobby.rulesSaved");
  }
}

export function rulesRefused(f, msg) {
  f.pending = null;
  f.note.textContent = "";
  f.err.textContent = t("lobby.rulesRefused", { reason: errorText(msg.code, msg.message) }).replace(/\.\.$/, ".");
}

