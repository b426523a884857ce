// The browser table: home (create or join a room), the room's lobby, the table.
// A thin front end (STYLE.md 9): it turns clicks and keys into the actions the server
// listed in view.legal, and views and events into the page.  User text (names, chat)
// only ever goes in as text.
//
// This file is the controller: routing, the connection, messages into the store
// (store.js), and after each change one render (render/: pure functions from the state
// to vnodes) patched into the page (dom.js).  The replay viewer (replay.js) draws its
// table with the same render functions, and its controls with render/replaybar.js.

import { api, Connection, forgetSeat, tabSeat } from "./net.js";
import { errorText, onLanguageChange, t } from "./i18n.js";
import { el, h, patch } from "./dom.js";
import * as store from "./store.js";
import { S } from "./store.js";

// The rest of the page's modules load in steps, each asking for a few files whose own
// imports are in already (the render pieces, then the views built on them, then the
// replay viewer).  A browser opens a new connection for a file whenever its open ones
// are busy, up to six, and the server holds at most 64 HTTP connections per address
// (server/guard.py): with every module asked for at once, four players behind one
// router (or four browsers of a test) were refused files (429) and their page never
// started.  tests/js/load.test.mjs keeps each step to four files at most.
const [{ setSound, sound, soundOn }, { canArmUno, ic, isMyTurn, legalOf, soundOf }, , { cardName, HAND_SORTS, handOrder }] = await Promise.all([
  import("./sounds.js"), import("./render/parts.js"), import("./render/rules.js"), import("./cards.js"), // (cards.js: in already)
]);
const [, { nextRoundText }] = await Promise.all([import("./render/side.js"), import("./render/summary.js")]);
const [
  { summaryShown, tableView, timerText, turnText },
  { waitingView },
  { homeView, joinView, lobbyRulesForm, lobbySeatForm, rulesArrived, rulesRefused },
] = await Promise.all([import("./render/table.js"), import("./render/lobby.js"), import("./forms.js")]);
const [{ initReplay, R, replayAct, replayKeys, replayState, showReplay, stopPlaying }, { replayBar }, { leaderboardPage, profilePage }] = await Promise.all([
  import("./replay.js"), import("./render/replaybar.js"), import("./profile.js"),
]);

const main = document.getElementById("main");
const roombar = document.getElementById("roombar");
const netstatus = document.getElementById("netstatus");
const toastEl = document.getElementById("toast");
let toastTimer = null;
let conn = null; // the room's Connection (net.js)
let rulesForm = null; // the host's rules form in the lobby (forms.js), kept while typed in
let seatForm = null; // a watcher's form to take an open seat, kept likewise
let summaryWasShown = false;
let flipTimer = null;
let netStatus = ""; // the connection's last status, said again in a new language

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

// ---------------------------------------------------------------- routing ----------
function route() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]{1,12})\/?$/);
  stopPlaying();
  if (conn) conn.stop();
  conn = null;
  const prof = location.pathname.match(/^\/p\/([A-Za-z0-9]{1,20})\/?$/);
  if (m) openRoom(m[1].toUpperCase());
  else if (/^\/replay\/?$/.test(location.pathname)) showReplay();
  else if (prof) showProfile(prof[1].toUpperCase());
  else if (/^\/leaderboard\/?$/.test(location.pathname)) showLeaderboard();
  else showHome();
}

function takeAutostart(code) {
  try {
    const key = `unokit:autostart:${code}`;
    const on = sessionStorage.getItem(key) === "1";
    sessionStorage.removeItem(key);
    return on;
  } catch {
    return false;
  }
}

function go(path) {
  history.pushState(null, "", path);
  route();
}

// ---------------------------------------------------------------- home -------------
async function showHome() {
  store.resetRoom(null);
  document.title = t("page.title");
  roombar.replaceChildren();
  main.replaceChildren(el("p", { class: "panel loading", text: t("common.loading") }));
  try {
    if (!S.rules) store.setRules(await api("/api/rules"));
  } catch (e) {
    main.replaceChildren(el("p", { class: "panel", text: e.message }));
    return;
  }
  main.replaceChildren(homeView(S.rules, go));
  main.querySelector("#name")?.focus();
}

