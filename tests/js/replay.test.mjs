// The replay viewer draws its frames with the live table's renderer (render/table.js);
// its controls (render/replaybar.js's replayBar) say where in the game a frame is.

import assert from "node:assert/strict";
import { test } from "node:test";

import { tableView } from "../../src/unokit/web/render/table.js";
import { replayBar, replayWhere, roundOf } from "../../src/unokit/web/render/replaybar.js";
import { recordProblem } from "../../src/unokit/web/replay.js";
import { ctx, faces, find, findAll, recorder, text, view } from "./helpers.mjs";

const frame = (action, over = {}) => ({ type: "state", version: action + 1, game: 1, action, events: [], view: view({ seat: null, hand: [], legal: [], ...over }) });

test("a spectator's frame is the table with backs; every hand open shows the cards", () => {
  const f = { ...frame(3), open: { 0: ["R5", "G7", "B+2", "W"], 1: ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], 2: ["G1", "B9"] } };
  const spectator = tableView(ctx({ view: f.view, st: f, seat: null, replay: { view: "spectator" } }), recorder());
  assert.match(text(find(spectator, ".spectator")), /A spectator's view/);
  const open = tableView(ctx({ view: f.view, st: f, seat: null, replay: { view: "open" } }), recorder());
  assert.match(text(find(open, ".spectator")), /Every hand is open/);
  const fans = findAll(open, ".open-fan");
  assert.equal(fans.length, 3);
  assert.deepEqual(faces(find(open, (v) => v.attrs?.key === "opp:1")), ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]);
  // the replay has no chat, no reactions, and no Next round
  assert.equal(find(open, ".chat"), null);
  assert.equal(find(open, ".reactions"), null);
  assert.equal(text(find(open, "#table-h")), "The table");
});

test("a frame from a seat's view is that seat's table: its hand, its turn", () => {
  const f = frame(0, { seat: 0, hand: ["R5", "G7"], legal: [{ play: "R5" }], hand_sizes: [2, 6, 2] });
  const tree = tableView(ctx({ view: f.view, st: f, seat: 0, replay: { view: "0" } }), recorder());
  assert.deepEqual(findAll(find(tree, ".hand"), (v) => v.tag === "#dom").map((v) => v.card), ["R5", "G7"]);
  assert.equal(text(find(tree, ".turn-text")), "Your turn: play a card or draw");
});

test("where a frame is: its round and move", () => {
  const frames = [frame(-1), frame(0), frame(1), frame(-1), frame(0)];
  const R = { frames, rounds: [0, 3], players: ["Ana", "Ben", "Cy"], at: 2, playing: false, speed: 1, view: "spectator", source: { room: "ABC234", game: 1 }, message: "" };
  assert.equal(roundOf(R.rounds, 2), 0);
  assert.equal(roundOf(R.rounds, 3), 1);
  assert.equal(replayWhere(R), "Round 1 of 2: move 2 of 2");
  assert.equal(replayWhere({ ...R, at: 3 }), "Round 2 of 2: the deal");
  const act = recorder();
  const bar = replayBar(R, act);
  assert.equal(find(bar, "#rp-pos").attrs.props.value, "2");
  assert.equal(find(bar, "#rp-round").attrs.props.value, "0");
  assert.equal(text(find(bar, "#rp-play")), "Play");
  find(bar, "#rp-next").attrs.onclick();
  find(bar, "#rp-last").attrs.onclick();
  assert.deepEqual(act.calls, [["goTo", 3], ["goTo", 4]]);
  assert.equal(text(find(replayBar({ ...R, playing: true }, act), "#rp-play")), "Pause");
});

test("a file that is not shaped like a record is refused in the page, before any request", () => {
  // what the server would refuse with a 400 (logged in the console as a failed request)
  const ok = { format: "uno-record/1", rules: { preset: "classic", options: {} }, players: ["Ana", "Ben"], rounds: [] };
  assert.equal(recordProblem(JSON.stringify(ok)), "");
  assert.equal(recordProblem('{"players": ["Ana", "Ben"], "rounds": []}'), ""); // format and rules may be left out
  for (const bad of ["{oops", "", "{\"players\": [\"Ana\"],"]) assert.equal(recordProblem(bad), "notJson", bad);
  const notRecords = [
    [1, 2], null, 42, "a record", {}, { hello: "world" },
    { players: ["Ana"] }, { rounds: [] }, { players: [], rounds: [] }, { players: "Ana, Ben", rounds: [] },
    { players: ["Ana", 7], rounds: [] }, { players: ["Ana", "Ben"], rounds: {} },
    { ...ok, format: "uno-record/2" }, { ...ok, rules: "classic" }, { ...ok, rules: null },
  ];
  for (const bad of notRecords) assert.equal(recordProblem(JSON.stringify(bad)), "notRecord", JSON.stringify(bad));
});
