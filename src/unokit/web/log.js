// The log: each event (engine/events.py FIELDS, docs/protocol.md) as a sentence.
// Returns {text, join} where join means "continue the previous line" (a skip after a
// play reads "Ben played Green Skip: Cy is skipped").

import { cardName, colorName } from "./cards.js";

const list = (cards) => (cards || []).map(cardName).join(", ");

// ``prev`` is the kind of the event before this one: a reshuffle right after a Wild
// Draw Four went back at the start (R-START-WD4) shuffles the draw pile, not discards.
// ``game``: the view's ``game`` ("flip", "no-mercy"; undefined for the classic game).
export function describe(ev, names, me, prev = null, game = undefined) {
  const who = (s) => (s === me ? "You" : names[s] ?? `Seat ${s}`);
  const whom = (s) => (s === me ? "you" : names[s] ?? `Seat ${s}`);
  const verb = (s, youForm, otherForm) => (s === me ? youForm : otherForm);
  const whose = (s) => (s === me ? "your" : `${names[s] ?? "Seat " + s}'s`);
  switch (ev.kind) {
    case "dealer_draw":
      return null; // choosing the dealer: too noisy for the log
    case "round_start":
      return { text: `Round ${ev.round + 1}: ${who(ev.dealer)} ${verb(ev.dealer, "deal", "deals")}.`, cls: "round" };
    case "deal":
      if (ev.cards) return { text: `You were dealt ${ev.count === 1 ? "1 card" : ev.count + " cards"}.` };
      return null;
    case "start_card":
      return { text: `The first card is ${cardName(ev.card)}.`, cls: "play" };  // its effect joins it
    case "start_return":
      return { text: `${cardName(ev.card)} cannot start a round: it goes back into the pile.` };
    case "reshuffle":
      if (prev === "start_return") return { text: `The draw pile is shuffled (${ev.pile} cards).` };
      return { text: `The discards are shuffled into a new draw pile (${ev.pile} cards).` };
    case "play": {
      let t = `${who(ev.seat)} played ${list(ev.cards)}`;
      const last = ev.cards && ev.cards[ev.cards.length - 1];
      if (last === "WCR") t += ": the next player names a colour and turns cards over until it comes";
      else if (last && last.startsWith("W") && ev.color) t += ` and chose ${colorName(ev.color)}`;
      if (last && last.endsWith("DA") && ev.cards.length > 1) t += ` (Discard All: ${ev.cards.length - 1} more of its colour)`;
      if (ev.target !== null && ev.target !== undefined) t += `, swapping hands with ${whom(ev.target)}`;
      return { text: t + "." , cls: "play" };
    }
    case "draw":
      if (ev.cards && ev.cards.length)
        return { text: `You drew ${list(ev.cards)}.` };
      return { text: `${who(ev.seat)} drew ${ev.count === 1 ? "a card" : ev.count + " cards"}.` };
    case "keep":
      return { text: `${who(ev.seat)} kept the card.` };
    case "color": {
      let t = `${who(ev.seat)} chose ${colorName(ev.color)}`;
      if (ev.target !== null && ev.target !== undefined) t += ` and swapped hands with ${whom(ev.target)}`;
      return { text: t + "." };
    }
    case "uno":
      return { text: `${who(ev.seat)} called UNO!`, cls: "uno" };
    case "false_uno":
      return { text: `${who(ev.seat)} called UNO without one card: ${ev.penalty} cards penalty.` };
    case "catch":
      return {
        text: `${who(ev.seat)} caught ${whom(ev.caught)} not calling UNO: ${whom(ev.caught)} ${verb(ev.caught, "draw", "draws")} ${ev.penalty}.`,
        cls: "catch",
      };
    case "challenge":
      if (game === "flip")
        return {
          text: `${who(ev.seat)} challenged ${whose(ev.challenged)} wild draw card: ${ev.guilty ? "guilty! " + who(ev.challenged) + " " + verb(ev.challenged, "draw", "draws") + " instead" : "not guilty, " + whom(ev.seat) + " " + verb(ev.seat, "draw", "draws") + " the penalty and 2 more"}.`,
          cls: "challenge",
        };
      return {
        text: `${who(ev.seat)} challenged ${whose(ev.challenged)} Wild Draw Four: ${ev.guilty ? "guilty! " + who(ev.challenged) + " " + verb(ev.challenged, "draw", "draws") + " 4" : "not guilty, " + whom(ev.seat) + " " + verb(ev.seat, "draw", "draws") + " 6"}.`,
        cls: "challenge",
      };
    case "reveal":
      if (ev.cards) return { text: `${who(ev.seat)} showed you their hand: ${list(ev.cards)}.`, cls: "reveal" };
      return { text: `${who(ev.seat)} showed their hand to the challenger.` };
    case "retract":
      return { text: `${who(ev.seat)} took the ${game === "flip" ? "wild draw card" : "Wild Draw Four"} back; ${colorName(ev.color)} is in force again.` };
    case "skip":
      return { text: `${who(ev.seat)} ${verb(ev.seat, "are", "is")} skipped.`, join: true };
    case "reverse":
      return { text: "the direction of play reverses.", join: true };
    case "hit":
      return { text: `${who(ev.seat)} must answer ${cardName(ev.card)} or draw ${ev.total}.` };
    case "hand":
      return ev.cards ? { text: `Your hand is now ${list(ev.cards)}.` } : { text: `${who(ev.seat)} now ${verb(ev.seat, "have", "has")} ${ev.count === 1 ? "1 card" : ev.count + " cards"}.` };
    case "swap":
      return { text: `${who(ev.seat)} swapped hands with ${whom(ev.with)}.` };
    case "rotate":
      return { text: `Every hand passes to the ${ev.direction > 0 ? "next" : "previous"} player.` };
    case "shuffle_hands":
      return { text: `${who(ev.seat)} shuffled every hand together and dealt them out again.` };
    case "discard":
      return { text: `${who(ev.seat)} discarded ${list(ev.cards)}.` };
    case "launch":
      return { text: `${who(ev.seat)} pressed the launcher: ${ev.fired ? ev.fired + " cards fly out" : "nothing"}.` };
    case "flip":
      return {
        text: `Flip! Every card turns over: the ${ev.side === 1 ? "dark" : "light"} side is up, and ${cardName(ev.card)} is on top.`,
        cls: "flip",
      };
    case "knockout":
      return {
        text: `${who(ev.seat)} ${verb(ev.seat, "have", "has")} ${ev.count} cards: knocked out by the Mercy rule.`,
        cls: "catch",
      };
    case "round_over":
      return { text: `${who(ev.winner)} went out${ev.points ? " and " + verb(ev.winner, "score", "scores") + " " + ev.points + " points" : ""}!`, cls: "round" };
    case "eliminated":
      return { text: `${who(ev.seat)} ${verb(ev.seat, "are", "is")} out of the game (${ev.score} points).` };
    case "game_over":
      return { text: `${who(ev.winner)} ${verb(ev.winner, "win", "wins")} the game${ev.score ? ` with ${ev.score} points` : ""}!`, cls: "round" };
    default:
      return { text: ev.kind };
  }
}
