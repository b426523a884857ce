// The table: the other players, the piles, whose turn it is, the prompt for a choice,
// my hand.  The live table and the replay viewer both draw it with tableView().  Pure:
// a context in (the state message, the room, my pending choice, the clock), a vnode
// tree out; every button calls ``act`` (act.send(action) for an action of view.legal),
// so what a click would do can be tested without a browser.

import { cardName, colorName, COLOR_KEYS, COLORS, handOrder } from "../cards.js";
import { h } from "../dom.js";
import { t, tn, tNodes } from "../i18n.js";
import { avatar } from "./avatar.js";
import { coachView } from "./coach.js";
import { challengedCard, challengeWords, drawWords, outWords, startColorWords, viewGame } from "./game.js";
import { back, canArmUno, face, ic, isMyTurn, keyHint, legalOf, OVER, secondsLeft } from "./parts.js";
import { ruleValue } from "./rules.js";
import { reactBubble, sideView } from "./side.js";
import { summaryView, wonText } from "./summary.js";

/**
 * The whole table.  ``ctx``: {st (the state message), prev (the one before, for the
 * animations; null when none), room, rules (/api/rules), seat (mine, null watching),
 * code, replay (null live; {view} in the replay viewer), choice, unoArmed, flipNote,
 * reacts, now, clockDeadline, nextRoundAt, summaryHidden, and the side column's: log,
 * revealed, help, rulesOpen, watchers, watchName, toolsOpen}.
 */
export function tableView(ctx, act) {
  const { st, prev } = ctx;
  const v = st.view;
  const me = v.seat; // null: watching
  const n = v.names.length;
  const myTurn = isMyTurn(v);
  const flipNote = ctx.flipNote && ctx.now < ctx.flipNote.until ? ctx.flipNote : null;

  // opponents, in play order from my left
  const order = [];
  const start = me === null ? 0 : me + 1;
  for (let k = 0; k < n; k++) {
    const s = (start + k) % n;
    if (s !== me) order.push(s);
  }
  // seated around the table (issue 49 item 1): the next to play on my left (from me
  // upwards), then across the top, then down my right; on a phone, one row in play order
  const [left, top] = ringSides(order.length);
  // where each seat sits, for the cards' motion: a played card comes from its player
  const where = { [me]: "bottom" };
  order.forEach((s, i) => (where[s] = i < left ? "left" : i < left + top ? "top" : "right"));
  const side = (where, seats) => h("ul", { class: `opponents at-${where}`, key: `opponents-${where}` }, seats.map((s) => opponentView(s, ctx, act)));
  // focusable when it scrolls sideways (a phone), set by the page (app.js withRowScroll)
  const opps = h("div", { class: "opponents-ring", key: "opponents", role: "group", "aria-label": t("table.others") },
    side("left", order.slice(0, left)), side("top", order.slice(left, left + top)), side("right", order.slice(left + top)));

  const bannerText = turnText(v, legalOf(st), ctx.room, ctx.rules);
  // the turn timer counts down a person's decision, as the server times it (its
  // ``clock``): not a bot's, and not for spectators, who cannot act
  const banner = h("div", { class: `turn-banner${myTurn ? " mine" : ""}`, id: "turn", key: "turn" },
    h("span", { class: "turn-text", text: bannerText }),
    clockShown(st, ctx.seat, ctx.room)
      ? [" ", h("span", { class: "turn-timer", id: "turn-timer", "aria-hidden": "true" }, ic("clock"), h("span", { class: "tt-left", text: timerText(ctx.clockDeadline, ctx.now) }))]
      : null);
  const note = flipNote
    ? h("div", { class: `flip-note ${flipNote.side}`, id: "flip-note", key: "flip-note", role: "status" }, t(`table.flipNote.${flipNote.side === "dark" ? "dark" : "light"}`))
    : null;
  const stage = h("div", { class: "stage", key: "stage" }, centerView(ctx, act, where), promptView(ctx, act));
  const mine = me === null ? spectatorBar(ctx) : myArea(ctx, act);

  const phaseOver = OVER.includes(v.phase);
  const ended = ctx.room?.status === "over" && v.phase !== "game_over";
  const summary = summaryShown(ctx) ? summaryView(st, ctx, act, ended) : null;
  const table = h("section", { class: "table", key: "table", "aria-labelledby": "table-h" },
    h("h1", { class: "visually-hidden", id: "table-h", key: "table-h", text: ctx.replay ? t("table.headingReplay") : t("table.heading", { code: ctx.code }) }),
    opps, banner, note, coachView(ctx, act), stage, mine,
    phaseOver && ctx.summaryHidden ? h("button", { class: "btn", type: "button", id: "show-summary", key: "show-summary", text: t("table.showScores"), onclick: () => act.showSummary() }) : null);
  return h("div", {
    class: `table-wrap force-${v.color || "none"}${myTurn ? " my-turn" : ""}${v.side ? " side-" + v.side : ""}${flipNote?.fresh ? " flipping" : ""}`,
    dataset: { game: v.game || "classic" }, key: "table-wrap",
  }, table, sideView(ctx, act), summary);
}

