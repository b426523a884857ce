// The page's state, and the only functions that change it.  The controller (app.js)
// calls these as messages come and the user acts, then renders from S; the render
// functions read a snapshot of it and never write.

import { describe } from "./log.js";
import { gameDescriptor } from "./render/game.js";
import { t } from "./i18n.js";
import { advanceChoice, canArmUno, cannotPlay, keepChoice, startChoice } from "./choice.js";

const HAND_SORTS = ["color", "number", "arrival"]; // cards.js's handOrder knows each

const ROOM = () => ({
  code: null,
  seat: null, // my seat, null when watching
  token: null,
  room: null,
  state: null, // the last state message
  game: null,
  log: [], // {n, text, cls, src (what the text is made from, to say it again in another language)}
  seenSeq: -1,
  prevKind: null, // the last event's kind, for the log's wording
  choice: null, // a play being put together: {stage, options, ...}
  unoArmed: false,
  lastPlay: null, // {seat, card}: the last card played, and by whom
  handOwn: null, // my hand as I arranged it (codes, by drag or keys), this round only
  arrival: null, // my hand in the order its cards came (codes), this round only
  revealed: null, // {seat, cards}: a challenged hand shown to me
  summaryHidden: false,
  flipNote: null, // {side, until, fresh}: a flip announced over the piles
  reacts: {}, // seat (or "w:" + a spectator's name) -> {text, until}
  watchers: null,
  watchName: null,
  clockDeadline: null,
  nextRoundAt: null,
  fresh: [], // new log lines a screen reader is yet to hear
  botLevels: {}, // the lobby's bot level per open seat, as the host picked it
  switches: {}, // a room switch just flipped here (its room field -> the value sent)
  replay: false,
});

export const S = {
  ...ROOM(),
  handSort: savedHandSort(), // how my hand is sorted (issue 49): kept in this browser
  hints: savedFlag("unokit:hints"), // a first game's hints (issue 49 item 5), remembered
  help: false,
  rulesOpen: false,
  toolsOpen: false,
  rules: null, // /api/rules, kept across rooms
};

let logCount = 0;

function savedHandSort() {
  try {
    const by = globalThis.localStorage?.getItem("unokit:handSort");
    return HAND_SORTS.includes(by) ? by : "color";
  } catch {
    return "color";
  }
}

function savedFlag(key) {
  try {
    return globalThis.localStorage?.getItem(key) === "on";
  } catch {
    return false;
  }
}

/** Hints on or off, remembered in this browser. */
export function setHints(on) {
  S.hints = !!on;
  try {
    globalThis.localStorage?.setItem("unokit:hints", S.hints ? "on" : "off");
  } catch {
    /* private mode: this page only */
  }
}

/** Sort my hand by colour, by number or as the cards came, and remember it in this browser; an
 * order of my own goes. */
export function setHandSort(by) {
  S.handSort = HAND_SORTS.includes(by) ? by : "color";
  S.handOwn = null;
  try {
    globalThis.localStorage?.setItem("unokit:handSort", S.handSort);
  } catch {
    /* private mode: this page only */
  }
}

/** ``hand`` in the order its cards came: those of ``before`` still held keep their
 * places, new ones go last (the server sends a hand sorted, not in the deal's order). */
function arrived(before, hand) {
  const left = [...hand];
  const kept = [];
  for (const code of before) {
    const at = left.indexOf(code);
    if (at >= 0) kept.push(...left.splice(at, 1));
  }
  return kept.concat(left);
}

/** Move the card at ``from`` of my hand as ``shown`` (codes) to ``to``, by drag or by
 * keys: the hand keeps this order of mine until the round ends or I sort it again.
 * False if nothing moved. */
export function moveCard(shown, from, to) {
  if (from < 0 || from >= shown.length || to < 0 || to >= shown.length || from === to) return false;
  const own = [...shown];
  own.splice(to, 0, ...own.splice(from, 1));
  S.handOwn = own;
  return true;
}

/** A fresh room (or the replay viewer): what belonged to the last one goes. */
export function resetRoom(code, extra = {}) {
  Object.assign(S, ROOM(), { code }, extra);
}

export function setRules(rules) {
  S.rules = rules;
}

export function setRoom(msg) {
  S.room = msg;
  if (msg.you !== undefined) S.seat = msg.you;
  for (const [field, on] of Object.entries(S.switches)) if (switchValue(msg, field) === on) delete S.switches[field];
}