// ---------------------------------------------------------------- profiles ----------
function showProfile(pid) {
  store.resetRoom(null);
  roombar.replaceChildren();
  profilePage(main, pid, go);
}

function showLeaderboard() {
  store.resetRoom(null);
  roombar.replaceChildren();
  leaderboardPage(main, go);
}

// ---------------------------------------------------------------- a room ------------
function noRoom(code, message, status) {
  main.replaceChildren(el("section", { class: "panel" },
    el("h1", { text: status === "no_room" ? t("room.none", { code }) : t("room.cannotOpen") }),
    // (the server's message for a missing room says the title again: a way on instead)
    el("p", { text: status === "no_room" ? t("room.noneHelp") : message }),
    el("a", { class: "btn", href: "/", text: t("room.makeNew") })));
}

async function openRoom(code) {
  if (conn) conn.stop();
  conn = null;
  store.resetRoom(code);
  rulesForm = null;
  seatForm = null;
  document.title = t("page.titleRoom", { code });
  drawRoombar();
  // the rules first: the table and the log word each game by its descriptor (games)
  if (!S.rules) {
    main.replaceChildren(el("p", { class: "panel loading", text: t("common.loading") }));
    try {
      store.setRules(await api("/api/rules"));
    } catch {
      // drawn with the classic game's words; the Rules panel says it is loading
    }
    if (S.code !== code) return; // another page was opened meanwhile
  }
  const mine = tabSeat(code);
  if (mine && mine.token) {
    connect(mine.token);
    return;
  }
  main.replaceChildren(el("p", { class: "panel loading", text: t("room.looking") }));
  let room;
  try {
    room = await api(`/api/rooms/${code}`);
  } catch (e) {
    noRoom(code, e.message, e.code);
    return;
  }
  main.replaceChildren(joinView(room, connect));
  main.querySelector("#join-name")?.focus();
}

/** Into the room: with a seat's token, or watching (under ``watchName``, if any). */
function connect(token, watchName = null) {
  if (conn) conn.stop();
  main.replaceChildren(el("p", { class: "panel loading", text: t("common.connecting") }));
  store.setSeat(null, token || null);
  store.setWatchName(S.token ? null : watchName);
  store.setWatchers(null);
  conn = new Connection(S.code, S.token, { onMessage, onStatus, name: S.watchName });
  conn.open();
}

function onStatus(status) {
  netstatus.className = `netstatus ${status}`;
  netStatus = status;
  netstatus.textContent = status === "open" ? t("net.connected") : status === "reconnecting" ? t("net.reconnecting") : status === "connecting" ? t("net.connecting") : "";
  document.body.classList.toggle("offline", status === "reconnecting");
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      // a refused token comes as an error: a welcome without a seat only watches
      store.setSeat(msg.seat, msg.seat === null ? null : S.token);
      if (rulesForm) rulesForm.pending = null; // a connection that dropped took its answer along
      store.dropSwitches();
      return;
    case "room":
      store.setRoom(msg);
      rulesArrived(rulesForm, msg);
      render();
      // "Learn to play" made this room: its first game starts as soon as it is ours
      if (msg.status === "lobby" && msg.game === 0 && msg.you === msg.host && takeAutostart(msg.code)) act.msg({ type: "start" });
      return;
    case "state": {
      const { prev, events } = store.takeState(msg, Date.now());
      if (prev && prev.game === msg.game) playSound(events, prev, msg);
      render(prev);
      if (S.flipNote?.fresh) {
        store.flipShown();
        clearTimeout(flipTimer);
        flipTimer = setTimeout(() => { store.flipOver(Date.now()); render(); }, 3600);
      }
      return;
    }
    case "chat":
      store.addChat(msg);
      render();
      return;
    case "react": {
      // a quick reaction: beside the seat (or the spectator's name) for a moment, and logged
      const key = store.react(msg, msg.emote, Date.now());
      store.addChat(msg, msg.emote);
      render();
      setTimeout(() => { if (store.reactOver(key, Date.now())) render(); }, 4100);
      return;
    }
    case "watchers":
      store.setWatchers(msg);
      render();
      return;
    case "error":
      onError(msg);
      return;
    case "notice":
      // this seat is open in another tab or window too: either may play (session.py)
      if (msg.code === "seat_elsewhere") toast(t("room.elsewhere"), "info");
      return;
    default:
      return;
  }
}

