// A first game that teaches (issue 49 item 5): with hints on, a line under the turn
// banner says what the player may do now and why (which cards play and the rule that
// lets them, when to call UNO, whom to catch), in the page's language.  Off by
// default; "Learn to play" on the home page turns it on; Hide turns it off, and the
// choice is remembered in this browser.  Pure: the view in, a vnode out.

import { cardName, colorName, parseCard } from "../cards.js";
import { h } from "../dom.js";
import { listText, t } from "../i18n.js";
import { canArmUno, isMyTurn, OVER } from "./parts.js";

/** What the hints say now: a list of sentences (empty: nothing to say). */
export function hints(v) {
  const out = [];
  const L = v.legal || [];
  // a spectator, a seat out of the game, a round or game over: nothing to advise
  if (v.seat === null || OVER.includes(v.phase) || v.live?.[v.seat] === false) return out;
  const caught = L.find((a) => a.catch !== undefined && a.catch !== null);
  if (caught) out.push(t("coach.catch", { name: v.names[caught.catch] }));
  const plays = [...new Set(L.filter((a) => a.play).map((a) => a.play))];
  if (!isMyTurn(v)) {
    if (plays.length) out.push(t("coach.jumpIn")); // jump-in: the same card, out of turn
    else if (!caught && v.names[v.current]) out.push(t("coach.wait", { name: v.names[v.current] }));
    return out;
  }
  if (v.phase === "play") {
    const top = parseCard(v.top).short;
    // the rule that lets them: a Wild is named only when one of them is a Wild
    const wild = plays.some((c) => parseCard(c).wild);
    const why = t(wild ? "coach.whyWild" : "coach.why", { color: colorName(v.color), top });
    if (plays.length) out.push(t("coach.mayPlay", { cards: listText(plays.map(cardName)) }) + " " + why);
    else if (L.some((a) => a.draw)) out.push(t("coach.draw", { color: colorName(v.color), top }));
    if (canArmUno(v)) out.push(t("coach.uno"));
  } else if (v.phase === "drawn") {
    // what the rules allow with it: play it or keep it, play it only, or keep it only
    const play = L.some((a) => a.play === v.drawn);
    const keep = L.some((a) => a.keep);
    const key = play && keep ? "coach.drawn" : play ? "coach.drawnMust" : "coach.drawnKeep";
    out.push(t(key, { card: cardName(v.drawn) }));
  } else {
    // a colour to name, a challenge, a stack to answer, Colour Roulette...: the banner
    // and the box under the piles say it in the game's own words
    out.push(t("coach.asked"));
  }
  return out;
}

/** The hints' box, or null when hints are off or there is nothing to say. */
export function coachView(ctx, act) {
  if (!ctx.hints || ctx.replay) return null;
  const said = hints(ctx.st.view);
  if (!said.length) return null;
  return h("div", { class: "coach", id: "coach", key: "coach", role: "note", "aria-label": t("coach.label") },
    h("span", { class: "coach-mark", "aria-hidden": "true", text: "?" }),
    h("div", { class: "coach-text" }, said.map((s, i) => h("p", { key: `hint:${i}`, text: s }))),
    h("button", { class: "btn small ghost", type: "button", id: "hints-off", text: t("coach.hide"), onclick: () => act.setHints(false) }));
}
