// The round summary (a dialog over the table when a round or the game is over), the
// scores by round and the chart of the totals.  Pure: the state message and a context
// in, vnodes out; its buttons call ``act``.

import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { outWords, viewGame } from "./game.js";
import { face, keyHint, secondsLeft, teamScoring } from "./parts.js";
import { ruleValue } from "./rules.js";

/** "Game over: Ana won!" names a team when partners score together. */
export function teamOrName(v, winner, room, rules) {
  if (ruleValue("scoring", room, rules) === "teams") return t("common.team", { n: winner + 1 });
  return winner === v.seat ? t("common.You") : v.names[winner];
}

/** ``key``'s ".you" text when I won (not by a team), else its ".other" with {name}. */
export function wonText(key, v, winner, room, rules) {
  const teams = ruleValue("scoring", room, rules) === "teams";
  return !teams && winner === v.seat ? t(`${key}.you`) : t(`${key}.other`, { name: teamOrName(v, winner, room, rules) });
}

export function nextRoundText(nextRoundAt, now) {
  const left = secondsLeft(nextRoundAt || now, now);
  return left > 0 ? t("summary.nextIn", { n: left }) : t("summary.nextDealing");
}

/**
 * The summary.  ``ctx``: {seat (mine, null watching), room, rules, code, replay (truthy
 * in the replay viewer), nextRoundAt, now}; ``ended``: the host ended the game before
 * its end.  ``act``: msg(message to the server), hideSummary().
 */
export function summaryView(st, ctx, act, ended = false) {
  const { room, rules } = ctx;
  const v = st.view;
  const over = v.phase === "game_over" || ended;
  const target = ruleValue("target_score", room, rules) ?? 500;
  // first-out scoring: one round decides the game (its first out, or No Mercy's last
  // one standing); no points, no target
  const firstOut = ruleValue("scoring", room, rules) === "first-out";
  const out = outWords(viewGame(v, rules)); // a seat out of the game: eliminated, knocked out
  const rows = v.names.map((name, s) => h("tr", { class: s === v.round_winner ? "winner" : "" },
    h("th", { scope: "row", text: s === v.seat ? t("common.youMark", { name }) : name }),
    h("td", {}, (st.hands?.[s] || []).length
      ? h("div", { class: "sum-hand" }, st.hands[s].map((code) => face(code, { size: "xs", dark: v.side === "dark" })))
      : h("span", { class: "went-out", text: s === v.round_winner ? t("summary.wentOutNone") : !v.live[s] && out.summary ? t(out.summary) : t("summary.none") })),
    h("td", { class: "num", text: String(st.points?.[s] ?? 0) }),
    h("td", { class: "num", text: String(v.scores[teamScoring(v) ? room?.seats[s]?.team ?? s % 2 : s]) })));
  const seated = v.seat !== null;
  const host = ctx.seat !== null && ctx.seat === room?.host;
  const replay = !!ctx.replay;
  const buttons = [];
  if (!over && seated && !replay) buttons.push(h("button", { class: "btn primary", type: "button", id: "next-round-btn", onclick: () => act.msg({ type: "next_round" }) }, keyHint(t("summary.nextRound"))));
  if (over && host) {
    buttons.push(h("button", { class: "btn primary", type: "button", id: "rematch-btn", text: t("summary.playAgain"), onclick: () => act.msg({ type: "rematch" }) }));
    // "end" on a finished game: the room goes back to the lobby (seats, bots, a player
    // whose seat went to a bot may take a seat again), then Start the game
    buttons.push(h("button", { class: "btn", type: "button", id: "lobby-btn", text: t("summary.toLobby"), onclick: () => act.msg({ type: "end" }) }));
  }
  if (over && !replay) buttons.push(h("a", { class: "btn", id: "replay-link", href: `/replay?room=${ctx.code}&game=${st.game}`, text: t("summary.watchReplay") }));
  if (over && !replay) buttons.push(h("a", { class: "btn", id: "record-link", href: `/api/rooms/${ctx.code}/record?game=${st.game}`, download: `uno-${ctx.code}-${st.game}.json`, text: t("summary.download") }));
  buttons.push(h("button", { class: "btn ghost", type: "button", id: "hide-summary", text: t("summary.seeTable"), onclick: () => act.hideSummary() }));
  const about = (key, s) => (s === v.seat ? t(`${key}.you`) : t(`${key}.other`, { name: v.names[s] }));
  let title = v.round_winner !== null ? about("summary.wentOut", v.round_winner) : t("summary.roundOver");
  // the Mercy rule knocked out every other seat: the one left holding cards wins
  if (v.round_winner !== null && out.lastLeft && v.live.filter(Boolean).length === 1 && st.hands?.[v.round_winner]?.length)
    title = about("summary.lastLeft", v.round_winner);
  if (over) title = v.game_winner !== null ? wonText("summary.wonGame", v, v.game_winner, room, rules) : t("summary.gameOver");
  if (ended) title = t("summary.hostEnded");
  return h("section", { class: "summary", id: "summary", key: "summary", role: "dialog", "aria-modal": "false", "aria-labelledby": "summary-h" },
    h("h2", { id: "summary-h", text: title }),
    h("p", { class: "hint", text: over
      ? (firstOut ? t("summary.overFirstOut") : tn("summary.overHint", target)) + (replay ? "" : host ? t("summary.overHost") : t("summary.overGuest"))
      : tn("summary.roundHint", target, { round: v.round + 1 }) + (seated && !replay ? t("summary.roundHintNext") : "") }),
    !over && ctx.nextRoundAt ? h("p", { class: "next-round-in", id: "next-round-in", role: "timer", text: nextRoundText(ctx.nextRoundAt, ctx.now) }) : null,
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("summary.player") }), h("th", { scope: "col", text: t("summary.cardsLeft") }), h("th", { scope: "col", text: t("summary.points") }), h("th", { scope: "col", text: t("summary.score") }))),
      h("tbody", {}, rows)),
    firstOut ? null : roundsView(st, room, rules),
    h("div", { class: "choice-row" }, buttons));
}

