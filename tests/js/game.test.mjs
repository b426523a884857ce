// What differs between the games on the page comes from the server's descriptor of the
// game (/api/rules ``games``; render/game.js), never from comparing the game's name
// (issue 47): the banner and the prompt of a colour to name or a card to challenge, the
// draw button, a seat out of the game, the log's challenge lines.  A game the page has
// never heard of is worded by what its descriptor says.

import assert from "node:assert/strict";
import { test } from "node:test";

import { has } from "../../src/unokit/web/i18n.js";
import { describe } from "../../src/unokit/web/log.js";
import { gameDescriptor, WORDS } from "../../src/unokit/web/render/game.js";
import { summaryView } from "../../src/unokit/web/render/summary.js";
import { tableView, turnText } from "../../src/unokit/web/render/table.js";
import { ctx, find, GAMES, recorder, RULES, text, view } from "./helpers.mjs";

const NAMES = ["Ana", "Ben", "Cy"];
// a game the page's code never names, with No Mercy's words
const NEW_GAME = { ...GAMES["no-mercy"], name: "mercy-deluxe", title: "Mercy Deluxe" };
const RULES_NEW = { ...RULES, games: { ...GAMES, [NEW_GAME.name]: NEW_GAME } };
const colorLegal = ["R", "Y", "G", "B"].map((c) => ({ color: c }));

function startColor(game, top, over = {}) {
  const v = view({ game, phase: "start_color", top, discard: [top], color: null, legal: colorLegal, ...over });
  return { v, tree: tableView(ctx({ view: v, rules: over.rules || RULES }), recorder()) };
}

test("a colour to name at the start: each game's words, from its descriptor", () => {
  const cases = [
    [undefined, "W", /Your turn: choose the colour of the start card/, /The start card is a Wild: choose its colour/, "Ben is choosing the start colour"],
    ["flip", "W+2", /Your turn: choose the colour of the Wild Draw Two/, /The Wild Draw Two on top needs a colour/, "Ben is choosing a colour"],
    ["no-mercy", "WCR", /Your turn: Colour Roulette! Name a colour/, /Colour Roulette! Name a colour: you turn cards over/, "Ben names a colour for the Colour Roulette"],
  ];
  for (const [game, top, banner, prompt, other] of cases) {
    const { v, tree } = startColor(game, top);
    assert.match(text(find(tree, "#turn")), banner, String(game));
    assert.match(text(find(tree, "#prompt")), prompt, String(game));
    assert.equal(turnText({ ...v, current: 1, legal: [] }, [], null, RULES), other);
  }
});

test("a game the page never heard of is worded by its descriptor, not by its name", () => {
  const rules = RULES_NEW;
  const { tree } = startColor(NEW_GAME.name, "WCR", { rules });
  assert.match(text(find(tree, "#turn")), /Colour Roulette/);
  // the draw button draws until a playable card; a seat out was knocked out (Mercy)
  const out = view({ game: NEW_GAME.name, live: [true, false, true] });
  const table = tableView(ctx({ view: out, rules }), recorder());
  assert.equal(text(find(table, "#draw-btn")), "Draw until playable (D)");
  assert.match(text(find(table, (n) => n.attrs?.dataset?.seat === 1)), /knocked out \(Mercy\)/);
  assert.ok(find(table, ".knocked"));
  // the same view with the classic game's descriptor says the classic words
  const plain = tableView(ctx({ view: { ...out, game: undefined }, rules }), recorder());
  assert.equal(text(find(plain, "#draw-btn")), "Draw (D)");
  assert.equal(find(plain, ".knocked"), null);
  // the round summary: the knocked-out seat is said so, and the last one left won
  const over = view({ game: NEW_GAME.name, phase: "round_over", round_winner: 0, live: [true, false, false] });
  const st = { type: "state", version: 9, game: 1, view: over, events: [], hands: [["R5"], [], []], points: [0, 0, 0], totals: [] };
  const sum = summaryView(st, ctx({ view: over, rules }), recorder());
  assert.match(text(find(sum, "#summary-h")), /You are the last one left/);
  assert.match(text(sum), /knocked out \(Mercy rule\)/);
});

