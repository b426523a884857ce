// Just enough of the DOM for dom.js's mount() and patch() to run in Node: elements,
// text nodes, attributes, dataset, classList, listeners.  Installed as globalThis.document.

class Node {
  constructor(nodeType) {
    this.nodeType = nodeType;
    this.parentNode = null;
    this.childNodes = [];
  }

  appendChild(n) {
    return this.insertBefore(n, null);
  }

  insertBefore(n, ref) {
    if (n.parentNode) n.parentNode.removeChild(n);
    const i = ref ? this.childNodes.indexOf(ref) : -1;
    if (i < 0) this.childNodes.push(n);
    else this.childNodes.splice(i, 0, n);
    n.parentNode = this;
    return n;
  }

  removeChild(n) {
    const i = this.childNodes.indexOf(n);
    if (i >= 0) this.childNodes.splice(i, 1);
    n.parentNode = null;
    return n;
  }

  get textContent() {
    return this.nodeType === 3 ? this.nodeValue : this.childNodes.map((c) => c.textContent).join("");
  }
}

class Text extends Node {
  constructor(text) {
    super(3);
    this.nodeValue = text;
  }
}

class Element extends Node {
  constructor(tag, ns = null) {
    super(1);
    this.tagName = tag.toUpperCase();
    this.namespaceURI = ns;
    this.attributes = new Map();
    this.dataset = {};
    this.listeners = {};
    const el = this;
    this.classList = {
      add: (...cs) => el.setAttribute("class", [...new Set([...el.classes(), ...cs])].join(" ")),
      remove: (...cs) => el.setAttribute("class", el.classes().filter((c) => !cs.includes(c)).join(" ")),
      contains: (c) => el.classes().includes(c),
    };
  }

  classes() {
    return (this.attributes.get("class") || "").split(/\s+/).filter(Boolean);
  }

  setAttribute(k, v) {
    this.attributes.set(k, String(v));
  }

  getAttribute(k) {
    return this.attributes.has(k) ? this.attributes.get(k) : null;
  }

  removeAttribute(k) {
    this.attributes.delete(k);
  }

  addEventListener(type, fn) {
    (this.listeners[type] ||= []).push(fn);
  }

  dispatch(type, e = {}) {
    for (const fn of this.listeners[type] || []) fn({ type, currentTarget: this, target: this, ...e });
  }
}

export function install() {
  globalThis.document = {
    createElement: (tag) => new Element(tag),
    createElementNS: (ns, tag) => new Element(tag, ns),
    createTextNode: (text) => new Text(text),
  };
  return globalThis.document;
}
