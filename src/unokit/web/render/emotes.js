// The quick reactions as pictures (issue 49 item 2), drawn in SVG here: nothing
// fetched, no emoji font assumed.  Decorative: the reaction's words go beside them.

import { h } from "../dom.js";

const SKIN = "#ffd23f";
const INK = "#3a2500";
const line = { stroke: INK, "stroke-width": 1.8, fill: "none", "stroke-linecap": "round" };
const face = (...kids) => [
  h("circle", { cx: 12, cy: 12, r: 10.5, fill: SKIN, stroke: INK, "stroke-width": 1 }),
  h("circle", { cx: 8.5, cy: 9.5, r: 1.4, fill: INK }),
  h("circle", { cx: 15.5, cy: 9.5, r: 1.4, fill: INK }),
  ...kids,
];

const PICTURES = {
  nice: () => face(h("path", { d: "M7 14 Q12 19 17 14", ...line })),
  gg: () => [h("path", { d: "M12 2l2.9 6.2 6.8.8-5 4.6 1.4 6.7L12 17l-6.1 3.3 1.4-6.7-5-4.6 6.8-.8z", fill: SKIN, stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round" })],
  oops: () => face(h("circle", { cx: 12, cy: 16.2, r: 2.1, fill: INK }), h("path", { d: "M19.5 3.5q1.8 2.6 0 4.1q-1.8-1.5 0-4.1z", fill: "#5cc4ff", stroke: "#1d5b80", "stroke-width": 0.6 })),
  wow: () => face(h("ellipse", { cx: 12, cy: 16, rx: 2.4, ry: 3, fill: INK }), h("path", { d: "M6.5 6.5l3 -1.2M17.5 6.5l-3 -1.2", ...line })),
  hurry: () => [h("path", { d: "M6 2.5h12M6 21.5h12M7.5 2.5c0 5 4.5 6.5 4.5 9.5s-4.5 4.5-4.5 9.5M16.5 2.5c0 5-4.5 6.5-4.5 9.5s4.5 4.5 4.5 9.5", ...line, stroke: "#e8f1ec" }), h("path", { d: "M9 20.5q3-3.5 6 0z", fill: SKIN })],
  thanks: () => [h("path", { d: "M12 21C5 15.5 2 11.5 4.6 7.3 7 3.8 10.7 4.8 12 8c1.3-3.2 5-4.2 7.4-.7C22 11.5 19 15.5 12 21z", fill: "#e63946", stroke: "#7a0c14", "stroke-width": 1 })],
};

/** The picture of ``emote`` (null for one the page does not know). */
export function emotePicture(emote, size = 22) {
  const draw = PICTURES[emote];
  return draw ? h("svg", { class: `emote emote-${emote}`, width: size, height: size, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, draw()) : null;
}
