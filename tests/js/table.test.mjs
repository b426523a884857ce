// The table's render functions (src/unokit/web/render/table.js): what a player can
// click, what they are told, and what they must never see.

import assert from "node:assert/strict";
import { test } from "node:test";

import { advanceChoice, startChoice } from "../../src/unokit/web/choice.js";
import { clockShown, tableView, turnText } from "../../src/unokit/web/render/table.js";
import { ctx, faces, find, findAll, hasClass, recorder, room, shown, text, view } from "./helpers.mjs";

const handCards = (tree) => findAll(find(tree, ".hand"), (v) => v.tag === "#dom");

test("only the cards view.legal plays are playable, and clicking one plays it", () => {
  const act = recorder();
  const c = ctx();
  const tree = tableView(c, act);
  const cards = handCards(tree);
  assert.deepEqual(cards.map((v) => v.card), ["R5", "G7", "B+2", "W"]);
  const playable = cards.filter((v) => hasClass(v, "playable")).map((v) => v.card);
  assert.deepEqual(playable, ["R5", "W"]);
  for (const v of cards.filter((x) => !hasClass(x, "playable"))) assert.equal(v.attrs["aria-disabled"], "true");
  // a click on Red 5 plays Red 5: the one legal action it stands for
  cards[0].attrs.onclick();
  assert.deepEqual(act.calls, [["clickCard", "R5", 0]]);
  const choice = startChoice(c.st.view.legal, "R5", 0);
  assert.deepEqual(advanceChoice(choice, false), { action: { play: "R5" } });
  // the Wild asks for a colour first, offering those of the legal actions
  const wild = advanceChoice(startChoice(c.st.view.legal, "W", 3), false);
  assert.equal(wild.choice.stage, "color");
  assert.deepEqual(wild.choice.colors, ["R", "Y", "G", "B"]);
  assert.deepEqual(advanceChoice({ ...wild.choice, color: "G" }, false), { action: { play: "W", color: "G" } });
  // a card no legal action plays starts nothing
  assert.equal(startChoice(c.st.view.legal, "G7", 1), null);
});

test("UNO armed picks the legal action that calls it", () => {
  const legal = [{ play: "R5" }, { play: "R5", uno: true }];
  const choice = startChoice(legal, "R5", 0);
  assert.deepEqual(advanceChoice(choice, false).action, { play: "R5" });
  assert.deepEqual(advanceChoice(choice, true).action, { play: "R5", uno: true });
});

test("Draw sends a draw only when drawing is legal", () => {
  const act = recorder();
  find(tableView(ctx(), act), "#draw-btn").attrs.onclick();
  assert.deepEqual(act.calls, [["send", { draw: true }]]);
  const act2 = recorder();
  const tree = tableView(ctx({ view: view({ legal: [{ play: "R5" }] }) }), act2);
  assert.equal(find(tree, "#draw-btn").attrs["aria-disabled"], "true");
  find(tree, "#draw-btn").attrs.onclick();
  find(tree, "#draw-pile").attrs.onclick();
  assert.deepEqual(act2.calls, []);
});

test("a Catch button for the seat that did not call UNO sends that catch", () => {
  const act = recorder();
  const tree = tableView(ctx({ view: view({ current: 1, legal: [{ catch: 2 }], vulnerable: 2, hand_sizes: [4, 6, 1] }) }), act);
  const buttons = findAll(tree, ".catch");
  assert.equal(buttons.length, 1);
  assert.equal(buttons[0].attrs.dataset.key, "catch:2");
  buttons[0].attrs.onclick();
  assert.deepEqual(act.calls, [["send", { catch: 2 }]]);
  assert.match(text(find(tree, (v) => v.attrs?.key === "opp:2")), /1 card, no UNO!/);
});

