// The round summary, the scores by round and the chart of the totals (render/summary.js).

import assert from "node:assert/strict";
import { test } from "node:test";

import { roundsView, summaryView, totalsChart } from "../../src/unokit/web/render/summary.js";
import { ctx, find, findAll, recorder, RULES, room, text, view } from "./helpers.mjs";

const over = (over = {}) => {
  const v = view({ phase: "round_over", round_winner: 1, current: 1, legal: [], scores: [0, 47, 0], hand: ["R5", "W"], hand_sizes: [2, 0, 1], ...over });
  return { type: "state", version: 9, game: 1, view: v, events: [], hands: [["R5", "W"], [], ["G7"]], points: [0, 47, 0], totals: [[0, 47, 0]] };
};

test("the summary names who went out, with no card left", () => {
  const st = over();
  const tree = summaryView(st, ctx({ st }), recorder());
  assert.equal(text(find(tree, "#summary-h")), "Ben went out!");
  const rows = findAll(find(tree, "tbody"), "tr");
  assert.equal(rows.length, 3);
  const ben = rows[1];
  assert.equal(ben.attrs.class, "winner");
  assert.match(text(ben), /none: went out/);
  assert.deepEqual(findAll(ben, (v) => v.tag === "#dom").map((v) => v.card), []);
  // the others' hands are shown face up, as the round ends
  assert.deepEqual(findAll(rows[0], (v) => v.tag === "#dom").map((v) => v.card), ["R5", "W"]);
  assert.equal(text(rows[0].kids[0]), "Ana (you)");
  assert.equal(text(rows[1].kids[3]), "47");
});

test("Next round is offered to a seated player and sends next_round; not in a replay", () => {
  const st = over();
  const act = recorder();
  const tree = summaryView(st, ctx({ st }), act);
  find(tree, "#next-round-btn").attrs.onclick();
  assert.deepEqual(act.calls, [["msg", { type: "next_round" }]]);
  assert.equal(find(summaryView(st, ctx({ st, replay: { view: "0" } }), recorder()), "#next-round-btn"), null);
});

test("the game's end: the winner's title, Play again for the host only", () => {
  const st = over({ phase: "game_over", game_winner: 1 });
  const host = summaryView(st, ctx({ st }), recorder());
  assert.equal(text(find(host, "#summary-h")), "Ben won the game!");
  assert.ok(find(host, "#rematch-btn"));
  assert.ok(find(host, "#replay-link"));
  const guest = summaryView(st, ctx({ st, seat: 2, room: room({ host: 0 }) }), recorder());
  assert.equal(find(guest, "#rematch-btn"), null);
});

test("scores by round: each round's points and the totals", () => {
  const st = { ...over(), totals: [[0, 47, 0], [12, 47, 0], [12, 47, 30]] };
  const tree = roundsView(st, room(), RULES);
  const body = findAll(find(tree, "tbody"), "tr").map((r) => r.kids.map(text));
  assert.deepEqual(body, [["1", "0", "+47", "0"], ["2", "+12", "0", "0"], ["3", "0", "0", "+30"]]);
  assert.deepEqual(find(tree, "tfoot").kids[0].kids.map(text), ["Total", "12", "47", "30"]);
  assert.deepEqual(findAll(find(tree, "thead"), "th").map(text), ["Round", "You", "Ben", "Cy"]);
});

test("the totals chart: a line per player from 0, the highest total at the top", () => {
  const totals = [[10, 0], [10, 40]];
  const chart = totalsChart(totals, ["You", "Ben"], 0);
  const lines = findAll(chart, "polyline");
  assert.equal(lines.length, 2);
  // x: 34 to 312 over two rounds; y: 118 is 0, 8 is the top (40); both start at 0, a
  // tie: each is drawn 1.5 px off it, so neither hides the other (issue 49, minor)
  assert.equal(lines[0].attrs.points, "34,116.5 173,90.5 312,90.5");
  assert.equal(lines[1].attrs.points, "34,119.5 173,118 312,8");
  assert.equal(findAll(chart, "circle").length, 4);
  assert.match(find(chart, "svg").attrs["aria-label"], /You 10, 10; Ben 0, 40/);
  // a target near the scores is drawn, and sets the top
  const withTarget = totalsChart(totals, ["You", "Ben"], 50);
  assert.ok(findAll(withTarget, (v) => v.tag === "line" && v.attrs.class === "target").length === 1);
  const last = findAll(withTarget, "polyline")[1].attrs.points.split(" ").at(-1).split(",").map(Number);
  assert.equal(last[0], 312);
  assert.ok(Math.abs(last[1] - 30) < 1e-9, `40 of 50 is at y=30, not ${last[1]}`);
  assert.equal(findAll(chart, (v) => v.tag === "line" && v.attrs.class === "target").length, 0);
});

test("tied totals: three lines of equal scores are drawn apart, in seat order (issue 49, minor)", () => {
  const chart = totalsChart([[20, 20, 20], [30, 30, 50]], ["You", "Ben", "Cy"], 0);
  const ys = findAll(chart, "polyline").map((l) => l.attrs.points.split(" ").map((p) => Number(p.split(",")[1])));
  const [you, ben, cy] = ys;
  assert.deepEqual([you[1] - ben[1], ben[1] - cy[1]], [-3, -3]); // round 1: all tied
  assert.equal(you[2] - ben[2], -1.5 - 1.5); // round 2: You and Ben tied, Cy alone on top
  assert.equal(cy[2], 8);
});

test("first-out scoring: the game's end names no target and draws no chart of zero scores", () => {
  const st = over({ phase: "game_over", game_winner: 1, scores: [0, 0, 0] });
  st.totals = [[0, 0, 0]];
  const firstOut = room({ rules: { preset: "no-mercy", options: { scoring: "first-out", target_score: 1000 } } });
  const tree = summaryView(st, ctx({ st, room: firstOut }), recorder());
  const hint = text(find(tree, ".hint"));
  assert.match(hint, /one round decides it/);
  assert.doesNotMatch(hint, /1000|target/);
  assert.equal(find(tree, "#by-round"), null);
  // standard scoring keeps both
  const standard = summaryView(over({ phase: "game_over", game_winner: 1 }), ctx({ st }), recorder());
  assert.match(text(find(standard, ".hint")), /target/);
  assert.notEqual(find(standard, "#by-round"), null);
});
