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

const WILDS = {
  W: { name: "Wild", sym: "W", corner: "W" },
  "W+4": { name: "Wild Draw Four", sym: "+4", corner: "+4" },
  WSWAP: { name: "Wild Swap Hands", sym: "⇄", corner: "SW" },
  WSHUF: { name: "Wild Shuffle Hands", sym: "⤮", corner: "SH" },
  WCUST: { name: "Wild Customizable", sym: "★", corner: "★" },
};
const ACTIONS = {
  S: { name: "Skip", sym: "⊘", corner: "⊘" },
  R: { name: "Reverse", sym: "⇆", corner: "⇆" },
  "+2": { name: "Draw Two", sym: "+2", corner: "+2" },
};

/** {color: "R"|"Y"|"G"|"B"|null, rank, name, sym, corner, wild} for a card code. */
export function parseCard(code) {
  if (WILDS[code]) {
    const w = WILDS[code];
    return { code, color: null, rank: code, wild: true, ...w };
  }
  const color = code[0];
  const rank = code.slice(1);
  const c = COLORS[color];
  if (!c) return { code, color: null, rank: code, wild: false, name: code, sym: "?", corner: "?" };
  const a = ACTIONS[rank];
  if (a) return { code, color, rank, wild: false, name: `${c.label} ${a.name}`, sym: a.sym, corner: a.corner };
  return { code, color, rank, wild: false, name: `${c.label} ${rank}`, sym: rank, corner: rank };
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
  if (text !== undefined) s.textContent = text;
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
  if (c.sym.length > 1 && !c.wild) el.classList.add("wide-sym");
  el.dataset.card = code;
  if (tag === "span") {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", c.name);
  }
  const inner = span("card-inner");
  inner.setAttribute("aria-hidden", "true");
  inner.append(
    span("corner tl", c.corner),
    span("oval", ""),
    span("sym", c.sym),
    span("corner br", c.corner),
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