test("the other players' hands are backs and counts: no card of theirs is drawn", () => {
  const hidden = { 1: ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], 2: ["G1", "B9"] };
  // a live table never shows ``open`` hands (the replay viewer's), even if a message had them
  const c = ctx({ st: { open: hidden } });
  const tree = tableView(c, recorder());
  const opps = find(tree, ".opponents-ring");
  assert.deepEqual(faces(opps), []);
  const backs = findAll(opps, (v) => v.tag === "#dom" && v.card === null);
  assert.equal(backs.length, 6 + 2);
  assert.match(text(find(opps, (v) => v.attrs?.key === "opp:1")), /6/);
  // every face on the page is public: my hand, the discard
  for (const code of faces(tree)) assert.ok(["R5", "G7", "B+2", "W", "R9"].includes(code), code);
  // what the other seats hold does not change my page, whatever it is
  const other = tableView(ctx({ st: { open: { 1: ["W", "W", "W", "W", "W", "W"], 2: ["R1", "R2"] } } }), recorder());
  assert.equal(shown(other), shown(tree));
});

test("turn text for my turn, a bot's turn, a spectator, and a jump-in", () => {
  assert.equal(turnText(view(), view().legal), "Your turn: play a card or draw");
  assert.equal(turnText(view({ current: 1, legal: [] }), []), "Ben's turn");
  assert.equal(turnText(view({ seat: null, hand: [], current: 0, legal: [] }), []), "Ana's turn");
  assert.equal(turnText(view({ current: 1, legal: [{ play: "R9" }] }), [{ play: "R9" }]), "Jump in! You hold the same card as the top one");
  assert.equal(turnText(view({ phase: "round_over", round_winner: 1 }), []), "Ben went out: round over");
  const banner = find(tableView(ctx({ view: view({ current: 2, legal: [] }) }), recorder()), "#turn");
  assert.equal(text(banner), "Cy's turn");
  assert.ok(!hasClass(banner, "mine"));
});

test("the countdown shows for a person's turn, not a bot's, and not to spectators", () => {
  const at = (seat, clockSeat) => ctx({
    view: view({ seat, current: clockSeat, legal: [], hand: seat === null ? [] : view().hand }),
    st: { clock: { seat: clockSeat, left: 12 } }, clockDeadline: 1000 + 12000, seat,
  });
  const timer = (c) => find(tableView(c, recorder()), "#turn-timer");
  assert.equal(text(timer(at(0, 2))), "12\u00a0s"); // Cy, a person: counted down
  assert.equal(timer(at(0, 1)), null); // Ben, a bot
  assert.equal(timer(at(null, 2)), null); // watching
  assert.equal(clockShown({ clock: { seat: 2, left: 5 }, view: view() }, 0, room()), true);
  const auto = room();
  auto.seats[2].autopilot = true;
  assert.equal(clockShown({ clock: { seat: 2, left: 5 }, view: view() }, 0, auto), false);
});

test("a spectator's table has no hand and no buttons to act", () => {
  const c = ctx({ view: view({ seat: null, hand: [], legal: [] }), seat: null });
  const tree = tableView(c, recorder());
  assert.equal(find(tree, ".hand"), null);
  assert.equal(find(tree, "#uno-btn"), null);
  assert.match(text(find(tree, ".spectator")), /You are watching/);
  assert.equal(findAll(find(tree, ".opponents-ring"), "li").length, 3);
});

test("a Wild Draw Four on me: the prompt offers challenge and accept", () => {
  const act = recorder();
  const v = view({ phase: "challenge", wd4_by: 2, top: "W+4", prev_color: "G", pending_total: 4, legal: [{ challenge: true }, { accept: true }] });
  const tree = tableView(ctx({ view: v }), act);
  const prompt = find(tree, "#prompt");
  assert.ok(hasClass(prompt, "active"));
  assert.match(text(prompt), /Cy played a Wild Draw Four on you/);
  find(tree, "#challenge-btn").attrs.onclick();
  find(tree, "#accept-btn").attrs.onclick();
  assert.deepEqual(act.calls, [["send", { challenge: true }], ["send", { accept: true }]]);
});

