// Cards: codes (R7, YS, G+2, BR, W, W+4, WSWAP, WSHUF, WCUST) to names, symbols and DOM.
// RULES.md §1 has the table; the modern games' faces are RULES-MODERN.md's (UNO Flip!:
// light R7, Y+1, GR, BS, RF, W, W+2 and dark P7, T+5, OR, VSE, PF, W, W+C; No Mercy:
// R0, B+4, GSE, YDA, WR+4, W+6, W+10, WCR).  Every card shows its colour as a letter
// too (colour-blind players), and its name is its accessible label.  Names are in the
// page's language (i18n.js); the letters on the cards are the colour keys (R Y G B).

import { t } from "./i18n.js";

// ``name`` (in running text: "red") and ``label`` ("Red") are in the page's language
// (i18n.js), looked up each time they are read.
const colour = (name, key) => ({
  name,
  get label() {
    return t(`colors.${key}`);
  },
  get text() {
    return t(`colorName.${key}`);
  },
});
export const COLORS = {
  R: colour("red", "R"),
  Y: colour("yellow", "Y"),
  G: colour("green", "G"),
  B: colour("blue", "B"),
  // UNO Flip!'s dark side (RULES-MODERN.md A1: P T O V)
  P: colour("pink", "P"),
  T: colour("teal", "T"),
  O: colour("orange", "O"),
  V: colour("purple", "V"),
};
export const COLOR_KEYS = ["R", "Y", "G", "B"];

// A hand in the order players sort theirs (issue 49: it came in the server's order):
// by colour (red, yellow, green, blue; the dark side's pink, teal, orange, purple),
// numbers before actions, wilds last; or by number (0-9, then the actions, each in
// colour order), wilds last; cards alike keep their order.
const SORT_COLOURS = "RYGBPTOV";
function handKey(code) {
  const c = code[0] === "W" ? -1 : SORT_COLOURS.indexOf(code[0]);
  const rest = code.slice(1);
  const n = /^\d+$/.test(rest) ? Number(rest) : 100;
  return [c < 0 ? 99 : c, n, rest];
}
export const HAND_SORTS = ["color", "number", "arrival"];
/** The hand's display order, as indexes into ``codes`` (the server's order, which is
 * sorted: the order of the deal is not sent): by colour, by number, or ``arrival`` (in
 * the order the cards came, ``arrived`` as codes: the newest last); ``own`` (an order
 * the player arranged, as codes) comes first when given, and cards it does not hold
 * yet (drawn since) go last, in the server's order. */
export function handOrder(codes, by = "color", own = null, arrived = null) {
  const first = own || (by === "arrival" ? arrived || [] : null);
  if (first) {
    const left = codes.map((_, i) => i);
    const out = [];
    for (const code of first) {
      const at = left.findIndex((i) => codes[i] === code);
      if (at >= 0) out.push(...left.splice(at, 1));
    }
    return out.concat(left);
  }
  const keys = codes.map(handKey);
  const text = (a, b) => (keys[a][2] < keys[b][2] ? -1 : keys[a][2] > keys[b][2] ? 1 : 0);
  const wild = (a) => (keys[a][0] === 99 ? 1 : 0);
  const cmp = by === "number"
    ? (a, b) => wild(a) - wild(b) || keys[a][1] - keys[b][1] || text(a, b) || keys[a][0] - keys[b][0] || a - b
    : (a, b) => keys[a][0] - keys[b][0] || keys[a][1] - keys[b][1] || text(a, b) || a - b;
  return codes.map((_, i) => i).sort(cmp);
}
export const DARK_KEYS = ["P", "T", "O", "V"];

