// What differs from one game to another on the page (prompts, the draw button, a seat
// out of the game, the challenged card), read from the server's descriptor of the game
// (/api/rules ``games``; engine/family.py ``Game.descriptor``), never from its name: a
// game the page has not heard of is shown by what its descriptor says.  Pure: a
// descriptor in, locale keys and values out.

/** The words of the classic game, while /api/rules has not come (a table drawn before
 * it) and for a descriptor without them (a server of an older version). */
export const PLAIN_GAME = Object.freeze({
  name: "classic", options: [], scorings: null,
  prompts: { start_color: "start_wild", challenge: "wild_draw_four" }, draw: "one", out: "eliminated",
});

/** The descriptor of ``game`` (a view's ``game``, a preset's; none: classic). */
export function gameDescriptor(rules, game) {
  const d = rules?.games?.[game || "classic"];
  if (!d) return PLAIN_GAME;
  return { ...PLAIN_GAME, ...d, prompts: { ...PLAIN_GAME.prompts, ...d.prompts } };
}

/** The descriptor of the game a view shows. */
export const viewGame = (v, rules) => gameDescriptor(rules, v.game);

// Why a colour is asked in the start_color phase ("prompts.start_color"): a Wild turned
// up at the start, a wild on top (UNO Flip!: at the start, or exposed by a flip), a
// Colour Roulette (No Mercy).  mine/other: the banner; prompt: beside the piles.
const START_COLOR = {
  start_wild: { mine: "turn.chooseStart", other: "turn.otherChoosingStart", prompt: "prompt.startColour" },
  top_wild: { mine: "turn.chooseColorOf", other: "turn.otherChoosing", prompt: "prompt.flipColour" },
  roulette: { mine: "turn.roulette", other: "turn.otherRoulette", prompt: "prompt.roulette" },
};

/** The locale keys of the start_color phase's sentences (each takes {card}, {name}). */
export const startColorWords = (d) => START_COLOR[d.prompts.start_color] || START_COLOR.start_wild;

// What the challenge phase challenges ("prompts.challenge"): the Wild Draw Four
// (R-ACT-CHALLENGE: draw 4, or 6 when not guilty), or the wild draw card on top (UNO
// Flip!'s Wild Draw Two or Wild Draw Colour, FLIP-CHAL: the penalty, or it and 2 more).
// card: the card named (null: the top card); draws: the penalty when the view has none.
const CHALLENGE = {
  wild_draw_four: {
    card: "W+4", draws: 4, other: "turn.otherChallenge", hint: "prompt.challengeHint",
    logCard: "log.challengeCard.classic", guilty: "log.guilty", innocent: "log.innocent",
  },
  wild_draw: {
    card: null, draws: 2, other: "turn.otherChallengeFlip", hint: "prompt.challengeFlipHint",
    logCard: "log.challengeCard.flip", guilty: "log.guiltyFlip", innocent: "log.innocentFlip",
  },
};

/** The locale keys and card of a challenge in this game. */
export const challengeWords = (d) => CHALLENGE[d.prompts.challenge] || CHALLENGE.wild_draw_four;

/** The card challenged, as a code: the game's (W+4), else the top card. */
export const challengedCard = (d, v) => challengeWords(d).card ?? v.top;

// What a draw does ("draw"): one card, or on until a playable one comes (No Mercy).
const DRAW = {
  one: { button: "me.draw", drew: "prompt.drew" },
  until_playable: { button: "me.drawUntil", drew: "prompt.drewUntil" },
};

/** The draw button's key, and the drawn-card prompt's (with "Play" added when it must). */
export const drawWords = (d) => DRAW[d.draw] || DRAW.one;

// What a seat out of the game is ("out"): eliminated (by its score), or knocked out
// (No Mercy's Mercy rule: a badge of its own, said in the round summary, and a round
// can be won by being the last one left).
const OUT = {
  eliminated: { badge: "opp.out", badgeCls: "badge", cls: "out", me: null, summary: null, lastLeft: false },
  knocked_out: {
    badge: "opp.knocked", badgeCls: "badge knocked", cls: "out knocked", me: "me.knocked", summary: "summary.knocked", lastLeft: true,
  },
};

/** How a seat out of the game is shown. */
export const outWords = (d) => OUT[d.out] || OUT.eliminated;

/** Every table above, for the test that each locale key they name exists. */
export const WORDS = { START_COLOR, CHALLENGE, DRAW, OUT };
