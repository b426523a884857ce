// Reading vnode trees (dom.js's {tag, attrs, kids}) in tests, and a small table to
// render: three seats, Ana (seat 0) to play.

import { readFileSync } from "node:fs";

/** Every game's descriptor as /api/rules sends it (``games``), the keys the page reads;
 * tests/test_server_modern.py checks this file against the server's. */
export const GAMES = JSON.parse(readFileSync(new URL("./games.json", import.meta.url), "utf8"));

/** Every vnode in the tree, depth first. */
export function* walk(v) {
  if (v === null || v === undefined || typeof v === "string") return;
  yield v;
  for (const k of v.kids || []) yield* walk(k);
}

export const hasClass = (v, c) => String(v.attrs?.class || "").split(/\s+/).includes(c);

/** The vnodes matching a tiny selector: "#id", ".class", "tag", or a predicate. */
export function findAll(tree, sel) {
  const test = typeof sel === "function" ? sel
    : sel.startsWith("#") ? (v) => v.attrs?.id === sel.slice(1)
    : sel.startsWith(".") ? (v) => hasClass(v, sel.slice(1))
    : (v) => v.tag === sel;
  return [...walk(tree)].filter(test);
}

export function find(tree, sel) {
  return findAll(tree, sel)[0] || null;
}

/** The text a vnode shows (its text kids, depth first). */
export function text(v) {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  return (v.kids || []).map(text).join("");
}

/** The card codes drawn as faces in a tree (a back has card null). */
export const faces = (tree) => findAll(tree, (v) => v.tag === "#dom" && v.card).map((v) => v.card);

/** A vnode tree without its handlers and makers: what the page would show. */
export function shown(tree) {
  return JSON.stringify(tree, (k, val) => (typeof val === "function" ? undefined : val));
}

/** An act that records what would be sent and what was clicked. */
export function recorder() {
  const calls = [];
  const rec = (name) => (...args) => calls.push([name, ...args]);
  const act = new Proxy({}, { get: (_, name) => (name === "calls" ? calls : rec(name)) });
  return act;
}

export function view(over = {}) {
  return {
    seat: 0, names: ["Ana", "Ben", "Cy"], hand: ["R5", "G7", "B+2", "W"], hand_sizes: [4, 6, 2],
    legal: [{ play: "R5" }, { play: "W", color: "R" }, { play: "W", color: "Y" }, { play: "W", color: "G" }, { play: "W", color: "B" }, { draw: true }],
    current: 0, phase: "play", top: "R9", discard: ["R9"], color: "R", direction: 1, draw_pile: 80,
    scores: [0, 0, 0], live: [true, true, true], round: 0, game: undefined, side: null, others: null,
    vulnerable: null, drawn: null, pending: null, pending_total: 0, wd4_by: null, prev_color: null,
    round_winner: null, game_winner: null, pile_top: null, aside: 0,
    ...over,
  };
}

export function room(over = {}) {
  return {
    type: "room", code: "ABC234", status: "playing", host: 0, game: 1, timer: 0,
    rules: { preset: "classic", options: {} },
    seats: [
      { seat: 0, name: "Ana", kind: "person", connected: true, autopilot: false, team: null },
      { seat: 1, name: "Ben", kind: "bot", level: "normal", connected: true, autopilot: false, team: null },
      { seat: 2, name: "Cy", kind: "person", connected: true, autopilot: false, team: null },
    ],
    ...over,
  };
}

export const RULES = {
  presets: [{ name: "classic", game: "classic", description: "the official rules", options: {} }],
  options: [
    { name: "hand_size", default: 7 }, { name: "target_score", default: 500 }, { name: "uno_penalty", default: 2 },
    { name: "stacking", default: "off", choices: ["off", "pass", "progressive"] }, { name: "jump_in", default: false },
    { name: "scoring", default: "standard" },
  ],
  timers: [0, 15, 30, 60], levels: ["easy", "normal", "hard"],
  games: GAMES,
};

/** A table's render context, as app.js builds it from the store. */
export function ctx(over = {}) {
  const v = over.view || view();
  const { view: _, st: stOver, ...rest } = over;
  return {
    st: { type: "state", version: 3, game: 1, view: v, events: [], clock: null, ...stOver },
    prev: null, room: room(), rules: RULES, seat: v.seat, code: "ABC234", replay: null,
    choice: null, unoArmed: false, flipNote: null, reacts: {}, now: 1000, clockDeadline: null, nextRoundAt: null,
    summaryHidden: false, log: [], revealed: null, help: false, rulesOpen: false, watchers: null, watchName: null,
    toolsOpen: false, botLevels: {}, origin: "http://x",
    ...rest,
  };
}
