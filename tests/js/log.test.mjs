// The log's draw lines (log.js describe): my own draw names my cards; another seat's draw
// names its cards only when the engine turned them up for the table (No Mercy's Colour
// Roulette, NM-ACT-ROULETTE), and then says who took them, never "You drew".

import assert from "node:assert/strict";
import { test } from "node:test";

import { describe } from "../../src/unokit/web/log.js";
import { GAMES } from "./helpers.mjs";

const names = ["Ana", "Ben", "Cy"];

test("my draw, another's hidden draw, another's revealed draw", () => {
  const mine = describe({ kind: "draw", seat: 0, cards: ["R5"], count: 1 }, names, 0);
  assert.match(mine.text, /^You drew /);
  const hidden = describe({ kind: "draw", seat: 1, count: 2 }, names, 0);
  assert.equal(hidden.text, "Ben drew 2 cards.");
  const shown = describe({ kind: "draw", seat: 1, cards: ["R5", "G2"], count: 2 }, names, 0, null, GAMES["no-mercy"]);
  assert.match(shown.text, /^Ben turned up .+ and took them\.$/);
  assert.doesNotMatch(shown.text, /You/);
  // a spectator (no seat) sees the same public reveal
  const watched = describe({ kind: "draw", seat: 2, cards: ["B1"], count: 1 }, names, null, null, GAMES["no-mercy"]);
  assert.match(watched.text, /^Cy turned up /);
});