function onError(msg) {
  if (msg.code === "stale_version") return; // the fresh state follows: just a redraw
  if (Object.keys(S.switches).length) {
    store.dropSwitches(); // a switch refused (too fast): it shows the room's value again
    render();
  }
  // a graceful restart is no error: the connection reconnects (net.js), the top bar
  // says "reconnecting…"
  if (msg.code === "restarting") return;
  if (msg.code === "bad_token" || msg.code === "kicked") {
    forgetSeat(S.code);
    store.setSeat(null, null);
    conn.stop();
    toast(msg.code === "kicked" ? t("room.kicked") : t("room.badToken"));
    openRoom(S.code);
    return;
  }
  if (msg.code === "name_taken" && S.seat === null && S.watchName) {
    store.setWatchName(null); // watching unnamed
    toast(errorText(msg.code, msg.message));
    render();
    return;
  }
  if (msg.code === "no_room") {
    conn.stop();
    noRoom(S.code, errorText(msg.code, msg.message), "no_room");
    return;
  }
  if (rulesForm?.pending) {
    // the host's rules were refused (bad_rules, not_host, room_started): said in the form
    rulesRefused(rulesForm, msg);
    return;
  }
  toast(errorText(msg.code, msg.message));
}

// one sound per state message (render/parts.js's soundOf chooses it, sounds.js makes it)
function playSound(events, prev, msg) {
  const name = soundOf(events, prev.view, msg.view, S.seat);
  if (name) sound(name);
}

// ---------------------------------------------------------------- the room bar ------
async function copyLink() {
  const link = `${location.origin}/r/${S.code}`;
  let ok = false;
  try {
    await navigator.clipboard.writeText(link);
    ok = true;
  } catch {
    const tmp = el("input", { value: link, "aria-hidden": "true", class: "offscreen" });
    document.body.append(tmp);
    tmp.select();
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    tmp.remove();
  }
  toast(ok ? t("top.copied") : t("top.copyThis", { link }), "info");
}

function drawRoombar() {
  patch(roombar, [
    h("span", { class: "roomcode", key: "roomcode" }, h("span", { class: "rc-word", text: t("top.room") }), h("b", { text: S.code })),
    // a phone shows a link's drawing alone (the top bar holds the language switch too)
    h("button", { class: "btn small", type: "button", id: "copy-link", key: "copy-link", "aria-label": t("top.copyLink"), onclick: copyLink },
      ic("link", "phone-only"), h("span", { class: "phone-hidden", "aria-hidden": "true", text: t("top.copyLink") })),
    S.room && S.room.status !== "lobby"
      ? h("button", { class: "btn small ghost", type: "button", id: "rules-btn", key: "rules-btn", "aria-expanded": String(!!S.rulesOpen), "aria-controls": "rules", onclick: act.toggleRules }, ic("rules"), h("span", { class: "phone-hidden", text: t("top.rules") }))
      : null,
    h("button", { class: "btn small ghost", type: "button", id: "sound-btn", key: "sound-btn", "aria-pressed": String(soundOn()), "aria-label": t("top.sounds"), title: soundOn() ? t("top.soundsOn") : t("top.soundsOff"),
      onclick: () => { setSound(!soundOn()); drawRoombar(); } },
      ic(soundOn() ? "sound" : "mute"), h("span", { class: "phone-hidden", text: soundOn() ? t("top.soundOn") : t("top.soundOff") })),
    h("button", { class: "btn small ghost", type: "button", id: "help-btn", key: "help-btn", "aria-expanded": String(S.help), "aria-controls": "help", text: t("top.keys"), onclick: act.toggleHelp }),
    S.room && S.room.status === "playing" && S.seat !== null && S.seat === S.room.host
      ? h("button", { class: "btn small ghost", type: "button", id: "end-btn", key: "end-btn", "aria-label": t("top.endGame"), onclick: () => {
          if (window.confirm(t("top.confirmEnd"))) act.msg({ type: "end" });
        } }, h("span", { class: "phone-only", "aria-hidden": "true", text: t("top.end") }), h("span", { class: "phone-hidden", "aria-hidden": "true", text: t("top.endGame") }))
      : null,
  ]);
}