// Symbols are drawn by the page (icon(), inline SVG): no font on the machine needs to
// have them (no emoji font is assumed).  ``sym``/``corner`` are text, ``icon`` a drawing.
// Their names are the locales' "cards.<code>" keys (i18n.js).
const WILDS = {
  W: { sym: "W", corner: "W" },
  "W+4": { sym: "+4", corner: "+4" },
  WSWAP: { icon: "swap", corner: "SW" },
  WSHUF: { icon: "shuffle", corner: "SH" },
  WCUST: { icon: "star", cornerIcon: "star" },
  // UNO Flip!
  "W+2": { sym: "+2", corner: "+2" },
  "W+C": { sym: "+C", corner: "+C", dark: true },
  // No Mercy
  "WR+4": { sym: "+4", corner: "R+4" },
  "W+6": { sym: "+6", corner: "+6" },
  "W+10": { sym: "+10", corner: "+10" },
  WCR: { icon: "roulette", cornerIcon: "roulette" },
};
const ACTIONS = {
  S: { icon: "skip", cornerIcon: "skip" },
  R: { icon: "reverse", cornerIcon: "reverse" },
  "+2": { sym: "+2", corner: "+2" },
  // UNO Flip!
  "+1": { sym: "+1", corner: "+1" },
  "+5": { sym: "+5", corner: "+5" },
  F: { icon: "flip", cornerIcon: "flip" },
  SE: { icon: "skipall", cornerIcon: "skipall" },
  // No Mercy
  "+4": { sym: "+4", corner: "+4" },
  DA: { icon: "discardall", cornerIcon: "discardall" },
};