/** How many opponents sit on my left and across the top (the rest on my right): one
 * across from me; two, one each side; then up to a third of them on each side. */
export function ringSides(n) {
  const each = n <= 1 ? 0 : n <= 3 ? 1 : Math.ceil((n - 2) / 3);
  return [each, n - 2 * each];
}

/** Whether the round summary is up: a round or the game over (or ended by the host),
 * unless the user chose to see the table. */
export function summaryShown(ctx) {
  const v = ctx.st.view;
  const ended = ctx.room?.status === "over" && v.phase !== "game_over";
  return !ctx.summaryHidden && (ended || OVER.includes(v.phase));
}

// centre: draw pile, discard, colour in force, direction, turn
function centerView(ctx, act, where = {}) {
  const { st, prev } = ctx;
  const v = st.view;
  const drawLegal = legalOf(st).find((a) => a.draw);
  const pile = h("button", {
    class: "pile drawpile", type: "button", id: "draw-pile", dataset: { key: "draw-pile" },
    "aria-label": v.pile_top
      ? tn(drawLegal ? "table.pileOtherDraw" : "table.pileOther", v.draw_pile, { card: cardName(v.pile_top) })
      : tn(drawLegal ? "table.pileDraw" : "table.pile", v.draw_pile),
    "aria-disabled": drawLegal ? null : "true",
    onclick: () => (drawLegal ? act.send({ draw: true }) : null),
  }, v.pile_top
    // UNO Flip!: the draw pile's top card shows its other face to everyone (FLIP-VIEW-3)
    ? face(v.pile_top, { size: "lg", dark: v.side === "light", other: true })
    : back("lg"), h("span", { class: "pile-count", text: String(v.draw_pile) }),
  // a face-up card on the draw pile read as a second discard (issue 49): it says what it is
  v.pile_top ? h("span", { class: "pile-label", "aria-hidden": "true", text: t("table.pileLabel") }) : null);
  const flyIn = prev && prev.view.top !== v.top && prev.view.discard.length !== v.discard.length;
  // the top card's player, if it was played this round (not the start card)
  const by = ctx.lastPlay && ctx.lastPlay.card === v.top ? ctx.lastPlay.seat : null;
  const from = by !== null && where[by] ? ` from-${where[by]}` : "";
  const topEl = v.top ? face(v.top, { size: "lg", dark: v.side === "dark" }, { class: flyIn ? `fly-in${from}` : null }) : h("span", { class: "card card-lg empty" });
  const discard = h("div", { class: "pile discardpile", id: "discard" },
    h("span", { class: "discard-under", "aria-hidden": "true" }),
    topEl,
    by !== null && v.names[by] ? h("span", { class: "played-by", id: "played-by", key: "played-by" },
      avatar(v.names[by], ctx.room?.seats[by]?.color, 16), h("span", { text: by === v.seat ? t("table.playedByYou") : t("table.playedBy", { name: v.names[by] }) })) : null);
  const force = v.color
    ? h("div", { class: `force-chip fc-${v.color}`, id: "color-in-force", key: "force", role: "status", "aria-label": t("table.colorInForce", { color: colorName(v.color) }) },
        h("span", { class: "swatch", "aria-hidden": "true", text: v.color }),
        h("span", { class: "force-text" }, h("small", { text: t("table.colour") }), h("b", { text: colorName(v.color).toLocaleUpperCase() })))
    : h("div", { class: "force-chip fc-none", id: "color-in-force", key: "force-none", text: t("table.colourToChoose") });
  const dir = h("div", { class: "direction", id: "direction", key: "direction", role: "img", "aria-label": v.direction > 0 ? t("table.cwLabel") : t("table.ccwLabel") },
    h("span", { class: `dir-arrow ${v.direction > 0 ? "cw" : "ccw"}`, "aria-hidden": "true" }, ic(v.direction > 0 ? "cw" : "ccw")),
    h("span", { class: "dir-text", text: v.direction > 0 ? t("table.cw") : t("table.ccw") }));
  // UNO Flip!: which side is up; No Mercy: the cards of knocked-out hands set aside
  const sideChip = v.side
    ? h("div", { class: `side-chip ${v.side}`, id: "side-up", key: "side-up", role: "status", "aria-label": t(`table.sideUpLabel.${v.side === "dark" ? "dark" : "light"}`) },
        ic("side"), h("span", { text: t(`table.sideUp.${v.side === "dark" ? "dark" : "light"}`) }))
    : null;
  const aside = v.aside ? h("div", { class: "aside-note", id: "aside", key: "aside", text: tn("table.aside", v.aside) }) : null;
  return h("div", { class: "center" }, pile, discard, h("div", { class: "center-side" }, sideChip, force, dir, aside));
}