// A switch the room keeps (public, spectators' chat) shows what was just chosen here
// until the room says it back: a redraw in between must not flip it back and forth.
// A refusal or a new connection drops the choice, and the room's value shows again.
export const SWITCHES = new Set(["public", "watch_chat"]); // messages named as their room field
const switchValue = (room, field) => (field === "watch_chat" ? room[field] !== false : !!room[field]);
export function flipSwitch(field, on) {
  S.switches[field] = on;
}
/** The room as the page draws it: with the switches just flipped here. */
export function roomShown() {
  return S.room && Object.keys(S.switches).length ? { ...S.room, ...S.switches } : S.room;
}
export function dropSwitches() {
  S.switches = {};
}

export function setSeat(seat, token = S.token) {
  S.seat = seat;
  S.token = token;
}

export function addLog(entry) {
  S.log.push({ ...entry, n: ++logCount });
  if (S.log.length > 300) S.log.splice(0, S.log.length - 300);
}

// a log line's text from what it was made of: events (describe()'s arguments; a second
// one continues the first: "Ben played Green Skip: Cy is skipped") or a chat line
function lineText(src) {
  if (src.chat) {
    const { name, watching, text, emote, times } = src.chat;
    const line = t(watching ? "chat.lineWatching" : "chat.line", { name, text: emote ? emoteText(emote) : text });
    return times > 1 ? t("chat.times", { line, n: times }) : line;
  }
  let text = "";
  for (const args of src.events) {
    const d = describe(...args);
    text = text ? text.replace(/\.$/, "") + ": " + d.text : d.text.charAt(0).toUpperCase() + d.text.slice(1);
  }
  return text;
}

/** A reaction's words in the page's language (an emote the page does not know: as sent). */
export const EMOTES = ["nice", "gg", "oops", "wow", "hurry", "thanks"];
export function emoteText(emote) {
  return EMOTES.includes(emote) ? t(`react.${emote}`) : String(emote);
}

/** A chat line (``emote``: a reaction) into the log.  The same reaction again from the
 * same person, with nothing logged between, counts on the line already there ("Ana:
 * Nice! ×5", issue 49 item 2): the game's lines do not scroll away under repeats. */
export function addChat(msg, emote = null) {
  const src = { chat: { name: msg.name, watching: msg.seat === null, text: msg.text, emote, times: 1 } };
  const last = S.log[S.log.length - 1];
  const same = last?.src?.chat;
  if (emote && same && same.emote === emote && same.name === src.chat.name && same.watching === src.chat.watching) {
    // the line goes and comes back counted: a new line, so a screen reader hears it
    S.log.pop();
    src.chat.times = same.times + 1;
  }
  addLog({ text: lineText(src), cls: emote ? "chat react" : "chat", src });
}

/** The page's language changed: the log and the reactions say it again in the new one. */
export function retranslate() {
  for (const e of S.log) if (e.src) e.text = lineText(e.src);
  S.log = [...S.log];
  const reacts = {};
  for (const [k, r] of Object.entries(S.reacts)) reacts[k] = { ...r, text: emoteText(r.emote) };
  S.reacts = reacts;
}

export function clearLog() {
  Object.assign(S, { log: [], seenSeq: -1, prevKind: null, revealed: null });
}

/** A state message's new events into the log (the live table and the replay viewer). */
export function takeEvents(msg, now) {
  const names = msg.view.names;
  const fresh = [];
  for (const ev of msg.events) {
    if (ev.seq <= S.seenSeq) continue;
    S.seenSeq = ev.seq;
    fresh.push(ev);
    // a challenged hand stays in view until the challenger's own next play (or a new round)
    if (ev.kind === "reveal" && ev.cards) S.revealed = { seat: ev.seat, cards: ev.cards };
    // who put the discard's top card there (the table marks it, issue 49 item 1)
    if (ev.kind === "play" && ev.cards?.length) S.lastPlay = { seat: ev.seat, card: ev.cards[ev.cards.length - 1] };
    // a card taken back (a retracted Wild Draw Four) or put on the pile by a rule: the
    // top card's player is not known here, so nobody is named
    if (ev.kind === "round_start" || ev.kind === "retract" || ev.kind === "discard") S.lastPlay = null;
    if (ev.kind === "round_start") [S.handOwn, S.arrival] = [null, null]; // a new hand
    if (ev.kind === "round_start" || ((ev.kind === "play" || ev.kind === "keep") && ev.seat === S.seat)) S.revealed = null;
    // the game's descriptor (what a challenge is about): the rules come before the room
    const args = [ev, names, S.seat, S.prevKind, gameDescriptor(S.rules, msg.view.game)];
    const d = describe(...args);
    // UNO Flip!: a flip is announced over the piles for a moment (and animated)
    if (ev.kind === "flip") S.flipNote = { side: ev.side === 1 ? "dark" : "light", until: now + 3500, fresh: true };
    S.prevKind = ev.kind;
    if (!d) continue;
    const last = S.log[S.log.length - 1];
    if (d.join && last && last.cls === "play" && !last.joined && last.src?.events) {
      last.src.events.push(args);
      last.text = lineText(last.src);
      last.joined = true;
    } else {
      const src = { events: [args] };
      addLog({ text: lineText(src), cls: d.cls || "", src });
    }
  }
  return fresh;
}

