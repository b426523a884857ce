// The page's DOM layer: render functions build plain vnodes with h(), and patch()
// brings the page up to date with them.  A vnode is {tag, attrs, kids}; a string is a
// text node.  Keeping the elements that did not change (rather than building the page
// afresh on every message) keeps the focus, a half-typed chat line, an open <details>,
// a scrolled row, and spares a screen reader the churn.
//
// Two escapes for DOM made elsewhere: a vnode {tag: "#dom", key, make, attrs} stands
// for an element made by make() (cards.js draws the card faces and icons as DOM): it is
// made once per key and kept while the key stays, and its attrs are applied on top (its
// class adds to the made element's own).  A DOM node put among the kids is used as is
// (a form that holds its own state, built once and kept by the controller).

const SVG_NS = "http://www.w3.org/2000/svg";

/** A vnode.  ``text`` is a text kid (user text only ever goes in as text); ``key``
 * names the node among its siblings, so a patch keeps it when siblings come and go. */
export function h(tag, attrs, ...kids) {
  const a = {};
  const flat = [];
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") {
      if (v !== null && v !== undefined && v !== false) flat.push(String(v));
    } else a[k] = v;
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false || kid === true) continue;
    flat.push(typeof kid === "number" ? String(kid) : kid);
  }
  return { tag, attrs: a, kids: flat };
}

/** A vnode for an element another module makes (a card face, an icon): ``key`` says
 * what it shows, so the same key keeps the element.  ``info`` is for tests to read. */
export function dom(key, make, attrs = {}, info = {}) {
  return { tag: "#dom", key, make, attrs, kids: [], ...info };
}

const isNode = (v) => v && typeof v === "object" && typeof v.nodeType === "number";

function keyOf(v) {
  if (typeof v === "string" || isNode(v)) return undefined;
  if (v.tag === "#dom") return "#dom:" + v.key + (v.attrs.key !== undefined ? "|" + v.attrs.key : "");
  if (v.attrs.key !== undefined) return String(v.attrs.key);
  return undefined;
}

// one listener per event type and element, calling the handler of the latest vnode:
// a patch swaps handlers without adding listeners
function listen(el, type, fn) {
  el.__on = el.__on || {};
  if (!(type in el.__on)) el.addEventListener(type, (e) => el.__on[type]?.(e));
  el.__on[type] = fn;
}

// ``props``: DOM properties set whenever they differ from the element's (an input's
// value the user may have moved: the attribute would no longer show)
function setProps(el, props) {
  for (const [p, val] of Object.entries(props || {})) if (el[p] !== val) el[p] = val;
}

function setAttr(el, k, v, old, isDom) {
  if (k === "key" || k === "props") return;
  if (k.startsWith("on")) {
    listen(el, k.slice(2), typeof v === "function" ? v : null);
    return;
  }
  if (k === "vars") {
    // CSS custom properties ("--n"), through the CSSOM: the page's Content Security
    // Policy allows no style attribute
    for (const name of Object.keys(old || {})) if (!v || !(name in v)) el.style.removeProperty(name);
    for (const [name, value] of Object.entries(v || {})) el.style.setProperty(name, String(value));
    return;
  }
  if (k === "dataset") {
    const o = old || {};
    const n = v || {};
    for (const d of Object.keys(o)) if (!(d in n) || n[d] === null || n[d] === undefined) delete el.dataset[d];
    for (const [d, dv] of Object.entries(n)) if (dv !== null && dv !== undefined && String(dv) !== el.dataset[d]) el.dataset[d] = String(dv);
    return;
  }
  if (k === "class" && isDom) {
    // extra classes on a made element: take back the old ones, add the new
    const was = old ? String(old).split(/\s+/).filter(Boolean) : [];
    const now = v ? String(v).split(/\s+/).filter(Boolean) : [];
    for (const c of was) if (!now.includes(c)) el.classList.remove(c);
    for (const c of now) el.classList.add(c);
    return;
  }
  const name = k === "class" ? "class" : k;
  if (v === null || v === undefined || v === false) el.removeAttribute(name);
  else el.setAttribute(name, v === true ? "" : String(v));
}