test("the Keys panel names the colour keys of the side that is up (UNO Flip!'s dark: P, T, O, V)", async () => {
  const { sideView } = await import("../../src/unokit/web/render/side.js");
  const keysOf = (side) => {
    const c = ctx();
    c.help = true;
    c.st.view.side = side;
    const tree = sideView(c, recorder());
    return findAll(find(tree, "#help"), (v) => v.tag === "dt").map(text);
  };
  assert.ok(keysOf(null).includes("R, Y, G, B"));
  assert.ok(keysOf("light").includes("R, Y, G, B"));
  const dark = keysOf("dark");
  assert.ok(dark.includes("P, T, O, V"), dark.join(" | "));
  assert.ok(!dark.includes("R, Y, G, B"));
});

test("UNO Flip!'s draw pile, showing a face, says it is the draw pile; a face-down one needs no word", () => {
  const c = ctx();
  c.st.view.pile_top = "P5";
  c.st.view.side = "light";
  const label = find(tableView(c, recorder()), ".pile-label");
  assert.notEqual(label, null);
  assert.equal(text(label), "Draw pile");
  assert.equal(find(tableView(ctx(), recorder()), ".pile-label"), null);
});

test("the hand is shown sorted: by colour, numbers before actions, wilds last; a click plays that card", () => {
  const act = recorder();
  const c = ctx();
  c.st.view.hand = ["W", "G7", "R5", "B+2", "R1", "YS", "W+4", "G2"];
  c.st.view.legal = [{ play: "R1" }, { play: "W", color: "R" }];
  const cards = handCards(tableView(c, act));
  assert.deepEqual(cards.map((v) => v.card), ["R1", "R5", "YS", "G2", "G7", "B+2", "W", "W+4"]);
  cards[0].attrs.onclick(); // Red 1, the server's fifth card
  assert.deepEqual(act.calls, [["clickCard", "R1", 4]]);
});

test("the hand sorts by colour, by number or as its cards came (issue 49), and the button goes on to the next way", async () => {
  const { handOrder } = await import("../../src/unokit/web/cards.js");
  const hand = ["B3", "W", "R7", "G3", "R+2", "Y0", "W+4", "B7"];
  const by = (mode) => handOrder(hand, mode).map((i) => hand[i]);
  assert.deepEqual(by("color"), ["R7", "R+2", "Y0", "G3", "B3", "B7", "W", "W+4"]);
  assert.deepEqual(by("number"), ["Y0", "G3", "B3", "R7", "B7", "R+2", "W", "W+4"]);
  // in the order the cards came: those known keep their places, new ones go last (the
  // server's hand is sorted: "as dealt" was its sort under another name, found by review)
  const came = ["R7", "W", "B3", "G3"];
  assert.deepEqual(handOrder(hand, "arrival", null, came).map((i) => hand[i]), ["R7", "W", "B3", "G3", "R+2", "Y0", "W+4", "B7"]);
  const act = recorder();
  const tree = tableView(ctx({ handSort: "number" }), act);
  assert.deepEqual(handCards(tree).map((v) => v.card), ["R5", "G7", "B+2", "W"]);
  assert.equal(text(find(tree, "#sort-btn")), "Sort: number");
  assert.equal(find(tree, "#sort-btn").attrs.title, "Your hand is sorted by number; put it in the order its cards came");
  find(tree, "#sort-btn").attrs.onclick();
  assert.deepEqual(act.calls, [["toggleSort"]]);
  // an order of my own: the button says so
  assert.equal(text(find(tableView(ctx({ handSort: "number", handOwn: ["W", "R5"] }), act), "#sort-btn")), "Sort: my order");
});