/** A live state message: the log, the clocks, what a screen reader is told.  Returns
 * {prev, events}: the state before and the new events (for the sounds). */
export function takeState(msg, now) {
  if (msg.game !== S.game) {
    S.game = msg.game;
    clearLog();
  }
  const prev = S.state;
  const before = S.log.length ? S.log[S.log.length - 1] : null;
  const beforeText = before ? before.text : null;
  const count = S.log.length;
  const events = takeEvents(msg, now);
  // what a screen reader hears: the new log lines (a joined line counts as new)
  S.fresh = S.log.slice(count).map((e) => e.text);
  if (before && before.text !== beforeText) S.fresh.unshift(before.text);
  S.state = msg;
  S.arrival = arrived(S.arrival || [], msg.view.hand || []);
  if (prev && prev.view.round !== msg.view.round) S.summaryHidden = false;
  if (!prev || prev.version !== msg.version) S.choice = keepChoice(S.choice, msg.view.legal);
  // the server's clocks, as seconds left when it sent this state
  S.clockDeadline = msg.clock ? now + msg.clock.left * 1000 : null;
  S.nextRoundAt = msg.next_round_in !== undefined && msg.next_round_in !== null ? now + msg.next_round_in * 1000 : null;
  if (!canArmUno(msg.view)) S.unoArmed = false;
  return { prev, events };
}

/** The replay viewer at frame ``k`` of ``frames``: one step on takes that frame's
 * events; a jump builds the log again from the first frame. */
export function showFrame(frames, k, at, now) {
  const prev = k === at + 1 ? S.state : null; // one step: the table animates it
  if (k === at + 1 && at >= 0) {
    takeEvents(frames[k], now);
  } else {
    clearLog();
    for (let i = 0; i <= k; i++) takeEvents(frames[i], now);
    S.flipNote = null;
    if (frames[k].events.some((e) => e.kind === "flip")) S.flipNote = { side: frames[k].view.side, until: now + 3500, fresh: true };
  }
  Object.assign(S, { state: frames[k], summaryHidden: false, nextRoundAt: null, clockDeadline: null, choice: null });
  return prev;
}

/** The new log lines for the screen reader, once. */
export function takeFresh() {
  const fresh = S.fresh || [];
  S.fresh = [];
  return fresh;
}

export function flipShown() {
  if (S.flipNote) S.flipNote.fresh = false;
}

export function flipOver(now) {
  if (S.flipNote && now >= S.flipNote.until) S.flipNote = null;
}

/** A reaction (``emote``) beside its seat for 4 s; returns its key. */
export function react(msg, emote, now) {
  const key = msg.seat === null ? `w:${msg.name}` : String(msg.seat);
  S.reacts = { ...S.reacts, [key]: { emote, text: emoteText(emote), until: now + 4000 } };
  return key;
}

export function reactOver(key, now) {
  if (S.reacts[key] && now >= S.reacts[key].until) {
    const { [key]: _, ...rest } = S.reacts;
    S.reacts = rest;
    return true;
  }
  return false;
}

export function setWatchers(msg) {
  S.watchers = msg;
}

export function setWatchName(name) {
  S.watchName = name;
}

export function setChoice(choice) {
  S.choice = choice;
}

/** A card of my hand clicked: {action} to send, {choice} to ask (a colour, whom to
 * swap with, which cards together), or {why} it cannot be played. */
export function pickCard(code, index) {
  const choice = startChoice(S.state.view.legal, code, index);
  if (!choice) return { why: cannotPlay(S.state.view, code) };
  S.choice = choice;
  return stepChoice();
}

/** An answer to the choice's question (``field``: seq, color or target). */
export function answerChoice(field, value) {
  S.choice = { ...S.choice, [field]: value };
  return stepChoice();
}

function stepChoice() {
  const next = advanceChoice(S.choice, S.unoArmed);
  if (next.choice) S.choice = next.choice;
  return next;
}

export function setUnoArmed(on) {
  S.unoArmed = on;
}

/** Flip a panel or switch: help, rulesOpen, summaryHidden, toolsOpen. */
export function toggle(name, value = !S[name]) {
  S[name] = value;
  return S[name];
}

export function hideReveal() {
  S.revealed = null;
}

export function setBotLevel(seat, level) {
  S.botLevels = { ...S.botLevels, [seat]: level };
}