// the turn timer (off, 15, 30 or 60 s): the autopilot decides when it runs out.  The
// server says how long is left (``clock``) with each state; the page counts from there.
export function clockShown(st, seat, room) {
  const c = st.clock;
  if (!c || seat === null || OVER.includes(st.view.phase)) return false;
  const s = room?.seats[c.seat];
  return !!s && s.kind === "person" && !s.autopilot;
}

export function timerText(deadline, now) {
  const left = secondsLeft(deadline || now, now);
  return left > 0 ? t("common.seconds", { n: left }) : t("common.autopilot");
}

/** The banner's sentence: whose turn, and what they decide. */
export function turnText(v, legal, room = null, rules = null) {
  const myTurn = isMyTurn(v);
  const game = viewGame(v, rules); // the game's words (prompts.start_color, .challenge)
  if (v.phase === "game_over") return v.game_winner !== null ? wonText("turn.gameOverWon", v, v.game_winner, room, rules) : t("turn.gameOver");
  if (v.phase === "round_over") {
    if (v.round_winner === null) return t("turn.roundOver");
    return v.round_winner === v.seat ? t("turn.wentOut.you") : t("turn.wentOut.other", { name: v.names[v.round_winner] });
  }
  const jump = !myTurn && legal.some((a) => a.play || a.cards);
  if (jump) return t("turn.jumpIn");
  if (myTurn) {
    switch (v.phase) {
      case "start_color": return t(startColorWords(game).mine, { card: cardName(v.top) });
      case "challenge": return t("turn.hitBy", { name: v.names[v.wd4_by], card: cardName(challengedCard(game, v)) });
      case "answer": return t("turn.answer", { card: cardName(v.pending), n: v.pending_total });
      case "drawn": return legal.some((a) => a.keep) ? t("turn.drawnKeep") : t("turn.drawn");
      default: return t("turn.yours");
    }
  }
  const name = v.names[v.current];
  switch (v.phase) {
    case "start_color": return t(startColorWords(game).other, { name, card: cardName(v.top) });
    case "challenge": return t(challengeWords(game).other, { name, card: cardName(challengedCard(game, v)) });
    case "answer": return t("turn.otherAnswer", { name, n: v.pending_total });
    case "drawn": return t("turn.otherDrawn", { name });
    default: return t("turn.other", { name });
  }
}