/** A DOM node for a vnode (and its kids). */
export function mount(v, ns = null) {
  if (typeof v === "string") return document.createTextNode(v);
  if (isNode(v)) return v;
  if (v.tag === "#dom") {
    const el = v.make();
    for (const [k, val] of Object.entries(v.attrs)) setAttr(el, k, val, undefined, true);
    setProps(el, v.attrs.props);
    el.__v = v;
    return el;
  }
  const space = v.tag === "svg" ? SVG_NS : ns;
  const el = space ? document.createElementNS(space, v.tag) : document.createElement(v.tag);
  for (const [k, val] of Object.entries(v.attrs)) setAttr(el, k, val, undefined, false);
  for (const kid of v.kids) el.appendChild(mount(kid, space));
  setProps(el, v.attrs.props);
  el.__v = v;
  return el;
}

function sameKind(node, v) {
  if (typeof v === "string") return node.nodeType === 3;
  if (isNode(v)) return node === v;
  const old = node.__v;
  if (!old || node.nodeType !== 1) return false;
  if (v.tag === "#dom") return old.tag === "#dom" && old.key === v.key;
  return old.tag === v.tag;
}

function update(node, v, ns) {
  if (typeof v === "string") {
    if (node.nodeValue !== v) node.nodeValue = v;
    return node;
  }
  if (isNode(v)) return node;
  const old = node.__v;
  const isDom = v.tag === "#dom";
  for (const k of Object.keys(old.attrs)) if (!(k in v.attrs)) setAttr(node, k, null, old.attrs[k], isDom);
  for (const [k, val] of Object.entries(v.attrs)) {
    if (k.startsWith("on") || old.attrs[k] !== val || ((k === "dataset" || k === "vars") && JSON.stringify(old.attrs[k]) !== JSON.stringify(val)))
      setAttr(node, k, val, old.attrs[k], isDom);
  }
  node.__v = v;
  if (!isDom) patchKids(node, v.kids, v.tag === "svg" ? SVG_NS : ns);
  setProps(node, v.attrs.props);
  return node;
}

/** Bring ``parent``'s children up to ``kids`` (vnodes): a keyed kid keeps its element
 * wherever it moves, an unkeyed one the element at its place if of the same tag. */
export function patchKids(parent, kids, ns = null) {
  const old = [...parent.childNodes];
  const byKey = new Map();
  for (const n of old) {
    const k = n.__v ? keyOf(n.__v) : undefined;
    if (k !== undefined && !byKey.has(k)) byKey.set(k, n);
  }
  // the DOM nodes given as kids are theirs: no vnode may take one over
  const used = new Set(kids.filter(isNode));
  const nodes = [];
  let pos = 0;
  for (const v of kids) {
    const k = keyOf(v);
    let node = null;
    if (isNode(v)) node = v;
    else if (k !== undefined) {
      const cand = byKey.get(k);
      if (cand && !used.has(cand) && sameKind(cand, v)) node = cand;
    } else {
      // the next unused unkeyed old node, if of the same kind
      while (pos < old.length && (used.has(old[pos]) || (old[pos].__v && keyOf(old[pos].__v) !== undefined))) pos++;
      if (pos < old.length && sameKind(old[pos], v)) node = old[pos++];
    }
    if (node && !isNode(v)) update(node, v, ns);
    else if (!node) node = mount(v, ns);
    used.add(node);
    nodes.push(node);
  }
  for (const n of old) if (!used.has(n) && n.parentNode === parent) parent.removeChild(n);
  nodes.forEach((n, i) => {
    const at = parent.childNodes[i];
    if (at !== n) parent.insertBefore(n, at || null);
  });
}

/** Make ``parent`` show ``vnode`` (a vnode or a list of them), keeping what it can. */
export function patch(parent, vnode) {
  patchKids(parent, Array.isArray(vnode) ? vnode.flat(Infinity).filter((x) => x !== null && x !== undefined && x !== false) : [vnode]);
}

/** A DOM element at once (for the forms that hold their own state, and one-off nodes). */
export function el(tag, attrs, ...kids) {
  return mount(h(tag, attrs, ...kids));
}
