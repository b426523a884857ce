// Pieces every render module uses: card faces, backs and icons as vnodes (cards.js
// draws them as DOM, made when the patch mounts them, never by a render function),
// and small readings of a view.

import { cardBack, cardFace, icon } from "../cards.js";
import { dom } from "../dom.js";
import { language } from "../i18n.js";

/** A card face: ``card`` (the code) and ``opts`` stay on the vnode for tests to read. */
export function face(code, opts = {}, attrs = {}) {
  const o = { tag: "span", size: "", dark: false, other: false, ...opts };
  // the language is in the key: a face says its name (aria-label), made once per key
  return dom(`face:${code}:${o.tag}:${o.size}:${o.dark}:${o.other}:${language()}`, () => cardFace(code, o), attrs, { card: code, opts: o });
}

/** A face-down card: no code in it, by construction. */
export function back(size = "") {
  return dom(`back:${size}`, () => cardBack(size), {}, { card: null });
}

export function ic(name, cls = "") {
  return dom(`icon:${name}:${cls}`, () => icon(name, cls), {}, { icon: name });
}

export const OVER = ["round_over", "game_over"];

export function legalOf(st) {
  return st ? st.view.legal : [];
}

export { canArmUno } from "../choice.js";

export function isMyTurn(v) {
  return v.seat !== null && v.current === v.seat && !OVER.includes(v.phase);
}

export function secondsLeft(deadline, now) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

export function teamScoring(v) {
  return v.scores.length !== v.names.length;
}