/** One of the other players: name, score, their cards face down (a count), badges. */
export function opponentView(s, ctx, act) {
  const { st, prev } = ctx;
  const v = st.view;
  const seat = ctx.room?.seats[s];
  const count = v.hand_sizes[s];
  const isTurn = v.current === s && !OVER.includes(v.phase);
  // UNO Flip!: everyone sees the other side of an opponent's cards, in hand order
  // (FLIP-VIEW-2); the server sends them, and never a seat's own other faces
  const others = v.others && v.others[s] && v.others[s].length ? v.others[s] : null;
  const open = ctx.replay && st.open ? st.open[s] : null; // a replay, hands open
  let fanCards;
  if (open) fanCards = open.map((code) => face(code, { size: "sm", dark: v.side === "dark" }));
  else if (others) fanCards = others.map((code) => face(code, { size: "xs", dark: v.side === "light", other: true }));
  else fanCards = Array.from({ length: Math.min(count, 8) }, () => back("xs"));
  const grew = prev && prev.view.hand_sizes[s] < count;
  const fan = h("span", { class: `${others && !open ? "fan other-fan" : "fan"}${open ? " open-fan" : ""}${grew ? " grew" : ""}`, "aria-hidden": "true" }, fanCards);
  const out = outWords(viewGame(v, ctx.rules)); // a seat out of the game: eliminated, knocked out
  const badges = [];
  if (seat?.kind === "bot") badges.push(h("span", { class: "badge bot", text: t("common.bot") }));
  if (seat?.team !== null && seat?.team !== undefined) badges.push(h("span", { class: `badge team t${seat.team}`, text: t("common.teamLower", { n: seat.team + 1 }) }));
  if (seat && seat.kind === "person" && !seat.connected) badges.push(h("span", { class: "badge away", text: t("common.reconnecting") }));
  if (seat?.autopilot) badges.push(h("span", { class: "badge auto", text: t("common.autopilot") }));
  if (!v.live[s]) badges.push(h("span", { class: out.badgeCls, text: t(out.badge) }));
  if (count === 1) badges.push(h("span", { class: `badge uno${v.vulnerable === s ? " uncalled" : ""}`, text: v.vulnerable === s ? t("opp.noUno") : t("common.uno") }));
  const catchA = legalOf(st).find((a) => a.catch === s);
  return h("li", {
    class: `opp${isTurn ? " turn" : ""}${v.live[s] ? "" : " " + out.cls}${seat && !seat.connected ? " away" : ""}`,
    dataset: { seat: s }, key: `opp:${s}`,
    "aria-label": tn("opp.label", count, { name: v.names[s] }) + (isTurn ? t("opp.theirTurn") : "") + (count === 1 ? t("opp.uno") : "")
      + (v.others?.[s]?.length ? t("opp.otherSides", { cards: v.others[s].map(cardName).join(", ") }) : ""),
  },
  h("div", { class: "opp-head" },
    isTurn ? h("span", { class: "turn-mark", key: "turn-mark", "aria-hidden": "true" }, ic("turn")) : null,
    avatar(v.names[s], seat?.color, 24),
    h("span", { class: "opp-name", key: "name", text: v.names[s] }),
    reactBubble(ctx.reacts, String(s), ctx.now),
    h("span", { class: "opp-score", key: "score", text: t("common.pts", { n: v.scores[s] }) })),
  h("div", { class: "opp-cards" }, fan, h("span", { class: "opp-count", text: `${count}` })),
  h("span", { class: "badges" }, badges),
  catchA
    ? h("button", {
        class: "btn catch", type: "button", dataset: { key: `catch:${s}` }, key: "catch",
        "aria-label": t("opp.catchLabel", { name: v.names[s] }),
        onclick: () => act.send({ catch: s }),
      }, keyHint(t("opp.catch")))
    : null);
}

