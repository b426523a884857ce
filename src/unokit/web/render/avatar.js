// A person's avatar (issue 49 item 1): their initial on their colour, drawn in SVG
// here, nothing fetched.  A profile chooses its colour; a seat without one gets a
// colour from its name, so that seats are told apart at a glance all the same.

import { h } from "../dom.js";

// the colours a profile may choose (server/profiles.py COLORS): fill, then the letter's
// colour, each pair at least 4.5:1 for the letter
export const AVATAR_COLORS = {
  red: ["#c62828", "#ffffff"],
  orange: ["#b34700", "#ffffff"],
  gold: ["#f2c230", "#1a1400"],
  green: ["#2e7d32", "#ffffff"],
  teal: ["#00695c", "#ffffff"],
  blue: ["#1565c0", "#ffffff"],
  purple: ["#6a1b9a", "#ffffff"],
  pink: ["#ad1457", "#ffffff"],
};
export const COLOR_NAMES = Object.keys(AVATAR_COLORS);

/** The colour a name gets when its seat has no profile's (the same name, the same one). */
export function colorOfName(name) {
  let x = 0;
  for (const ch of String(name || "")) x = (x * 31 + ch.codePointAt(0)) >>> 0;
  return COLOR_NAMES[x % COLOR_NAMES.length];
}

/** The avatar's vnode: decorative (the name is always written beside it). */
export function avatar(name, color, size = 28) {
  const key = AVATAR_COLORS[color] ? color : colorOfName(name);
  const [fill, ink] = AVATAR_COLORS[key];
  const letter = ([...String(name || "?").trim()][0] || "?").toUpperCase();
  return h("svg", { class: `avatar av-${key}`, width: size, height: size, viewBox: "0 0 32 32", "aria-hidden": "true", focusable: "false" },
    h("circle", { cx: 16, cy: 16, r: 16, fill }),
    h("text", { x: 16, y: 21.5, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: ink, text: letter }));
}