test("a hand arranged by hand keeps its order, and a card drawn since goes last (issue 49 item 1)", async () => {
  const { handOrder } = await import("../../src/unokit/web/cards.js");
  const hand = ["B3", "W", "R7", "B3"];
  const own = ["R7", "B3", "W", "B3"];
  assert.deepEqual(handOrder(hand, "color", own).map((i) => hand[i]), own);
  // R7 played, a G1 drawn: the rest as arranged, the new card at the end
  const later = ["B3", "G1", "W", "B3"];
  assert.deepEqual(handOrder(later, "color", own).map((i) => later[i]), ["B3", "W", "B3", "G1"]);
  // the store: moved from the order shown; nothing moves past either end
  const store = await import("../../src/unokit/web/store.js");
  store.resetRoom("ABC234");
  store.setHandSort("color");
  assert.equal(store.moveCard(["R7", "B3", "W"], 2, 0), true);
  assert.deepEqual(store.S.handOwn, ["W", "R7", "B3"]);
  assert.equal(store.moveCard(["W", "R7", "B3"], 0, 2), true);
  assert.deepEqual(store.S.handOwn, ["R7", "B3", "W"]);
  assert.equal(store.moveCard(["R7", "B3", "W"], 0, -1), false);
  assert.equal(store.moveCard(["R7", "B3", "W"], 2, 3), false);
  // the order the cards came, kept by the store from state to state: a card drawn last
  store.takeState({ type: "state", game: 1, version: 4, view: view({ hand: ["B3", "R7", "W"] }), events: [] }, 0);
  store.takeState({ type: "state", game: 1, version: 5, view: view({ hand: ["B3", "G1", "R7", "W"] }), events: [] }, 0);
  assert.deepEqual(store.S.arrival, ["B3", "R7", "W", "G1"]);
  store.takeState({ type: "state", game: 1, version: 6, view: view({ hand: ["B3", "G1", "W"] }), events: [] }, 0);
  assert.deepEqual(store.S.arrival, ["B3", "W", "G1"]);
  // a new round's hand is sorted as chosen again; sorting drops my order too
  store.takeState({ type: "state", game: 1, version: 9, view: view({ hand: ["B3", "W", "R7"] }), events: [{ seq: 50, kind: "round_start" }] }, 0);
  assert.equal(store.S.handOwn, null);
  assert.deepEqual(store.S.arrival, ["B3", "W", "R7"]); // the new hand, in the server's order
  store.moveCard(["R7", "B3", "W"], 0, 1);
  store.setHandSort("number");
  assert.equal(store.S.handOwn, null);
  store.setHandSort("color");
  store.resetRoom(null);
  // the cards can be dragged (not in the replay viewer)
  const cards = handCards(tableView(ctx(), recorder()));
  assert.ok(cards.every((c) => c.attrs.draggable === "true" && typeof c.attrs.ondrop === "function"));
});

test("opponents sit around the table in play order from my left (issue 49 item 1)", async () => {
  const { ringSides } = await import("../../src/unokit/web/render/table.js");
  assert.deepEqual([1, 2, 3, 4, 5, 6, 9].map(ringSides), [[0, 1], [1, 0], [1, 1], [1, 2], [1, 3], [2, 2], [3, 3]]);
  const names = ["Ana", "Ben", "Cy", "Dee", "Eve"];
  const tree = tableView(ctx({ view: view({ seat: 2, names, hand_sizes: [5, 5, 4, 5, 5], scores: [0, 0, 0, 0, 0], live: names.map(() => true) }) }), recorder());
  const at = (where) => findAll(find(tree, `.at-${where}`), ".opp").map((v) => v.attrs.dataset.seat);
  // after Cy (seat 2) come Dee (left), Eve and Ana (across), Ben (right, before Cy again)
  assert.deepEqual([at("left"), at("top"), at("right")], [[3], [4, 0], [1]]);
});

test("a first game's hints say what may be played and why, when to call UNO, whom to catch (issue 49 item 5)", async () => {
  const { hints, coachView } = await import("../../src/unokit/web/render/coach.js");
  const said = hints(view());
  assert.equal(said[0], "You may play Red 5 and Wild. A card plays when it has the colour in force (red) or the same number or symbol as the top card (9); a Wild plays on anything.");
  assert.deepEqual(hints(view({ legal: [{ draw: true }] })), ["Nothing in your hand is red or a 9, and you have no Wild: draw a card (D)."]);
  const two = hints(view({ hand: ["R5", "G7"], legal: [{ play: "R5" }, { play: "R5", uno: true }, { draw: true }] }));
  assert.match(two[1], /^Two cards left: press UNO!/);
  assert.deepEqual(hints(view({ current: 1, legal: [{ catch: 2 }], vulnerable: 2 })), ["Cy has one card and did not call UNO: press Catch! and they draw the penalty."]);
  assert.deepEqual(hints(view({ current: 1, legal: [] })), ["Ben is playing. On your turn, the cards you may play light up."]);
  assert.deepEqual(hints(view({ seat: null, legal: [] })), []); // a spectator: nothing
  // shown only with hints on; Hide turns them off
  assert.equal(coachView(ctx({ hints: false }), recorder()), null);
  const act = recorder();
  const box = coachView(ctx({ hints: true }), act);
  find(box, "#hints-off").attrs.onclick();
  assert.deepEqual(act.calls, [["setHints", false]]);
});