// a panel just opened comes into view (on a phone the side column is below the table)
function showPanel(id) {
  document.getElementById(id)?.scrollIntoView({ block: "nearest" });
}

// ---------------------------------------------------------------- rendering --------
/** What the render functions read: a snapshot of the store and the clock. */
function context(prev) {
  return {
    st: S.state, prev: prev || null, room: store.roomShown(), rules: S.rules, seat: S.seat, code: S.code,
    replay: S.replay ? { view: R.view } : null,
    choice: S.choice, unoArmed: S.unoArmed, flipNote: S.flipNote, reacts: S.reacts, now: Date.now(),
    clockDeadline: S.clockDeadline, nextRoundAt: S.nextRoundAt, summaryHidden: S.summaryHidden,
    log: S.log, revealed: S.revealed, help: S.help, rulesOpen: S.rulesOpen, watchers: S.watchers,
    watchName: S.watchName, toolsOpen: S.toolsOpen, botLevels: S.botLevels, origin: location.origin,
    canShare: typeof navigator.share === "function", handSort: S.handSort, handOwn: S.handOwn, arrival: S.arrival, hints: S.hints, lastPlay: S.lastPlay,
  };
}

function render(prev) {
  if (!S.room) return;
  const active = document.activeElement;
  const focusKey = active?.dataset?.key;
  if (S.replay) {
    if (!S.state) return;
    withRowScroll(() => patch(main, [
      replayBar(replayState(), replayAct),
      h("div", { class: "replay-table", key: "replay-table" }, tableView(context(prev), act)),
    ]));
    afterTable(focusKey, active);
    return;
  }
  drawRoombar();
  if (S.room.status !== "lobby") rulesForm = null; // prefilled afresh back in the lobby
  if (S.room.status === "lobby") {
    const host = S.seat !== null && S.seat === S.room.host;
    if (host && S.rules) rulesForm = lobbyRulesForm(S.room, S.rules, rulesForm, (m) => act.msg(m));
    if (S.seat !== null) seatForm = null;
    else if (!seatForm) seatForm = lobbySeatForm(S.code, connect);
    patch(main, waitingView(context(), act, { rules: host ? rulesForm?.el : null, seat: seatForm }));
    // the forms are kept from one render to the next; if one moved, the focus goes back
    if (active && active !== document.activeElement && main.contains(active)) active.focus({ preventScroll: true });
  } else if (S.state) {
    withRowScroll(() => patch(main, tableView(context(prev), act)));
    // the state drawn: scripts driving the page (the browser tests) wait for this, not
    // for the websocket frame, which reaches them before or after the page redraws
    main.dataset.game = String(S.state.game);
    main.dataset.version = String(S.state.version);
    afterTable(focusKey, active);
  } else {
    patch(main, h("p", { class: "panel loading", text: t("common.dealing") }));
  }
}