const SVG = "http://www.w3.org/2000/svg";
// 24x24 drawings in the current text colour
const ICONS = {
  skip: [["circle", { cx: 12, cy: 12, r: 8.5 }], ["path", { d: "M6 18 18 6" }]],
  reverse: [["path", { d: "M4 9h13m-4-4 4 4-4 4" }], ["path", { d: "M20 15H7m4-4-4 4 4 4" }]],
  swap: [["path", { d: "M4 8h15m-4-4 4 4-4 4" }], ["path", { d: "M20 16H5m4-4-4 4 4 4" }]],
  shuffle: [["path", { d: "M3 7h4l10 10h4m-3-3 3 3-3 3" }], ["path", { d: "M3 17h4L17 7h4m-3-3 3 3-3 3" }]],
  star: [["path", { d: "m12 3 2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 16.8l-5.4 2.9 1.1-6.1-4.5-4.2 6.1-.8z", fill: "currentColor" }]],
  clock: [["circle", { cx: 12, cy: 13, r: 8 }], ["path", { d: "M12 9v4l3 2M9 2h6M12 2v3" }]],
  cw: [["path", { d: "M19 12a7 7 0 1 1-2.05-4.95" }], ["path", { d: "M19 3v5h-5" }]],
  ccw: [["path", { d: "M5 12a7 7 0 1 0 2.05-4.95" }], ["path", { d: "M5 3v5h5" }]],
  turn: [["path", { d: "M7 4v16l13-8z", fill: "currentColor" }]],
  keys: [["rect", { x: 2, y: 6, width: 20, height: 12, rx: 2 }], ["path", { d: "M6 10h1m3 0h1m3 0h1m3 0h1M7 14h10" }]],
  rules: [["path", { d: "M6 3h9l4 4v14H6z" }], ["path", { d: "M9 10h7M9 14h7M9 18h4" }]],
  // a card turning over: two faces and the arrow between them
  flip: [["rect", { x: 3, y: 8, width: 8, height: 12, rx: 1.5 }], ["rect", { x: 13, y: 8, width: 8, height: 12, rx: 1.5 }], ["path", { d: "M7 5.5c2-3 8-3 10 0m0 0-.5-3.5m.5 3.5-3.5.5" }]],
  skipall: [["circle", { cx: 9, cy: 12, r: 6.5 }], ["circle", { cx: 15, cy: 12, r: 6.5 }], ["path", { d: "M4 18 20 6" }]],
  discardall: [["rect", { x: 4, y: 8, width: 10, height: 13, rx: 1.5 }], ["path", { d: "M8 5h10v13" }], ["path", { d: "M11 2h10v13" }]],
  roulette: [["circle", { cx: 12, cy: 12, r: 9 }], ["path", { d: "M12 3v18M3 12h18" }], ["circle", { cx: 12, cy: 12, r: 2.5, fill: "currentColor" }]],
  sound: [["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }], ["path", { d: "M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11" }]],
  mute: [["path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }], ["path", { d: "m16 9 6 6m0-6-6 6" }]],
  side: [["path", { d: "M12 3a9 9 0 1 0 0 18z", fill: "currentColor" }], ["circle", { cx: 12, cy: 12, r: 9 }]],
  // two links of a chain (Copy link, where a phone has no room for the words)
  link: [["path", { d: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" }], ["path", { d: "M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" }]],
};

/** An icon drawn by the page (inline SVG), hidden from screen readers. */
export function icon(name, cls = "") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}${cls ? " " + cls : ""}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2.4");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  for (const [tag, attrs] of ICONS[name] || []) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    svg.append(el);
  }
  return svg;
}

/** {color: "R"|"Y"|"G"|"B"|null, rank, name, short, sym|icon, corner|cornerIcon, wild}
 * for a card code; ``short`` names the rank alone ("Skip", "7"). */
export function parseCard(code) {
  if (WILDS[code]) {
    const w = WILDS[code];
    const name = t(`cards.${code}`);
    return { code, color: null, rank: code, wild: true, name, short: name, ...w };
  }
  if (typeof code !== "string" || !code) return { code, color: null, rank: "", wild: false, name: t("cards.unknown"), short: "?", sym: "?", corner: "?" };
  const color = code[0];
  const rank = code.slice(1);
  const c = COLORS[color];
  if (!c) return { code, color: null, rank: code, wild: false, name: code, short: code, sym: "?", corner: "?" };
  const a = ACTIONS[rank];
  if (a) {
    const short = t(`cards.${rank}`);
    return { code, color, rank, wild: false, ...a, name: t("cards.colored", { color: c.label, rank: short }), short };
  }
  return { code, color, rank, wild: false, name: t("cards.colored", { color: c.label, rank }), short: rank, sym: rank, corner: rank };
}

export function cardName(code) {
  return parseCard(code).name;
}

/** A colour's name in running text ("red"), in the page's language. */
export function colorName(key) {
  return t(`colorName.${COLORS[key] ? key : "none"}`);
}

/** Whether a face belongs to UNO Flip!'s dark side by itself (a dark colour, or Wild
 * Draw Colour); a plain Wild is on both sides, and takes the side it is shown on. */
export function isDarkFace(code) {
  const c = parseCard(code);
  return c.wild ? !!c.dark : DARK_KEYS.includes(c.color);
}

function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  if (typeof text === "string") s.textContent = text;
  else if (text) s.append(text);
  return s;
}

/**
 * A card face.  ``tag`` "button" for a card in your hand, else a role="img" span.
 * ``dark``: a face of UNO Flip!'s dark side (a black border, the dark colours); a
 * dark colour or Wild Draw Colour is dark by itself.  ``other``: the face is the other
 * side of a card (an opponent's card, the draw pile's top), said in its label.
 * Only codes go in; names are not user text, but textContent is used all the same.
 */
export function cardFace(code, { tag = "span", size = "", dark = false, other = false } = {}) {
  const c = parseCard(code);
  const el = document.createElement(tag);
  el.className = `card ${c.wild ? "c-W" : "c-" + c.color}${size ? " card-" + size : ""}`;
  if (c.wild) el.classList.add("wild");
  if (dark || isDarkFace(code)) el.classList.add("dark");
  if (other) el.classList.add("other-face");
  if (c.sym && c.sym.length > 1 && !c.wild) el.classList.add("wide-sym");
  if (c.sym && c.sym.length > 2) el.classList.add("wider-sym");
  el.dataset.card = code;
  if (tag === "span") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", other ? t("cards.otherSide", { card: c.name }) : c.name);
  }
  const inner = span("card-inner");
  inner.setAttribute("aria-hidden", "true");
  inner.append(
    span("corner tl", c.cornerIcon ? icon(c.cornerIcon) : c.corner),
    span("oval", ""),
    span("sym", c.icon ? icon(c.icon) : c.sym),
    span("corner br", c.cornerIcon ? icon(c.cornerIcon) : c.corner),
    span("cletter", c.wild ? "W" : c.color),
  );
  el.append(inner);
  return el;
}

/** A face-down card (for counts). */
export function cardBack(size = "") {
  const el = span(`card back${size ? " card-" + size : ""}`);
  el.setAttribute("aria-hidden", "true");
  const inner = span("card-inner");
  inner.append(span("back-logo", "UNO"));
  el.append(inner);
  return el;
}