test("the discard says who played its top card, and the card comes from their seat (issue 49 item 1)", () => {
  const prev = { view: view({ top: "R9", discard: ["R9"] }) };
  const st = { view: view({ top: "R5", discard: ["R9", "R5"], current: 2 }) };
  const tree = tableView(ctx({ st, prev, lastPlay: { seat: 1, card: "R5" } }), recorder());
  assert.match(text(find(tree, "#played-by")), /played by Ben$/); // after the avatar's initial
  const top = findAll(find(tree, "#discard"), (v) => v.tag === "#dom" && v.card === "R5")[0];
  assert.ok(hasClass(top, "fly-in") && hasClass(top, "from-left"), top.attrs.class); // Ben plays after Ana: her left
  // the start card was played by nobody
  assert.equal(find(tableView(ctx({ lastPlay: null }), recorder()), "#played-by"), null);
});

test("hints follow the rules: a drawn card that must be played, jump-in, over, knocked out (review of issue 49)", async () => {
  const { hints } = await import("../../src/unokit/web/render/coach.js");
  assert.deepEqual(hints(view({ phase: "drawn", drawn: "R5", legal: [{ play: "R5" }] })), ["You drew Red 5: it plays, and the rules say you must play it now."]);
  assert.deepEqual(hints(view({ phase: "drawn", drawn: "W+4", legal: [{ keep: true }] })), ["You drew Wild Draw Four: keep it, and your turn ends."]);
  assert.match(hints(view({ current: 1, legal: [{ play: "R9" }] }))[0], /^You hold the very card on top/);
  assert.deepEqual(hints(view({ phase: "round_over", current: 1, legal: [] })), []);
  assert.deepEqual(hints(view({ live: [false, true, true] })), []);
  // no word of Wilds when none of the cards that play is one
  assert.doesNotMatch(hints(view({ legal: [{ play: "R5" }, { draw: true }] }))[0], /Wild/);
  assert.deepEqual(hints(view({ phase: "start_color", legal: [{ color: "R" }] })), ["The banner above says what your turn asks, and the box under the piles has its buttons."]);
});

test("a Wild Draw Four taken back leaves nobody named under the pile; a repeated reaction is a new line (review)", async () => {
  const store = await import("../../src/unokit/web/store.js");
  store.resetRoom("ABC234");
  store.clearLog();
  const v = view();
  store.takeEvents({ view: v, events: [{ seq: 1, kind: "play", seat: 1, cards: ["W+4"], color: "R" }, { seq: 2, kind: "play", seat: 2, cards: ["W+4"], color: "B" }] }, 0);
  assert.deepEqual(store.S.lastPlay, { seat: 2, card: "W+4" });
  store.takeEvents({ view: v, events: [{ seq: 3, kind: "retract", seat: 2, card: "W+4", color: "R" }] }, 0);
  assert.equal(store.S.lastPlay, null);
  store.clearLog();
  store.addChat({ name: "Ana", seat: 0 }, "gg");
  const first = store.S.log[0].n;
  store.addChat({ name: "Ana", seat: 0 }, "gg");
  assert.equal(store.S.log.length, 1);
  assert.notEqual(store.S.log[0].n, first); // a new line (a new element): read out
  assert.equal(store.S.log[0].text, "Ana: Good game! ×2");
});