// On a narrow screen the opponents' row scrolls sideways: keep whoever is to play in
// view (the row alone scrolls, never the page).
function withRowScroll(draw) {
  const oldRow = main.querySelector(".opponents-ring");
  const keep = oldRow ? oldRow.scrollLeft : 0;
  draw();
  const row = main.querySelector(".opponents-ring");
  if (!row) return;
  if (row !== oldRow) row.scrollLeft = keep;
  // a row that scrolls must be reachable by keyboard (axe's scrollable-region-focusable);
  // one that does not (a wide screen: display contents) is no tab stop
  if (row.scrollWidth > row.clientWidth) row.setAttribute("tabindex", "0");
  else row.removeAttribute("tabindex");
  const turn = row.querySelector(".opp.turn");
  if (!turn || row.scrollWidth <= row.clientWidth) return;
  // in the row's own coordinates (its lists are display: contents, boxless)
  const left = turn.getBoundingClientRect().left - row.getBoundingClientRect().left + row.scrollLeft;
  if (left < row.scrollLeft) row.scrollLeft = left - 4;
  else if (left + turn.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left + turn.offsetWidth - row.clientWidth + 4;
}

// after the table is patched: the log at its end, the screen reader told, the title,
// the focus back if its element went (a card played: the hand's first card)
function afterTable(focusKey, active) {
  const v = S.state.view;
  const log = main.querySelector("#log");
  if (log) log.scrollTop = log.scrollHeight;
  // said again only when it changed: a redraw for another reason (a panel opened) must
  // not speak over what the player just did (a card moved: "moved to place 3 of 7")
  const said = [...store.takeFresh().slice(-4), turnText(v, legalOf(S.state), S.room, S.rules)].join(" ");
  if (said !== tableSaid) announce((tableSaid = said));
  if (!S.replay) document.title = isMyTurn(v) ? t("page.titleYourTurn", { code: S.code }) : t("page.titleRoom", { code: S.code });
  const summary = summaryShown(context());
  const opened = summary && !summaryWasShown;
  if (opened) hideToast(); // the dialog comes first
  summaryWasShown = summary;
  // the round's summary takes the focus, on its first button (Next round, Play
  // again): Tab no longer goes through the whole side column to reach it, and it is
  // scrolled into view (issue 49's trial); not while the player types in the chat
  if (opened && !(document.activeElement instanceof HTMLInputElement)) {
    const first = main.querySelector("#summary .btn.primary") || main.querySelector("#summary .btn");
    if (first) {
      first.focus({ preventScroll: true });
      main.querySelector("#summary")?.scrollIntoView({ block: "nearest" });
      return;
    }
  }
  if (focusKey && (!active || !main.contains(active) || active !== document.activeElement)) {
    const el2 = main.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) || (focusKey.startsWith("card:") ? main.querySelector(".hand .card") : null);
    if (el2) el2.focus({ preventScroll: true });
  }
}

// the clocks count down between messages: only their text changes
setInterval(() => {
  const now = Date.now();
  const t = document.querySelector("#turn-timer .tt-left");
  if (t) t.textContent = timerText(S.clockDeadline, now);
  const nr = document.getElementById("next-round-in");
  if (nr) nr.textContent = nextRoundText(S.nextRoundAt, now);
}, 250);

// one live region that stays in the page (a redrawn one is not reliably read out)
let announced = "";
let tableSaid = ""; // the table's last news and turn, as afterTable said them
function announce(text) {
  if (text === announced) return;
  announced = text;
  document.getElementById("announce").textContent = text;
}

