// A first game that teaches (issue 49 item 5): with hints on, a line under the turn
// banner says what the player may do now and why (which cards play and the rule that
// lets them, when to call UNO, whom to catch), in the page's language.  Off by
// default; "Learn to play" on the home page turns it on; Hide turns it off, and the
// choice is remembered in this browser.  Pure: the view in, a vnode out.

import { cardName, colorName, parseCard } from "../cards.js";
import { h } from "../dom.js";
import { listText, t } from "../i18n.js";
import { canArmUno, isMyTurn } from "./parts.js";

/** What the hints say now: a list of sentences (empty: nothing to say). */
export function hints(v) {
  const out = [];
  const L = v.legal || [];
  if (v.seat === null) return out;
  const caught = L.find((a) => a.catch !== undefined && a.catch !== null);
  if (caught) out.push(t("coach.catch", { name: v.names[caught.catch] }));
  if (!isMyTurn(v)) {
    if (!caught && v.current !== null && v.current !== undefined && v.names[v.current]) out.push(t("coach.wait", { name: v.names[v.current] }));
    return out;
  }
  if (v.phase === "play") {
    const cards = [...new Set(L.filter((a) => a.play).map((a) => a.play))];
    const why = t("coach.why", { color: colorName(v.color), top: parseCard(v.top).short });
    if (cards.length) out.push(t("coach.mayPlay", { cards: listText(cards.map(cardName)) }) + " " + why);
    else if (L.some((a) => a.draw)) out.push(t("coach.draw", { color: colorName(v.color), top: parseCard(v.top).short }));
    if (canArmUno(v)) out.push(t("coach.uno"));
  } else if (v.phase === "drawn") {
    out.push(t("coach.drawn", { card: cardName(v.drawn) }));
  } else if (v.phase === "challenge" || v.phase === "answer") {
    out.push(t("coach.answer"));
  } else if (v.phase === "start_color") {
    out.push(t("coach.startColour"));
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
