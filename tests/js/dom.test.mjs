// dom.js: vnodes, and a patch that keeps what did not change (the focus, a half-typed
// line, an open <details> stay because their elements do).

import assert from "node:assert/strict";
import { test } from "node:test";

import { dom, h, mount, patch } from "../../src/unokit/web/dom.js";
import { install } from "./fakedom.mjs";

const document = install();
const root = () => document.createElement("main");

test("h() makes plain vnodes: text as a kid, no null kids", () => {
  const v = h("p", { class: "x", text: "hi" }, null, false, ["a", ["b"]], 3);
  assert.deepEqual(v, { tag: "p", attrs: { class: "x" }, kids: ["hi", "a", "b", "3"] });
});

test("a patch that changes only a text keeps the element and its text node", () => {
  const main = root();
  patch(main, h("div", { id: "turn" }, h("span", { class: "turn-text", text: "Ben's turn" })));
  const div = main.childNodes[0];
  const span = div.childNodes[0];
  const textNode = span.childNodes[0];
  patch(main, h("div", { id: "turn" }, h("span", { class: "turn-text", text: "Your turn" })));
  assert.equal(main.childNodes[0], div);
  assert.equal(div.childNodes[0], span);
  assert.equal(span.childNodes[0], textNode);
  assert.equal(span.textContent, "Your turn");
});

test("keyed kids keep their elements when others come, go and move", () => {
  const main = root();
  const list = (keys) => h("ul", {}, keys.map((k) => h("li", { key: k, text: k })));
  patch(main, list(["a", "b", "c"]));
  const [a, b, c] = main.childNodes[0].childNodes;
  patch(main, list(["c", "new", "a"]));
  const now = main.childNodes[0].childNodes;
  assert.deepEqual(now.map((n) => n.textContent), ["c", "new", "a"]);
  assert.equal(now[0], c);
  assert.equal(now[2], a);
  assert.ok(!now.includes(b));
  assert.equal(b.parentNode, null);
});

test("a new tag at a place is a new element; removed attributes go", () => {
  const main = root();
  patch(main, h("p", { class: "a", "aria-disabled": "true" }));
  const p = main.childNodes[0];
  patch(main, h("p", { class: "b" }));
  assert.equal(main.childNodes[0], p);
  assert.equal(p.getAttribute("class"), "b");
  assert.equal(p.getAttribute("aria-disabled"), null);
  patch(main, h("div", { class: "b" }));
  assert.notEqual(main.childNodes[0], p);
});

test("a handler swapped by a patch is the one called, through one listener", () => {
  const main = root();
  const got = [];
  patch(main, h("button", { onclick: () => got.push(1) }));
  const b = main.childNodes[0];
  patch(main, h("button", { onclick: () => got.push(2) }));
  b.dispatch("click");
  assert.deepEqual(got, [2]);
  assert.equal(b.listeners.click.length, 1);
});

test("an element made elsewhere (a card face) is made once per key; its classes add", () => {
  const main = root();
  let made = 0;
  const card = (code, cls) => dom(`face:${code}`, () => {
    made++;
    const el = document.createElement("span");
    el.setAttribute("class", "card");
    return el;
  }, { class: cls }, { card: code });
  patch(main, h("div", {}, card("R5", "playable")));
  const el = main.childNodes[0].childNodes[0];
  patch(main, h("div", {}, card("R5", "dim")));
  assert.equal(made, 1);
  assert.equal(main.childNodes[0].childNodes[0], el);
  assert.deepEqual(el.classes(), ["card", "dim"]);
  patch(main, h("div", {}, card("G7", "dim")));
  assert.equal(made, 2);
});

test("props follow the vnode whatever the user did; attributes the user changed stay", () => {
  const main = root();
  patch(main, h("input", { type: "range", props: { value: "3" } }));
  const input = main.childNodes[0];
  assert.equal(input.value, "3");
  input.value = "7"; // the user dragged it; the next frame puts it where the game is
  patch(main, h("input", { type: "range", props: { value: "4" } }));
  assert.equal(input.value, "4");
  const m2 = root();
  patch(m2, h("details", { open: null }));
  const d = m2.childNodes[0];
  d.setAttribute("open", ""); // opened by the user: the same vnode again leaves it open
  patch(m2, h("details", { open: null }));
  assert.equal(d.getAttribute("open"), "");
});

test("svg kids are made in the SVG namespace", () => {
  const el = mount(h("svg", {}, h("line", { x1: 0 })));
  assert.equal(el.namespaceURI, "http://www.w3.org/2000/svg");
  assert.equal(el.childNodes[0].namespaceURI, "http://www.w3.org/2000/svg");
});
