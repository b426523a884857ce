// The log: each event (engine/events.py FIELDS, docs/protocol.md) as a sentence, in the
// page's language (i18n.js: the locales' "log.*" keys; ".you" when the sentence is about
// you, ".other" else, so that each language says it its own way).
// Returns {text, join} where join means "continue the previous line" (a skip after a
// play reads "Ben played Green Skip: Cy is skipped").

import { cardName, colorName } from "./cards.js";
import { t, tn } from "./i18n.js";
import { challengeWords, PLAIN_GAME } from "./render/game.js";

const list = (cards) => (cards || []).map(cardName).join(", ");
const given = (x) => x !== null && x !== undefined;

// ``prev`` is the kind of the event before this one: a reshuffle right after a Wild
// Draw Four went back at the start (R-START-WD4) shuffles the draw pile, not discards.
// ``game``: the descriptor of the game played (render/game.js gameDescriptor; the
// classic game's words when none): what a challenge is about.
export function describe(ev, names, me, prev = null, game = PLAIN_GAME) {
  const nameOf = (s) => names[s] ?? t("common.seat", { n: s });
  // "log.x.you" about me, else "log.x.other" with {name}
  const about = (key, s, vars = {}) => (s === me ? t(`${key}.you`, vars) : t(`${key}.other`, { name: nameOf(s), ...vars }));
  const aboutN = (key, s, n, vars = {}) => (s === me ? tn(`${key}.you`, n, vars) : tn(`${key}.other`, n, { name: nameOf(s), ...vars }));
  // a second seat in the sentence: "...withYou" when it is me
  const withWhom = (key, s, target) => (target === me ? t(`${key}.withYou`) : t(`${key}.${s === me ? "you" : "other"}`, { name: nameOf(target) }));
  switch (ev.kind) {
    case "dealer_draw":
      return null; // choosing the dealer: too noisy for the log
    case "round_start":
      return { text: about("log.roundStart", ev.dealer, { round: ev.round + 1 }), cls: "round" };
    case "deal":
      if (ev.cards) return { text: tn("log.dealt", ev.count) };
      return null;
    case "start_card":
      return { text: t("log.startCard", { card: cardName(ev.card) }), cls: "play" };  // its effect joins it
    case "start_return":
      return { text: t("log.startReturn", { card: cardName(ev.card) }) };
    case "reshuffle":
      if (prev === "start_return") return { text: tn("log.reshuffleStart", ev.pile) };
      return { text: tn("log.reshuffle", ev.pile) };
    case "play": {
      let text = about("log.played", ev.seat, { cards: list(ev.cards) });
      const last = ev.cards && ev.cards[ev.cards.length - 1];
      if (last === "WCR") text += t("log.playedRoulette");
      else if (last && last.startsWith("W") && ev.color) text += about("log.playedColor", ev.seat, { color: colorName(ev.color) });
      if (last && last.endsWith("DA") && ev.cards.length > 1) text += tn("log.playedDiscardAll", ev.cards.length - 1);
      if (given(ev.target)) text += withWhom("log.playedSwap", ev.seat, ev.target);
      return { text: text + t("log.end"), cls: "play" };
    }
    case "draw":
      // another seat's draw comes with its cards only when they were turned up for the
      // table (No Mercy's Colour Roulette, NM-ACT-ROULETTE): name who took them
      if (ev.cards && ev.cards.length && ev.seat !== me) return { text: t("log.drewShown", { name: nameOf(ev.seat), cards: list(ev.cards) }) };
      if (ev.cards && ev.cards.length) return { text: t("log.drewCards", { cards: list(ev.cards) }) };
      return { text: aboutN("log.drew", ev.seat, ev.count) };
    case "keep":
      return { text: about("log.kept", ev.seat) };
    case "color": {
      let text = about("log.chose", ev.seat, { color: colorName(ev.color) });
      if (given(ev.target)) text += withWhom("log.choseSwap", ev.seat, ev.target);
      return { text: text + t("log.end") };
    }
    case "uno":
      return { text: about("log.uno", ev.seat), cls: "uno" };
    case "false_uno":
      return { text: about("log.falseUno", ev.seat, { n: ev.penalty }) };
    case "catch": {
      const vars = { n: ev.penalty, caught: nameOf(ev.caught), name: nameOf(ev.seat) };
      const text = ev.seat === me ? t("log.catch.you", vars) : ev.caught === me ? t("log.catch.caughtYou", vars) : t("log.catch.other", vars);
      return { text, cls: "catch" };
    }
    case "challenge": {
      const ch = challengeWords(game || PLAIN_GAME);
      const vars = { card: t(ch.logCard), name: nameOf(ev.seat), target: nameOf(ev.challenged) };
      const head = ev.seat === me ? t("log.challenge.you", vars) : ev.challenged === me ? t("log.challenge.challengedYou", vars) : t("log.challenge.other", vars);
      // guilty: the challenged player draws; not guilty: the challenger
      const outcome = ev.guilty ? about(ch.guilty, ev.challenged) : about(ch.innocent, ev.seat);
      return { text: `${head}: ${outcome}${t("log.end")}`, cls: "challenge" };
    }
    case "reveal":
      if (ev.cards) return { text: t("log.revealToYou", { name: nameOf(ev.seat), cards: list(ev.cards) }), cls: "reveal" };
      return { text: about("log.reveal", ev.seat) };
    case "retract":
      return { text: about("log.retract", ev.seat, { card: t(challengeWords(game || PLAIN_GAME).logCard), color: colorName(ev.color) }) };
    case "skip":
      return { text: about("log.skip", ev.seat), join: true };
    case "reverse":
      return { text: t("log.reverse"), join: true };
    case "hit":
      return { text: about("log.hit", ev.seat, { card: cardName(ev.card), n: ev.total }) };
    case "hand":
      return ev.cards ? { text: t("log.handCards", { cards: list(ev.cards) }) } : { text: aboutN("log.hand", ev.seat, ev.count) };
    case "swap": {
      const vars = { name: nameOf(ev.seat), target: nameOf(ev.with) };
      return { text: ev.seat === me ? t("log.swap.you", vars) : ev.with === me ? t("log.swap.withYou", vars) : t("log.swap.other", vars) };
    }
    case "rotate":
      return { text: t(ev.direction > 0 ? "log.rotate.next" : "log.rotate.previous") };
    case "shuffle_hands":
      return { text: about("log.shuffleHands", ev.seat) };
    case "discard":
      return { text: about("log.discard", ev.seat, { cards: list(ev.cards) }) };
    case "launch":
      return { text: about("log.launch", ev.seat, { result: ev.fired ? tn("log.launchFired", ev.fired) : t("log.launchNothing") }) };
    case "flip":
      return { text: t(ev.side === 1 ? "log.flip.dark" : "log.flip.light", { card: cardName(ev.card) }), cls: "flip" };
    case "knockout":
      return { text: about("log.knockout", ev.seat, { n: ev.count }), cls: "catch" };
    case "round_over":
      return { text: ev.points ? about("log.roundOverPoints", ev.winner, { n: ev.points }) : about("log.roundOver", ev.winner), cls: "round" };
    case "eliminated":
      return { text: about("log.eliminated", ev.seat, { n: ev.score }) };
    case "game_over":
      return { text: ev.score ? about("log.gameOverScore", ev.winner, { n: ev.score }) : about("log.gameOver", ev.winner), cls: "round" };
    default:
      return { text: ev.kind };
  }
}