test("a card to challenge: the Wild Draw Four, or UNO Flip!'s wild draw card on top", () => {
  const legal = [{ challenge: true }, { accept: true }];
  const prompt = (game, top) => text(find(tableView(ctx({ view: view({ game, phase: "challenge", wd4_by: 2, top, discard: [top], prev_color: "G", pending_total: 0, legal }) }), recorder()), "#prompt"));
  assert.match(prompt(undefined, "W+4"), /Cy played a Wild Draw Four on you\..*still held a green card.*Or accept and draw 4/);
  assert.match(prompt("flip", "W+2"), /Cy played a Wild Draw Two on you\..*the colour in force.*Or accept and draw 2/);
  assert.match(prompt("flip", "W+C"), /Cy played a Wild Draw Colour on you\..*Or accept and draw until the colour named comes/);
  const other = (game, top) => turnText(view({ game, phase: "challenge", current: 1, wd4_by: 0, top, legal: [] }), [], null, RULES);
  assert.equal(other(undefined, "W+4"), "Ben decides: challenge the Wild Draw Four or draw 4");
  assert.equal(other("flip", "W+2"), "Ben decides: challenge the Wild Draw Two or draw");
  // the log names the card and the penalty the same way
  const ev = { kind: "challenge", seat: 1, challenged: 2, guilty: true };
  assert.match(describe(ev, NAMES, 0, null, gameDescriptor(RULES, undefined)).text, /Wild Draw Four.*guilty! Cy draws 4/);
  assert.match(describe(ev, NAMES, 0, null, gameDescriptor(RULES, "flip")).text, /wild draw card.*guilty! Cy draws instead/);
});

test("before /api/rules comes (or from an older server) the classic game's words", () => {
  const { v } = startColor("flip", "W+2");
  assert.equal(turnText(v, v.legal, null, null), "Your turn: choose the colour of the start card");
  assert.deepEqual(gameDescriptor({ ...RULES, games: undefined }, "flip").prompts, GAMES.classic.prompts);
});

test("every locale key the games' words name exists", () => {
  for (const [table, entries] of Object.entries(WORDS)) {
    for (const [value, words] of Object.entries(entries)) {
      for (const key of Object.values(words)) {
        if (typeof key !== "string" || !/\./.test(key) || /^[A-Z]/.test(key)) continue;
        assert.ok(has(key) || has(`${key}.you`) || has(`${key}Play`), `${table}.${value}: ${key}`);
      }
    }
  }
  // and every value a game's descriptor sends has its words
  for (const d of Object.values(GAMES)) {
    assert.ok(WORDS.START_COLOR[d.prompts.start_color], d.name);
    assert.ok(d.prompts.challenge === null || WORDS.CHALLENGE[d.prompts.challenge], d.name);
    assert.ok(WORDS.DRAW[d.draw] && WORDS.OUT[d.out], d.name);
  }
});

test("the log of a live table names the challenged card by the game's descriptor", async () => {
  const store = await import("../../src/unokit/web/store.js");
  store.resetRoom("ABC234");
  store.setRules(RULES);
  const ev = { seq: 1, kind: "challenge", seat: 1, challenged: 2, guilty: false };
  store.takeEvents({ view: view({ game: "flip" }), events: [ev] }, 0);
  assert.match(store.S.log.at(-1).text, /wild draw card.*not guilty, Ben draws the penalty and 2 more/);
  store.clearLog();
  store.takeEvents({ view: view(), events: [ev] }, 0);
  assert.match(store.S.log.at(-1).text, /Wild Draw Four.*not guilty, Ben draws 6/);
  store.setRules(null);
});

test("a colour being chosen stays open when a move elsewhere changes the version, and closes when the card no longer plays", async () => {
  const store = await import("../../src/unokit/web/store.js");
  store.resetRoom("ABC234");
  const legal = [{ play: "W", color: "R" }, { play: "W", color: "Y" }, { play: "W", color: "G" }, { play: "W", color: "B" }, { draw: true }];
  const msg = (version, over = {}) => ({ type: "state", game: 1, version, view: view({ legal, ...over }), events: [] });
  store.takeState(msg(5), 0);
  assert.equal(store.pickCard("W", 3).choice.stage, "color");
  // another seat is caught for UNO: a new version, Ana's Wild plays as before
  store.takeState(msg(6, { hand_sizes: [4, 8, 2] }), 0);
  assert.equal(store.S.choice?.stage, "color");
  assert.deepEqual(store.answerChoice("color", "G"), { action: { play: "W", color: "G" } });
  // the turn moved on: the question goes with it
  store.pickCard("W", 3);
  store.takeState(msg(7, { current: 1, legal: [] }), 0);
  assert.equal(store.S.choice, null);
});

test("the same reaction again counts on its line, until a game line comes between (issue 49)", async () => {
  const store = await import("../../src/unokit/web/store.js");
  store.resetRoom("ABC234");
  store.clearLog();
  const ana = { name: "Ana", seat: 0 };
  for (let i = 0; i < 3; i++) store.addChat(ana, "gg");
  assert.deepEqual(store.S.log.map((e) => e.text), ["Ana: Good game! ×3"]);
  store.addChat({ name: "Ben", seat: 1 }, "gg"); // someone else: a line of their own
  store.addChat(ana, "gg");
  store.addChat(ana, "nice");
  assert.deepEqual(store.S.log.map((e) => e.text), ["Ana: Good game! ×3", "Ben: Good game!", "Ana: Good game!", "Ana: Nice!"]);
  store.addChat({ name: "Ana", seat: 0, text: "gg" }); // chat text never collapses
  store.addChat({ name: "Ana", seat: 0, text: "gg" });
  assert.equal(store.S.log.length, 6);
});
