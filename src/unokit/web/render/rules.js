// The rules a room plays by, in words: the one-line summary (the join page, the lobby),
// one sentence per option, and the Rules panel at the table.  Pure: a room message and
// /api/rules in, text and vnodes out.

import { h } from "../dom.js";

/** "Rules: party, with hand size 5 and target score 100. Turn timer: off." */
export function rulesLine(room) {
  const opts = Object.entries(room.rules.options || {}).map(([k, v]) => `${k.replaceAll("_", " ")} ${optionText(v)}`);
  const house = opts.length ? `, with ${opts.length > 1 ? opts.slice(0, -1).join(", ") + " and " + opts[opts.length - 1] : opts[0]}` : " (no house rules)";
  return `Rules: ${room.rules.preset}${house}. Turn timer: ${room.timer ? room.timer + " s" : "off"}.`;
}

export function optionText(v) {
  if (v === true) return "on";
  if (v === false) return "off";
  if (Array.isArray(v)) return v.join("/");
  return String(v);
}

/** An option of this room's rules: its own options, else its preset's, else the default. */
export function ruleValue(name, room, rules) {
  const mine = room?.rules?.options || {};
  if (name in mine) return mine[name];
  const preset = rules?.presets.find((p) => p.name === room?.rules?.preset);
  if (preset && name in preset.options) return preset.options[name];
  return rules?.options.find((o) => o.name === name)?.default;
}

// ---- the rules in force ------------------------------------------------------------------
const CUSTOM = {
  none: "Wild Customizable cards act as plain Wilds.",
  next_draws_3: "A Wild Customizable makes the next player draw 3 (they still play).",
  others_draw_2: "A Wild Customizable makes everyone else draw 2.",
  others_discard_wilds: "A Wild Customizable makes everyone else put down their wilds.",
  extra_turn: "A Wild Customizable gives its player another turn.",
  discard_color: "A Wild Customizable lets its player put down every card of the colour named.",
};
const DECKS = {
  classic: "The classic deck of 108 cards.",
  "mattel-2018-swap": "The 2018 deck of 112 cards, with Wild Swap Hands and Wild Customizable cards.",
  "mattel-2018-shuffle": "The 2018 deck of 112 cards, with Wild Shuffle Hands and Wild Customizable cards.",
  "my-first-uno": "The children's deck of 36 cards.",
  flip: "UNO Flip!: 112 two-sided cards, a light side and a dark side; a Flip card turns every card over.",
  "no-mercy": "UNO Show 'Em No Mercy: 168 cards, draw until you can play, stacking by value, and the Mercy rule.",
};
const SCORING = {
  standard: "Whoever goes out scores the points left in the other hands.",
  low: "Everyone scores the points left in their own hand; at the target, the fewest points wins.",
  elimination: "Everyone scores their own hand; reaching the target puts a player out, and the last one left wins.",
  teams: "Partners sitting opposite score together.",
  "first-out": "The first player to go out wins the game; no points are counted.",
};
const STACKING = {
  off: "Draw cards do not stack: the next player draws and is skipped.",
  pass: "A Draw Two or Wild Draw Four may be passed on with a matching card.",
  progressive: "Draw cards stack: answer with another and the penalties add up for the next player.",
};

