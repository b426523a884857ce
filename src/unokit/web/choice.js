// Putting a play together: a card clicked may stand for several legal actions (played
// alone or with others, a colour to name, whom to swap hands with, UNO or not).  Pure:
// the legal actions in, the next question or the one action to send out.

import { cardName, colorName, parseCard } from "./cards.js";
import { t } from "./i18n.js";

const seqKey = (a) => (a.cards ? a.cards.join("/") : a.play);

/** The choice a click on ``code`` starts: null when no legal action plays it. */
export function startChoice(legal, code, index) {
  const options = legal.filter((a) => a.play === code || (a.cards && a.cards[0] === code));
  return options.length ? { card: code, index, options, stage: null } : null;
}

/** The choice still being made after a new state: a move elsewhere at the table (a
 * catch, a reaction's version, a bot's timer) must not close the colour or target
 * question a player is answering, so the choice is kept while its card stands for
 * the same legal actions; null when it does not (the turn moved on, the hand changed). */
export function keepChoice(choice, legal) {
  if (!choice) return null;
  const again = startChoice(legal, choice.card, choice.index);
  if (!again || JSON.stringify(again.options) !== JSON.stringify(choice.options)) return null;
  return choice;
}

/** The next step: {choice} with the question to ask (stage "multi", "color" or
 * "target"), or {action}: the legal action the answers so far pick. */
export function advanceChoice(c, unoArmed) {
  let opts = c.options;
  const seqs = [...new Set(opts.map(seqKey))];
  if (seqs.length > 1 && c.seq === undefined) return { choice: { ...c, stage: "multi", seqs } };
  if (c.seq !== undefined) opts = opts.filter((a) => seqKey(a) === c.seq);
  const colors = [...new Set(opts.map((a) => a.color).filter(Boolean))];
  if (colors.length > 1 && c.color === undefined) return { choice: { ...c, stage: "color", colors } };
  if (c.color !== undefined) opts = opts.filter((a) => a.color === c.color);
  const targets = [...new Set(opts.map((a) => a.target).filter((t) => t !== undefined && t !== null))];
  if (targets.length > 1 && c.target === undefined) return { choice: { ...c, stage: "target", targets } };
  if (c.target !== undefined) opts = opts.filter((a) => a.target === c.target);
  const withUno = opts.find((a) => a.uno === true);
  const without = opts.find((a) => !a.uno);
  return { action: unoArmed && withUno ? withUno : without || opts[0] };
}

/** Whether UNO may be called with the next card (the U key, the UNO button armed). */
export function canArmUno(view) {
  return view.legal.some((a) => a.uno === true && (a.play || a.cards));
}

/** Why a card clicked cannot be played now, in a sentence. */
export function cannotPlay(v, code) {
  if (!v.legal.length || v.phase === "round_over" || v.phase === "game_over") return v.current === v.seat ? t("me.nothingToPlay") : t("me.notYourTurn", { name: v.names[v.current] });
  if (v.phase === "drawn") return t("me.onlyDrawn");
  return t("me.noMatch", { card: cardName(code), color: colorName(v.color), rank: parseCard(v.top).short });
}