// ---------------------------------------------------------------- what the user does ---
/** The render functions' callbacks: every action sent is one of view.legal. */
const act = {
  send(action) {
    if (!S.state || !conn) return;
    conn.send({ type: "act", version: S.state.version, action });
    store.setChoice(null);
    store.setUnoArmed(false);
    // the question answered goes at once: it stayed up until the server's answer came,
    // a colour could be clicked twice, and a test took it for a new question (CI)
    render();
  },
  msg(m) {
    const sent = conn ? conn.send(m) : false;
    if (sent && store.SWITCHES.has(m.type)) store.flipSwitch(m.type, m.on);
    return sent;
  },
  clickCard,
  pressUno,
  cancelChoice() {
    store.setChoice(null);
    render();
  },
  pickSeq(sq) {
    choiceStep(store.answerChoice("seq", sq));
  },
  pickColor(k) {
    choiceStep(store.answerChoice("color", k));
  },
  pickTarget(t) {
    choiceStep(store.answerChoice("target", t));
  },
  startColor(k) {
    const colorActs = legalOf(S.state).filter((a) => a.color && !a.play);
    const targets = [...new Set(colorActs.map((a) => a.target).filter((t) => t !== undefined))];
    const opts = colorActs.filter((a) => a.color === k);
    if (targets.length > 1) {
      store.setChoice({ card: S.state.view.top, options: opts, stage: "target", color: k, startColor: true, targets });
      render();
      return;
    }
    act.send(opts[0]);
  },
  handKeys,
  toggleHelp,
  toggleRules,
  showSummary() {
    store.toggle("summaryHidden", false);
    render();
  },
  hideSummary() {
    store.toggle("summaryHidden", true);
    render();
  },
  hideReveal() {
    store.hideReveal();
    render();
  },
  setToolsOpen(open) {
    store.toggle("toolsOpen", open);
  },
  kickToBot(s, name) {
    if (window.confirm(t("host.toBotConfirm", { name }))) act.msg({ type: "kick", seat: s });
  },
  chat(e) {
    e.preventDefault();
    const input = e.currentTarget.querySelector("input");
    const text = input.value.trim();
    if (text) act.msg({ type: "chat", text });
    input.value = "";
    // back to the table: its keys (N, D, K...) must not go on typing chat text
    input.blur();
    main.focus({ preventScroll: true });
  },
  setBotLevel(seat, level) {
    store.setBotLevel(seat, level);
    render();
  },
  setHints(on) {
    store.setHints(on);
    render();
  },
  toggleSort() {
    // my own order goes back to the way chosen before; else on to the next way
    store.setHandSort(S.handOwn ? S.handSort : HAND_SORTS[(HAND_SORTS.indexOf(S.handSort) + 1) % HAND_SORTS.length]);
    render();
  },
  // a card dragged to another place in the hand (HTML drag and drop: mouse and pen; a
  // phone's finger and the keyboard move it with Shift+Left/Right, handKeys).  The drag
  // carries the card ("card:CODE:N", its key), not its place: the hand may change under
  // it; a drop of anything else (a file) is not taken (found by review).
  dragCard(e, key) {
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData(CARD_DRAG, key);
  },
  dragOver(e) {
    if (![...e.dataTransfer.types].includes(CARD_DRAG)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "move";
  },
  dropCard(e, pos) {
    const key = e.dataTransfer.getData(CARD_DRAG);
    if (!key) return;
    e.preventDefault();
    const from = shownHand().findIndex((_, i, all) => cardKey(all, i) === key);
    if (from >= 0) moveShown(from, pos, false);
  },
  share(link) {
    // the phone's share sheet; a person who closes it has chosen, nothing to say
    navigator.share({ title: t("page.titleRoom", { code: S.code }), url: link }).catch(() => {});
  },
};

function toggleHelp() {
  store.toggle("help");
  render();
  if (S.help) showPanel("help");
}

function toggleRules() {
  store.toggle("rulesOpen");
  render();
  if (S.rulesOpen) showPanel("rules");
}

const CARD_DRAG = "application/x-unokit-card"; // what a dragged card carries (dragCard)

/** My hand's cards (codes) in the order they are shown (as table.js draws them). */
function shownHand() {
  const hand = S.state?.view?.hand || [];
  return handOrder(hand, S.handSort, S.handOwn, S.arrival).map((i) => hand[i]);
}

/** The key table.js gives the card shown at ``i`` of ``shown``: "card:CODE:N", its Nth. */
function cardKey(shown, i) {
  return `card:${shown[i]}:${shown.slice(0, i + 1).filter((c) => c === shown[i]).length}`;
}

/** Move the card shown at ``from`` to ``to``, say where it went, keep the focus on it. */
function moveShown(from, to, focus) {
  if (!store.moveCard(shownHand(), from, to)) return;
  const shown = S.handOwn;
  render();
  announce(t("me.moved", { card: cardName(shown[to]), n: to + 1, of: shown.length }));
  if (focus) main.querySelectorAll(".hand .card")[to]?.focus();
}

function handKeys(e) {
  const cards = [...main.querySelectorAll(".hand .card")];
  const i = cards.indexOf(e.currentTarget);
  if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight") && !S.replay) {
    e.preventDefault();
    moveShown(i, i + (e.key === "ArrowLeft" ? -1 : 1), true);
    return;
  }
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
  const unoCall = legalOf(S.state).find((a) => a.uno === true && !a.play && !a.cards);
  if (unoCall) {
    act.send({ uno: true });
    return;
  }
  if (canArmUno(S.state.view)) {
    store.setUnoArmed(!S.unoArmed);
    render();
    if (S.unoArmed) toast(t("me.unoArmedToast"), "info");
  }
}

