// The rules in force, in words (render/rules.js), and the lobby that shows them.

import assert from "node:assert/strict";
import { test } from "node:test";

import { waitingView } from "../../src/unokit/web/render/lobby.js";
import { ruleSentence, rulesInForce, rulesLine, rulesPanel, ruleValue } from "../../src/unokit/web/render/rules.js";
import { find, findAll, hasClass, recorder, RULES, room, text } from "./helpers.mjs";

test("house rules are the options that differ from the official ones, each in a sentence", () => {
  const r = room({ rules: { preset: "classic", options: { hand_size: 5, jump_in: true } }, timer: 30 });
  const got = rulesInForce(r, RULES);
  assert.deepEqual(got.house, [["hand_size", 5], ["jump_in", true]]);
  // the target, the UNO penalty and stacking are always said, unless house rules
  assert.deepEqual(got.always.map(([k]) => k), ["target_score", "uno_penalty", "stacking"]);
  const panel = rulesPanel(r, RULES, recorder());
  const items = findAll(find(panel, "#house-rules"), "li").map(text);
  assert.deepEqual(items, [
    "hand size: Each player is dealt 5 cards.",
    "jump-in: Anyone holding the very card on top may play it out of turn (jump in).",
  ]);
  assert.match(text(panel), /turn timer: 30 s, then the autopilot decides\./);
  assert.match(text(panel), /target score: The game ends when someone reaches 500 points\./);
});

test("no house rules: said so, no list", () => {
  const panel = rulesPanel(room(), RULES, recorder());
  assert.equal(find(panel, "#house-rules"), null);
  assert.match(text(panel), /No house rules: the official rules/);
});

test("a rule's value: the room's own, else its preset's, else the default", () => {
  const rules = { ...RULES, presets: [{ name: "party", game: "classic", description: "", options: { stacking: "progressive" } }] };
  assert.equal(ruleValue("stacking", room({ rules: { preset: "party", options: {} } }), rules), "progressive");
  assert.equal(ruleValue("stacking", room({ rules: { preset: "party", options: { stacking: "off" } } }), rules), "off");
  assert.equal(ruleValue("hand_size", room({ rules: { preset: "party", options: {} } }), rules), 7);
});

test("sentences follow singular and plural, and every value reads", () => {
  assert.equal(ruleSentence("uno_penalty", 1), "Caught not calling UNO: draw 1 card.");
  assert.equal(ruleSentence("uno_penalty", 4), "Caught not calling UNO: draw 4 cards.");
  assert.equal(ruleSentence("stacking", "progressive"), "Draw cards stack: answer with another and the penalties add up for the next player.");
  assert.equal(ruleSentence("some_new_rule", [1, 2]), "some new rule: 1/2.");
  assert.equal(rulesLine(room({ rules: { preset: "party", options: { hand_size: 5, target_score: 100 } } })),
    "Rules: party, with hand size 5 and target score 100. Turn timer: off.");
});

test("the lobby: the host may add a bot at the level picked, and start", () => {
  const r = room({ status: "lobby", seats: [room().seats[0], null, null] });
  const act = recorder();
  const c = { room: r, seat: 0, origin: "http://x", help: false, botLevels: { 2: "hard" } };
  const tree = waitingView(c, act);
  assert.equal(text(find(tree, ".share-link")), "http://x/r/ABC234");
  const adds = findAll(tree, (v) => v.tag === "button" && text(v) === "Add a bot");
  adds[0].attrs.onclick();
  adds[1].attrs.onclick();
  find(tree, "#start-btn").attrs.onclick();
  assert.deepEqual(act.calls, [["msg", { type: "add_bot", seat: 1, level: "normal" }], ["msg", { type: "add_bot", seat: 2, level: "hard" }], ["msg", { type: "start" }]]);
  // a guest sees no host controls
  const guest = waitingView({ ...c, seat: 1 }, recorder());
  assert.equal(find(guest, "#start-btn"), null);
  assert.equal(findAll(guest, (v) => v.tag === "button").length, 0);
});

test("the lobby's ready check and public switch (issue 49): who is ready, my button, the host's switch", () => {
  const [ana, ben] = room().seats;
  const r = room({ status: "lobby", public: true, seats: [{ ...ana, ready: false }, { ...ben, kind: "person", ready: true }, null] });
  const act = recorder();
  const host = waitingView({ room: r, seat: 0, origin: "http://x", help: false, botLevels: {} }, act);
  assert.equal(text(find(host, "#ready-count")), "Ready: 1 of 2 players.");
  const readyTags = findAll(host, (v) => hasClass(v, "tag") && hasClass(v, "ready"));
  assert.equal(readyTags.length, 1);
  find(host, "#ready-btn").attrs.onclick();
  find(host, "#public-switch").attrs.onchange({ currentTarget: { checked: false } });
  assert.deepEqual(act.calls, [["msg", { type: "ready", on: true }], ["msg", { type: "public", on: false }]]);
  assert.equal(find(host, "#public-switch").attrs.props.checked, true);
  // Ben, ready: his button takes it back; he has no switch, and is told the room is public
  const act2 = recorder();
  const guest = waitingView({ room: r, seat: 1, origin: "http://x", help: false, botLevels: {} }, act2);
  assert.equal(find(guest, "#public-switch"), null);
  assert.ok(find(guest, "#public-note"));
  assert.equal(find(guest, "#ready-btn").attrs["aria-pressed"], "true");
  assert.equal(text(find(guest, "#ready-btn")), "I'm ready"); // a toggle: the same words, pressed
  find(guest, "#ready-btn").attrs.onclick();
  assert.deepEqual(act2.calls, [["msg", { type: "ready", on: false }]]);
  // the QR code of the link, drawn by the server
  assert.equal(find(guest, ".qr").attrs.src, "/api/rooms/ABC234/qr.svg");
});

test("a switch the host just flipped stays as chosen until the room says it back (issue 51: CI's unchecked box)", async () => {
  const store = await import("../../src/unokit/web/store.js");
  store.resetRoom("ABC234");
  const lobby = room({ status: "lobby", public: true });
  store.setRoom(lobby);
  const drawn = () => find(waitingView({ room: store.roomShown(), seat: 0, origin: "http://x", help: false, botLevels: {} }, recorder()), "#public-switch").attrs.props.checked;
  store.flipSwitch("public", false);
  assert.equal(drawn(), false);
  // someone else's news comes first: the room still says public, the box stays unchecked
  store.setRoom({ ...lobby, rev: 2 });
  assert.equal(drawn(), false);
  // the room says it back: the room's own value from now on
  store.setRoom({ ...lobby, public: false, rev: 3 });
  assert.deepEqual(store.S.switches, {});
  assert.equal(drawn(), false);
  // spectators' chat: absent means allowed; a refusal drops the choice, the room's value shows
  store.flipSwitch("watch_chat", false);
  assert.equal(store.roomShown().watch_chat, false);
  store.dropSwitches();
  assert.equal(store.roomShown().watch_chat, undefined);
  store.flipSwitch("watch_chat", true);
  store.setRoom({ ...lobby, public: false, rev: 4 }); // no watch_chat field: allowed, said back
  assert.deepEqual(store.S.switches, {});
  store.resetRoom(null);
});
