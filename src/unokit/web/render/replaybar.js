// The replay viewer's controls (issue 36 item 13): position, round, speed and whose
// view.  Pure, like the rest of render/: the viewer's state in, vnodes out; its buttons
// call ``act`` (replay.js's replayAct).  The keys keep them the same elements from one
// frame to the next (a slider being dragged, a focused button).

import { h } from "../dom.js";
import { t } from "../i18n.js";

export const SPEEDS = [0.5, 1, 2, 4, 8];

/** The round frame ``k`` is in (``rounds``: the first frame of each round). */
export function roundOf(rounds, k) {
  let r = 0;
  rounds.forEach((start, i) => { if (start <= k) r = i; });
  return r;
}

/** "Round 2 of 3: move 5 of 40" (or "the deal"). */
export function replayWhere(R) {
  const f = R.frames[R.at];
  const r = roundOf(R.rounds, R.at);
  const start = R.rounds[r];
  const end = r + 1 < R.rounds.length ? R.rounds[r + 1] : R.frames.length;
  const move = f.action < 0 ? t("replay.deal") : t("replay.move", { n: f.action + 1, total: end - start - 1 });
  return t("replay.where", { round: r + 1, total: R.rounds.length, move });
}

/**
 * ``R``: {frames, rounds, players, at, playing, speed, view, source, message}.
 * ``act``: goTo(k), togglePlay(), setSpeed(x), setView(view).
 */
export function replayBar(R, act) {
  const last = R.frames.length - 1;
  const btn = (id, text, label, onclick) => h("button", { class: "btn small", type: "button", id, "aria-label": label, dataset: { key: id }, text, onclick });
  return h("section", { class: "replay-bar panel", id: "replay-bar", key: "replay-bar", "aria-label": t("replay.label") },
    h("div", { class: "rp-row" },
      h("h1", { class: "rp-title", text: R.source?.room ? t("replay.titleRoom", { room: R.source.room, game: R.source.game }) : R.source?.name ? t("replay.titleFile", { name: R.source.name }) : t("replay.titlePlain") }),
      h("select", { id: "rp-view", "aria-label": t("replay.whose"), props: { value: R.view }, onchange: (e) => act.setView(e.currentTarget.value) },
        R.players.map((name, i) => h("option", { value: String(i), text: t("replay.seatView", { name }) })),
        h("option", { value: "spectator", text: t("replay.spectatorView") }),
        h("option", { value: "open", text: t("replay.openView") })),
      h("a", { class: "btn small ghost", href: "/replay", id: "rp-other", text: t("replay.other") })),
    h("div", { class: "rp-row" },
      btn("rp-first", t("replay.first"), t("replay.firstLabel"), () => act.goTo(0)),
      btn("rp-back", t("replay.back"), t("replay.backLabel"), () => act.goTo(R.at - 1)),
      btn("rp-play", R.playing ? t("replay.pause") : t("replay.play"), R.playing ? t("replay.pauseLabel") : t("replay.playLabel"), () => act.togglePlay()),
      btn("rp-next", t("replay.forward"), t("replay.forwardLabel"), () => act.goTo(R.at + 1)),
      btn("rp-last", t("replay.last"), t("replay.lastLabel"), () => act.goTo(last)),
      h("select", { id: "rp-round", "aria-label": t("replay.jump"), props: { value: String(roundOf(R.rounds, R.at)) }, onchange: (e) => act.goTo(R.rounds[Number(e.currentTarget.value)]) },
        R.rounds.map((_, i) => h("option", { value: String(i), text: t("replay.round", { n: i + 1 }) }))),
      h("select", { id: "rp-speed", "aria-label": t("replay.speed"), props: { value: String(R.speed) }, onchange: (e) => act.setSpeed(Number(e.currentTarget.value)) },
        SPEEDS.map((x) => h("option", { value: String(x), text: t("replay.speedOption", { x }) })))),
    h("div", { class: "rp-row" },
      h("input", { type: "range", id: "rp-pos", min: 0, max: last, value: 0, "aria-label": t("replay.position"), props: { value: String(R.at) }, oninput: (e) => act.goTo(Number(e.currentTarget.value)) }),
      h("p", { class: "rp-where", id: "rp-where", role: "status", text: replayWhere(R) })),
    R.message ? h("p", { class: "form-error", id: "rp-message", text: t("replay.illegal", { reason: R.message }) }) : null);
}