// ---- putting a play together: which cards, colour, target, UNO (store.pickCard) -------
function clickCard(code, index) {
  choiceStep(store.pickCard(code, index));
}

// the choice's next question (rendered, the focus on its first button), its action
// sent, or why the card cannot be played
function choiceStep(next) {
  if (next.why) {
    toast(next.why, "info");
    return;
  }
  if (next.action) {
    act.send(next.action);
    return;
  }
  render();
  if (next.choice.stage === "color") main.querySelector(".color-pick .btn")?.focus();
  if (next.choice.stage === "target") main.querySelector(".target-pick .btn")?.focus();
}

// ---------------------------------------------------------------- keys -------------------
document.addEventListener("keydown", (e) => {
  const t = e.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) {
    if (e.key === "Escape" && t.id === "chat-input") { // Esc leaves the chat for the table
      t.blur();
      main.focus({ preventScroll: true });
    }
    return;
  }
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
  const L = legalOf(S.state);
  const c = S.choice;
  const lower = key.toLowerCase();
  if (key === "Escape") {
    if (c) act.cancelChoice();
    else if (S.help) toggleHelp();
    else if (S.rulesOpen) toggleRules();
    return;
  }
  // colour keys: the colours offered (R Y G B; UNO Flip!'s dark side P T O V)
  if (c && c.stage === "color" && lower.length === 1 && c.colors.includes(key.toUpperCase())) {
    act.pickColor(key.toUpperCase());
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
    case "d": if (find((a) => a.draw)) act.send({ draw: true }); break;
    case "k": if (find((a) => a.keep)) act.send({ keep: true }); break;
    case "p": if (v.drawn && find((a) => a.play === v.drawn)) clickCard(v.drawn); break;
    case "u": pressUno(); break;
    case "a": if (find((a) => a.accept)) act.send({ accept: true }); break;
    case "c": {
      if (find((a) => a.challenge)) act.send({ challenge: true });
      else {
        const ca = find((a) => a.catch !== undefined);
        if (ca) act.send({ catch: ca.catch });
      }
      break;
    }
    case "n":
      if (v.phase === "round_over" && v.seat !== null) act.msg({ type: "next_round" });
      break;
    default:
      return;
  }
});

// ---------------------------------------------------------------- languages -------------
// The switch in the top bar (i18n.js) changed the language: the page says everything
// again in the new one.  The log and the reactions are rebuilt from what they were made
// of; the forms the controller keeps are built afresh (the home page keeps the name and
// the code typed); the focus stays on the switch.
onLanguageChange(() => {
  const active = document.activeElement;
  store.retranslate();
  if (netStatus) onStatus(netStatus);
  if (S.replay) {
    if (R.frames.length) {
      roombar.replaceChildren(el("span", { class: "roomcode", text: t("top.replay") }));
      document.title = R.source?.room ? t("page.titleReplayRoom", { room: R.source.room }) : t("page.titleReplay");
      render();
    } else route();
  } else if (!S.code) {
    const typed = ["name", "join-code"].map((id) => [id, document.getElementById(id)?.value]);
    showHome().then(() => {
      for (const [id, value] of typed) {
        const input = document.getElementById(id);
        if (input && value !== undefined) input.value = value;
      }
      if (active?.id === "lang") active.focus();
    });
    return;
  } else if (!S.room) {
    if (!conn) openRoom(S.code); // the join page, or no room
  } else {
    rulesForm = null;
    seatForm = null;
    if (S.room.status === "lobby") document.title = t("page.titleRoom", { code: S.code });
    render();
  }
  if (active && document.activeElement !== active && document.contains(active)) active.focus({ preventScroll: true });
});

initReplay({ main, roombar, render });
window.addEventListener("popstate", route);
route();
