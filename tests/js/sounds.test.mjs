// Which sound a state message makes (issue 36 item 17): render/parts.js's soundOf, the
// choice app.js hands to sounds.js.  One sound per message, the one that matters most.

import assert from "node:assert/strict";
import { test } from "node:test";

import { soundOf } from "../../src/unokit/web/render/parts.js";
import { view } from "./helpers.mjs";

const mine = view({ seat: 0, current: 0 });
const bens = view({ seat: 0, current: 1 });
const play = (seat) => ({ kind: "play", seat, cards: ["R5"] });

test("a card played, a card I drew, my turn coming", () => {
  assert.equal(soundOf([play(0)], mine, bens, 0), "play");
  assert.equal(soundOf([play(1)], bens, view({ seat: 0, current: 2 }), 0), "play");
  assert.equal(soundOf([{ kind: "draw", seat: 0, count: 1 }], mine, mine, 0), "draw");
  assert.equal(soundOf([{ kind: "draw", seat: 1, count: 1 }], bens, view({ seat: 0, current: 2 }), 0), null);
  // Ben's card makes it my turn: the turn, not the card
  assert.equal(soundOf([play(1)], bens, mine, 0), "turn");
  // still my turn (a Skip of mine on two players): no second "turn"
  assert.equal(soundOf([play(0)], mine, mine, 0), "play");
});

test("UNO, a flip and a round won come first", () => {
  const uno = { kind: "uno", seat: 1 };
  assert.equal(soundOf([play(1), uno], bens, mine, 0), "uno");
  assert.equal(soundOf([play(1), { kind: "flip", side: "dark" }], bens, mine, 0), "flip");
  const over = view({ seat: 0, current: 0, phase: "round_over", legal: [] });
  assert.equal(soundOf([play(0), uno, { kind: "round_over", winner: 0 }], mine, over, 0), "win");
  assert.equal(soundOf([{ kind: "game_over", winner: 0 }], mine, over, 0), "win");
  // someone else's win is not mine
  assert.equal(soundOf([play(1), { kind: "round_over", winner: 1 }], bens, over, 0), "play");
});

test("a spectator hears plays, never a turn, a draw or a win of theirs", () => {
  const watch = (over) => view({ seat: null, hand: null, legal: [], ...over });
  assert.equal(soundOf([play(1)], watch({ current: 1 }), watch({ current: 0 }), null), "play");
  assert.equal(soundOf([{ kind: "draw", seat: 0, count: 1 }], watch({}), watch({}), null), null);
  assert.equal(soundOf([{ kind: "round_over", winner: 0 }], watch({}), watch({ phase: "round_over" }), null), null);
});