// ---- scores by round: a table of every round's points, and the totals as a chart --------
export const LINE_COLORS = ["#ffdd57", "#7cc4ff", "#ff8a80", "#8ef0a8", "#d7a6ff", "#ffb74d", "#80deea", "#f48fb1", "#c5e1a5", "#e0e0e0"];

export function roundsView(st, room, rules) {
  const totals = st.totals || [];
  const v = st.view;
  if (!totals.length) return null;
  const labels = teamScoring(v) ? totals[0].map((_, i) => t("common.team", { n: i + 1 })) : v.names.map((n, s) => (s === v.seat ? t("common.You") : n));
  const points = totals.map((t, r) => t.map((x, i) => x - (r ? totals[r - 1][i] : 0)));
  const table = h("table", { class: "scores by-round", id: "by-round" },
    h("caption", { text: t("scores.byRound") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("scores.round") }), labels.map((l) => h("th", { scope: "col", class: "num", text: l })))),
    h("tbody", {}, points.map((row, r) => h("tr", {},
      h("th", { scope: "row", text: String(r + 1) }),
      row.map((x) => h("td", { class: "num", text: x ? `+${x}` : "0" }))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: t("scores.total") }),
      totals[totals.length - 1].map((x) => h("td", { class: "num", text: String(x) })))));
  return h("div", { class: "rounds" }, h("div", { class: "rounds-table", tabindex: 0, role: "region", "aria-label": t("scores.byRound") }, table),
    totalsChart(totals, labels, Number(ruleValue("target_score", room, rules) ?? 0)));
}

// Lines of equal totals would lie on one another, and only the last drawn would show:
// each of a tie is drawn a little apart from the others, in seat order (3 px a line).
function tieShift(row, i) {
  const tied = row.map((v, j) => j).filter((j) => row[j] === row[i]);
  return (tied.indexOf(i) - (tied.length - 1) / 2) * 3;
}

/** The totals after each round, one line per player (or team), from 0 before round 1;
 * the target score is drawn when it is near enough to be worth the room. */
export function totalsChart(totals, labels, target) {
  const W = 320, H = 140, L = 34, R = 8, T = 8, B = 22;
  const top = Math.max(1, ...totals.flat());
  const yMax = target && target <= top * 1.6 ? Math.max(top, target) : top;
  const x = (r) => L + (r * (W - L - R)) / totals.length;
  const y = (val) => T + (H - T - B) * (1 - val / yMax);
  const tick = (val) => h("text", { x: L - 4, y: y(val) + 4, "text-anchor": "end", class: "tick", text: String(val) });
  const chart = h("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", id: "totals-chart", role: "img",
    "aria-label": t("scores.chart", { lines: labels.map((l, i) => t("scores.chartLine", { label: l, values: totals.map((row) => row[i]).join(", ") })).join("; ") }) },
    h("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "axis" }),
    h("line", { x1: L, y1: T, x2: L, y2: y(0), class: "axis" }),
    yMax === target ? h("line", { x1: L, y1: y(target), x2: W - R, y2: y(target), class: "target" }) : null,
    tick(0),
    tick(yMax),
    totals.map((_, r) => h("text", { x: x(r + 1), y: H - 6, "text-anchor": "middle", class: "tick", text: String(r + 1) })),
    labels.map((_, i) => {
      const pts = [[x(0), y(0) + tieShift(labels.map(() => 0), i)], ...totals.map((t, r) => [x(r + 1), y(t[i]) + tieShift(t, i)])];
      const color = LINE_COLORS[i % LINE_COLORS.length];
      return [
        h("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: color, "stroke-width": 2.5, class: "line", "data-seat": i }),
        pts.slice(1).map(([px, py]) => h("circle", { cx: px, cy: py, r: 3, fill: color })),
      ];
    }));
  const legend = h("ul", { class: "legend", "aria-hidden": "true" }, labels.map((l, i) => h("li", {},
    h("span", { class: `swatch-line sw-${i % LINE_COLORS.length}` }), l)));
  return h("figure", { class: "totals" }, chart, legend);
}