function spectatorBar(ctx) {
  const text = ctx.replay
    ? ctx.replay.view === "open" ? t("me.replayOpen") : t("me.replaySpectator")
    : t("me.watching");
  return h("div", { class: "me spectator", key: "me-spectator" }, h("p", { text }));
}

/** The cards of view.legal's plays (a multi-card play by its first card). */
export function playableCards(legal) {
  const playable = new Set();
  for (const a of legal) {
    if (a.play) playable.add(a.play);
    if (a.cards) playable.add(a.cards[0]);
  }
  return playable;
}

/** My seat: name, score, Draw and UNO, and my hand (a card plays through act.clickCard). */
export function myArea(ctx, act) {
  const { st, prev } = ctx;
  const v = st.view;
  const me = v.seat;
  const myTurn = isMyTurn(v);
  const L = legalOf(st);
  const playable = playableCards(L);
  const prevHand = prev && prev.view.seat === me ? [...(prev.view.hand || [])] : null;
  const counts = {};
  // shown sorted (colour, then number, wilds last); ``i`` stays the card's place in the
  // server's hand, which the choice keeps
  const order = handOrder(v.hand, ctx.handSort, ctx.handOwn, ctx.arrival);
  const cards = order.map((i, pos) => {
    const code = v.hand[i];
    counts[code] = (counts[code] || 0) + 1;
    const ok = playable.has(code);
    const drawn = v.drawn === code && v.phase === "drawn" && myTurn;
    let fresh = false;
    if (prevHand) {
      const at = prevHand.indexOf(code);
      if (at >= 0) prevHand.splice(at, 1);
      else fresh = true;
    }
    const cls = [ok ? "playable" : myTurn || L.some((a) => a.play || a.cards) ? "dim" : "idle", drawn ? "drawn" : "", ctx.choice && ctx.choice.index === i ? "chosen" : "", fresh ? "new" : ""];
    const key = `card:${code}:${counts[code]}`;
    return face(code, { tag: "button", dark: v.side === "dark" }, {
      type: "button", key, class: cls.filter(Boolean).join(" "), dataset: { key, index: String(i) },
      "aria-label": cardName(code) + (drawn ? t("me.cardDrawn") : "") + (ok ? t("me.playable") : t("me.notPlayable")),
      "aria-disabled": ok ? null : "true",
      // arranged by hand: dragged, or Shift+Left/Right with the keyboard (act.handKeys)
      draggable: ctx.replay ? null : "true",
      onclick: () => act.clickCard(code, i),
      onkeydown: (e) => act.handKeys(e),
      ondragstart: (e) => act.dragCard?.(e, key),
      ondragover: (e) => act.dragOver?.(e),
      ondrop: (e) => act.dropCard?.(e, pos),
    });
  });
  // --n: a phone's hand overlaps its cards only as much as its width needs (style.css)
  const hand = h("div", { class: "hand", role: "group", "aria-label": tn("me.hand", v.hand.length), vars: { "--n": v.hand.length } }, cards);
  const unoCall = L.find((a) => a.uno === true && !a.play && !a.cards);
  const canArm = canArmUno(v);
  const armed = !!ctx.unoArmed;
  const uno = h("button", {
    class: `btn uno-btn${armed ? " armed" : ""}${unoCall ? " urgent" : ""}`, type: "button", id: "uno-btn", dataset: { key: "uno" },
    "aria-pressed": canArm ? String(armed) : null,
    "aria-disabled": unoCall || canArm ? null : "true",
    "aria-label": unoCall ? t("me.unoNow") : canArm ? (armed ? t("me.unoArmed") : t("me.unoArm")) : t("me.unoOff"),
    text: t("common.uno"), onclick: () => act.pressUno(),
  });
  const drawA = L.find((a) => a.draw);
  const game = viewGame(v, ctx.rules);
  const drawText = ruleValue("attack_launcher", ctx.room, ctx.rules) ? t("me.launcher") : t(drawWords(game).button);
  const knocked = !v.live[me] ? outWords(game).me : null; // a seat knocked out watches the round
  const buttons = h("div", { class: "my-buttons" },
    h("button", { class: "btn", type: "button", id: "draw-btn", dataset: { key: "draw" }, "aria-disabled": drawA ? null : "true", onclick: () => drawA && act.send({ draw: true }) }, keyHint(drawText)),
    uno);
  const seat = ctx.room?.seats[me];
  const head = h("div", { class: "me-head" },
    h("span", { class: "me-name", key: "name", text: v.names[me] }),
    h("span", { class: "tag you", key: "you", text: t("common.you") }),
    reactBubble(ctx.reacts, String(me), ctx.now),
    seat?.team !== null && seat?.team !== undefined ? h("span", { class: `badge team t${seat.team}`, key: "team", text: t("common.teamLower", { n: seat.team + 1 }) }) : null,
    h("span", { class: "me-score", key: "score", text: t("common.pts", { n: v.scores[me] }) }),
    v.hand.length === 1 ? h("span", { class: `badge uno${v.vulnerable === me ? " uncalled" : ""}`, key: "uno", text: v.vulnerable === me ? t("me.callUno") : t("common.uno") }) : null,
    knocked ? h("span", { class: "badge knocked", key: "knocked", text: t(knocked) }) : null);
  // how the hand is sorted (by colour, by number, as the cards came: remembered here),
  // or "my order" once a card was moved; the button goes on to the next way
  const sortNow = ctx.handOwn ? "own" : ctx.handSort;
  const sort = ctx.replay ? null : h("button", {
    class: "btn small ghost", type: "button", id: "sort-btn", key: "sort", dataset: { sort: sortNow },
    title: t(`me.sorted.${sortNow}`), text: t(`me.sort.${sortNow}`), onclick: () => act.toggleSort?.(),
  });
  // after the hand in the tab order: Draw, UNO and the cards come first
  return h("div", { class: `me${myTurn ? " turn" : ""}`, key: "me" }, h("div", { class: "me-bar" }, head, buttons), hand, sort);
}

