// Pieces every render module uses: card faces, backs and icons as vnodes (cards.js
// draws them as DOM, made when the patch mounts them, never by a render function),
// and small readings of a view.

import { cardBack, cardFace, icon } from "../cards.js";
import { dom, h } from "../dom.js";
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

// A button's key ("Draw (D)"): in its own span, which a screen without a keyboard
// (a phone: style.css, pointer: coarse) does not show.
export function keyHint(text) {
  const m = /^(.*\S)\s+(\([^()\s]{1,3}\))$/.exec(text);
  // one inline run (a .btn is a flex box: two kids would be two lines to innerText)
  return m ? h("span", {}, m[1], h("span", { class: "key-hint" }, " " + m[2])) : text;
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

/** The one sound a state message makes, the one that matters most (sounds.js plays
 * it), or null: a round won, UNO, a flip, your turn coming, a card played, a card you
 * drew.  ``me`` is my seat (null when watching); ``prev`` and ``view`` the views
 * before and after the message's ``events``. */
export function soundOf(events, prev, view, me) {
  const ended = (ev) => OVER.includes(ev.kind) && ev.winner === me && me !== null;
  const mine = (x) => me !== null && x.current === me && !OVER.includes(x.phase) && x.legal.length > 0;
  if (events.some(ended)) return "win";
  if (events.some((e) => e.kind === "uno")) return "uno";
  if (events.some((e) => e.kind === "flip")) return "flip";
  if (mine(view) && !mine(prev)) return "turn";
  if (events.some((e) => e.kind === "play")) return "play";
  if (events.some((e) => e.kind === "draw" && e.seat === me)) return "draw";
  return null;
}

export function secondsLeft(deadline, now) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

export function teamScoring(v) {
  return v.scores.length !== v.names.length;
}