/** One sentence for an option's value (the rule as it plays at this table). */
export function ruleSentence(name, v) {
  const n = Number(v);
  switch (name) {
    case "deck": return DECKS[v] || `The ${v} deck.`;
    case "custom_rule": return CUSTOM[v] || `Wild Customizable: ${v}.`;
    case "custom_cards": return `${n} Wild Customizable card${n === 1 ? " is" : "s are"} in the deck.`;
    case "hand_size": return `Each player is dealt ${n} card${n === 1 ? "" : "s"}.`;
    case "target_score": return `The game ends when someone reaches ${n} point${n === 1 ? "" : "s"}.`;
    case "scoring": return SCORING[v] || `Scoring: ${v}.`;
    case "wild_points": return `A plain Wild left in a hand counts ${n} points.`;
    case "uno_penalty": return `Caught not calling UNO: draw ${n} card${n === 1 ? "" : "s"}.`;
    case "false_uno_penalty": return n ? `Calling UNO without having one card left costs ${n} card${n === 1 ? "" : "s"}.` : "Calling UNO too early costs nothing.";
    case "wd4_bluffing": return v ? "A Wild Draw Four may be played while holding the colour in force, at the risk of a challenge." : "A Wild Draw Four may only be played without a card of the colour in force.";
    case "wd4_guilty": return v === "retract" ? "A Wild Draw Four found guilty is taken back, and its player draws 4." : "A Wild Draw Four found guilty makes its player draw 4.";
    case "draw_until_playable": return v ? "You keep drawing until a playable card comes." : "You draw one card; if it can be played, you may play it at once.";
    case "force_play_drawn": return v ? "A playable card you drew must be played." : "A playable card you drew may be kept.";
    case "stacking": return STACKING[v] || `Stacking: ${v}.`;
    case "stack_draw4_on_draw2": return v ? "A Wild Draw Four may answer a Draw Two." : "A Draw Two is answered only with a Draw Two.";
    case "multi_play": return v ? "Several cards of the same number may be played together." : "One card is played at a time.";
    case "jump_in": return v ? "Anyone holding the very card on top may play it out of turn (jump in)." : "Nobody plays out of turn.";
    case "seven_zero": return v ? "A 7 swaps hands with a player of your choice; a 0 passes every hand on." : "A 7 and a 0 are plain numbers.";
    case "attack_launcher": return v ? "Instead of drawing you press the launcher: it fires 0 to 12 cards at you." : "You draw from the pile.";
    // UNO Flip! (RULES-MODERN.md A12)
    case "flip_start": return v === "flip" ? "A Flip turned up as the start card flips the round at once." : "A Flip turned up as the start card goes back, and another is turned.";
    case "flip_inverts_discard": return v ? "A flip turns the whole discard pile over: its bottom card comes on top." : "A flip turns only the Flip card over.";
    case "flip_exposed_action": return v ? "The action of the card a flip brings on top happens." : "The card a flip brings on top does nothing by itself.";
    case "flip_wild_color": return v === "next_player" ? "A wild a flip brings on top: the next player names its colour." : "A wild a flip brings on top: the player of the Flip names its colour.";
    case "flip_last_card": return v === "no_flip" ? "A Flip as the last card ends the round before the flip." : "A Flip as the last card still flips, and the round is scored on the new side.";
    case "flip_pairing": return "Light and dark faces are paired at random for the game.";
    // No Mercy (RULES-MODERN.md B11)
    case "nm_deck": return `The deck's breakdown: ${v}.`;
    case "nm_voluntary_draw": return v ? "You may draw (until a playable card comes) even holding a playable card." : "Holding a playable card, you must play one.";
    case "nm_stack_threshold": return v === "total" ? "A stack is answered with a draw card worth at least the total so far." : "A stack is answered with a draw card worth at least the last one played.";
    case "nm_stack_match_color": return v ? "A stack answer must also match colour or symbol." : "Any draw card of enough value answers a stack, whatever its colour.";
    case "nm_stack_deflect": return v ? "A Skip or Reverse passes a pending stack on." : "Only draw cards answer a stack.";
    case "mercy_limit": return n ? `Holding ${n} cards or more knocks a player out (the Mercy rule).` : "No Mercy rule: nobody is knocked out.";
    case "nm_knockout_cards": return v === "discard_bottom" ? "A knocked-out hand goes under the discard pile." : "A knocked-out hand is set aside until the next reshuffle.";
    case "nm_last_card_effect": return v ? "A last card's effect still happens." : "A last card's effect does not happen: the round is over.";
    case "nm_roulette_color": return v === "player" ? "After a Colour Roulette, the colour of the player who played it is in force." : "After a Colour Roulette, the colour the victim named is in force.";
    default: return `${name.replaceAll("_", " ")}: ${optionText(v)}.`;
  }
}

/** The rules of this room: the preset's description, then one sentence per rule that
 * differs from the official rules, then the target and the penalties. */
export function rulesInForce(room, rules) {
  const preset = rules?.presets.find((p) => p.name === room.rules.preset);
  const defaults = {};
  const game = preset?.game || "classic"; // a modern game lists only the options it plays
  for (const o of rules?.options || []) if (!o.games || o.games.includes(game)) defaults[o.name] = o.default;
  const house = [];
  const names = Object.keys(defaults).filter((k) => k !== "launcher_weights");
  for (const k of names) {
    const v = ruleValue(k, room, rules);
    if (JSON.stringify(v) !== JSON.stringify(defaults[k])) house.push([k, v]);
  }
  const always = ["target_score", "uno_penalty", "stacking", "mercy_limit"].filter((k) => k in defaults && !house.some(([n]) => n === k)).map((k) => [k, ruleValue(k, room, rules)]);
  return { preset: room.rules.preset, description: preset?.description || "", house, always };
}

/** The Rules panel (the top bar's Rules button): ``act.toggleRules`` closes it. */
export function rulesPanel(room, rules, act) {
  if (!rules) return h("section", { class: "help rules", id: "rules" }, h("p", { text: "Loading the rules…" }));
  const r = rulesInForce(room, rules);
  const item = ([k, v]) => h("li", { dataset: { rule: k } }, h("b", { text: k.replaceAll("_", " ") + ": " }), ruleSentence(k, v));
  return h("section", { class: "help rules", id: "rules", "aria-labelledby": "rules-h" },
    h("h2", { id: "rules-h", text: `Rules: ${r.preset}` }),
    r.description ? h("p", { class: "hint", text: r.description.charAt(0).toUpperCase() + r.description.slice(1) + "." }) : null,
    h("h3", { text: r.house.length ? "House rules" : "No house rules: the official rules" }),
    r.house.length ? h("ul", { class: "rule-list", id: "house-rules" }, r.house.map(item)) : null,
    h("ul", { class: "rule-list" }, r.always.map(item),
      h("li", {}, h("b", { text: "turn timer: " }), room.timer ? `${room.timer} s, then the autopilot decides.` : "off.")),
    h("button", { class: "btn small", type: "button", id: "rules-close", text: "Close", onclick: act.toggleRules }));
}

