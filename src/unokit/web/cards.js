// Cards: codes (R7, YS, G+2, BR, W, W+4, WSWAP, WSHUF, WCUST) to names, symbols and DOM.
// RULES.md §1 has the table.  Every card shows its colour as a letter too (colour-blind
// players), and its name is its accessible label.

export const COLORS = {
  R: { name: "red", label: "Red" },
  Y: { name: "yellow", label: "Yellow" },
  G: { name: "green", label: "Green" },
  B: { name: "blue", label: "Blue" },
};
export const COLOR_KEYS = ["R", "Y", "G", "B"];

// Symbols are drawn by the page (icon(), inline SVG): no font on the machine needs to
// have them (no emoji font is assumed).  ``sym``/``corner`` are text, ``icon`` a drawing.
const WILDS = {
  W: { name: "Wild", short: "Wild", sym: "W", corner: "W" },
  "W+4": { name: "Wild Draw Four", short: "Wild Draw Four", sym: "+4", corner: "+4" },
  WSWAP: { name: "Wild Swap Hands", short: "Wild Swap Hands", icon: "swap", corner: "SW" },
  WSHUF: { name: "Wild Shuffle Hands", short: "Wild Shuffle Hands", icon: "shuffle", corner: "SH" },
  WCUST: { name: "Wild Customizable", short: "Wild Customizable", icon: "star", cornerIcon: "star" },
};
const ACTIONS = {
  S: { name: "Skip", icon: "skip", cornerIcon: "skip" },
  R: { name: "Reverse", icon: "reverse", cornerIcon: "reverse" },
  "+2": { name: "Draw Two", sym: "+2", corner: "+2" },
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
    return { code, color: null, rank: code, wild: true, ...w };
  }
  const color = code[0];
  const rank = code.slice(1);
  const c = COLORS[color];
  if (!c) return { code, color: null, rank: code, wild: false, name: code, short: code, sym: "?", corner: "?" };
  const a = ACTIONS[rank];
  if (a) return { code, color, rank, wild: false, ...a, name: `${c.label} ${a.name}`, short: a.name };
  return { code, color, rank, wild: false, name: `${c.label} ${rank}`, short: rank, sym: rank, corner: rank };
}

export function cardName(code) {
  return parseCard(code).name;
}

export function colorName(key) {
  return COLORS[key] ? COLORS[key].name : "none";
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
 * Only codes go in; names are not user text, but textContent is used all the same.
 */
export function cardFace(code, { tag = "span", size = "" } = {}) {
  const c = parseCard(code);
  const el = document.createElement(tag);
  el.className = `card ${c.wild ? "c-W" : "c-" + c.color}${size ? " card-" + size : ""}`;
  if (c.wild) el.classList.add("wild");
  if (c.sym && c.sym.length > 1 && !c.wild) el.classList.add("wide-sym");
  el.dataset.card = code;
  if (tag === "span") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", c.name);
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