// the colours offered: those of the legal actions (UNO Flip!'s dark side: P T O V)
export function colorButtons(onPick, label, keys = COLOR_KEYS) {
  return h("div", { class: "color-pick", role: "group", "aria-label": label, key: "color-pick" },
    keys.map((k) => h("button", {
      class: `btn colorbtn cb-${k}`, type: "button", dataset: { key: `color:${k}`, color: k },
      "aria-label": t("prompt.colourButton", { color: COLORS[k].label, key: k }), onclick: () => onPick(k),
    }, h("span", { class: "cb-letter", "aria-hidden": "true", text: k }), h("span", { text: COLORS[k].label }))));
}

/** The prompt beside the piles: a choice being made (cards together, a colour, whom to
 * swap with), or what my turn asks (a start colour, a challenge, a stack, a drawn card). */
export function promptView(ctx, act) {
  const v = ctx.st.view;
  const myTurn = isMyTurn(v);
  const c = ctx.choice;
  const L = legalOf(ctx.st);
  const game = viewGame(v, ctx.rules); // the game's words for what a phase asks
  // one prompt element from one state to the next: a live region that stays is read out
  const box = (kids) => h("div", { class: kids ? "prompt active" : "prompt", id: "prompt", key: "prompt", "aria-live": "polite" }, kids);
  const cancel = h("button", { class: "btn ghost", type: "button", text: t("common.cancel"), onclick: () => act.cancelChoice() });
  if (c && c.stage === "multi") {
    return box([h("p", { class: "prompt-title", text: t("prompt.multi") }),
      h("div", { class: "choice-row" }, c.seqs.map((sq, i) => h("button", {
        class: "btn", type: "button", dataset: { key: `seq:${sq}` },
        onclick: () => act.pickSeq(sq),
      }, `${i + 1}. `, sq.split("/").map(cardName).join(" + ")))),
      cancel]);
  }
  if (c && c.stage === "color") {
    return box([h("p", { class: "prompt-title", text: t("prompt.chooseColourOf", { card: cardName(c.card) }) }),
      colorButtons((k) => act.pickColor(k), t("prompt.chooseAColour"), c.colors || COLOR_KEYS),
      cancel]);
  }
  if (c && c.stage === "target") {
    return box([h("p", { class: "prompt-title", text: t("prompt.target") }),
      h("div", { class: "choice-row target-pick" }, c.targets.map((s, i) => h("button", {
        class: "btn", type: "button", dataset: { key: `target:${s}` }, onclick: () => act.pickTarget(s),
      }, tn("prompt.targetOption", v.hand_sizes[s], { i: i + 1, name: v.names[s] })))),
      cancel]);
  }
  if (!myTurn) return box(null);
  if (v.phase === "start_color") {
    const keys = [...new Set(L.filter((a) => a.color && !a.play).map((a) => a.color))];
    const title = t(startColorWords(game).prompt, { card: cardName(v.top) });
    return box([h("p", { class: "prompt-title", text: title }), colorButtons((k) => act.startColor(k), t("prompt.chooseTheColour"), keys)]);
  }
  if (v.phase === "challenge" || (v.phase === "answer" && L.some((a) => a.challenge))) {
    const by = v.names[v.wd4_by];
    const ch = challengeWords(game);
    const card = challengedCard(game, v);
    const n = v.pending_total || ch.draws;
    // a Wild Draw Colour (UNO Flip!'s dark side) costs a draw until the colour comes
    const cost = card === "W+C" ? t("prompt.costUntil") : t("prompt.costDraw", { n });
    return box([
      h("p", { class: "prompt-title", text: t("prompt.playedOnYou", { name: by, card: cardName(card) }) }),
      h("p", { class: "hint", text: t(ch.hint, { name: by, cost, color: colorName(v.prev_color), n }) }),
      h("div", { class: "choice-row" },
        h("button", { class: "btn primary", type: "button", id: "challenge-btn", dataset: { key: "challenge" }, onclick: () => act.send({ challenge: true }) }, keyHint(t("prompt.challenge"))),
        h("button", { class: "btn", type: "button", id: "accept-btn", dataset: { key: "accept" }, onclick: () => act.send({ accept: true }) }, keyHint(t("prompt.accept", { cost }))))]);
  }
  if (v.phase === "answer") {
    return box([
      h("p", { class: "prompt-title", text: L.some((a) => a.play || a.cards)
        ? t("prompt.answer", { card: cardName(v.pending), n: v.pending_total })
        : t("prompt.noAnswer", { card: cardName(v.pending), n: v.pending_total }) }),
      h("button", { class: "btn", type: "button", id: "accept-btn", dataset: { key: "accept" }, onclick: () => act.send({ accept: true }) }, keyHint(t("prompt.acceptDraw", { n: v.pending_total })))]);
  }
  if (v.phase === "drawn") {
    const playDrawn = L.find((a) => a.play === v.drawn);
    const keep = L.find((a) => a.keep);
    return box([
      h("p", { class: "prompt-title" }, tNodes(`${drawWords(game).drew}${keep ? "" : "Play"}`,
        { face: face(v.drawn, { size: "sm", dark: v.side === "dark" }), card: cardName(v.drawn) })),
      h("div", { class: "choice-row" },
        playDrawn ? h("button", { class: "btn primary", type: "button", id: "play-drawn-btn", dataset: { key: "play-drawn" }, onclick: () => act.clickCard(v.drawn) }, keyHint(t("prompt.playIt"))) : null,
        keep ? h("button", { class: "btn", type: "button", id: "keep-btn", dataset: { key: "keep" }, onclick: () => act.send({ keep: true }) }, keyHint(t("prompt.keepIt"))) : null)]);
  }
  return box(null);
}
