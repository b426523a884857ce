// Issue 36 item 13: the replay viewer, a game record played again with the live table's
// renderer.  The server turns the record into the table's own state messages
// (server/replay.py: the engine replays it, from one seat, a spectator, or with every
// hand open), so the page holds no copy of the rules: stepping is moving along those
// frames, the log is the same log built from their events (store.showFrame), and the
// table is drawn by render/table.js as at a live table.  Its controls are drawn here, by
// replayBar(): a pure function of the viewer's state, like those of render/.

import { el, h } from "./dom.js";
import { t, tNodes } from "./i18n.js";
import { api, postText } from "./net.js";
import { resetRoom, S, setRoom, setRules, setSeat, showFrame, flipShown } from "./store.js";

export const R = { frames: [], rounds: [], players: [], rules: null, at: -1, view: "spectator", source: null, timer: null, speed: 1, message: "" };

let page = null; // {main, roombar, render}: the controller's

export function initReplay(p) {
  page = p;
  // a record file dropped anywhere on the replay page
  document.addEventListener("dragover", (e) => {
    if (S.replay) e.preventDefault();
  });
  document.addEventListener("drop", (e) => {
    if (!S.replay) return;
    e.preventDefault();
    const f = e.dataTransfer?.files?.[0];
    if (f) readRecordFile(f);
  });
}

/** The replay viewer's state as render/replaybar.js reads it. */
export function replayState() {
  return { ...R, playing: !!R.timer };
}

export async function showReplay() {
  stopPlaying();
  resetRoom(null, { replay: true });
  Object.assign(R, { frames: [], at: -1, message: "" });
  document.title = t("page.titleReplay");
  page.roombar.replaceChildren(el("span", { class: "roomcode", text: t("top.replay") }));
  if (!S.rules) {
    try {
      setRules(await api("/api/rules"));
    } catch {
      setRules(null);
    }
  }
  const q = new URLSearchParams(location.search);
  const room = q.get("room");
  if (room && /^[A-Za-z0-9]{6}$/.test(room)) {
    R.source = { room: room.toUpperCase(), game: Math.max(1, Number(q.get("game")) || 1) };
    R.view = q.get("view") || "spectator";
    loadReplay();
    return;
  }
  R.source = null;
  page.main.replaceChildren(replayOpenView());
}

function replayOpenView(error = "") {
  const file = el("input", { type: "file", id: "replay-file", accept: ".json,application/json,text/plain" });
  file.addEventListener("change", () => file.files[0] && readRecordFile(file.files[0]));
  return el("section", { class: "panel replay-open", id: "replay-drop" },
    el("h1", { text: t("replay.title") }),
    el("p", { text: t("replay.intro") }),
    el("div", { class: "field" }, el("label", { for: "replay-file", text: t("replay.file") }), file),
    el("p", { class: "form-error", role: "alert", id: "replay-error", text: error }),
    el("p", { class: "hint" }, ...tNodes("replay.linkHint", { example: el("code", { text: "/replay?room=CODE&game=1" }) })),
    el("a", { class: "btn", href: "/", text: t("replay.home") }));
}


/** Whether ``text`` is a JSON object, as every game record is (docs/records.md). */
export function isJsonObject(text) {
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v);
  } catch {
    return false;
  }
}

function readRecordFile(f) {
  if (f.size > 4 * 1024 * 1024) {
    page.main.replaceChildren(replayOpenView(t("replay.tooBig")));
    return;
  }
  f.text().then((text) => {
    // a file that is not even JSON is said here, not sent: the server's refusal (a 400)
    // would be logged in the console as a failed request
    if (!isJsonObject(text)) {
      page.main.replaceChildren(replayOpenView(t("replay.cannot", { reason: t("replay.notJson") })));
      return;
    }
    R.source = { text, name: f.name };
    R.view = "spectator";
    loadReplay();
  }, () => page.main.replaceChildren(replayOpenView(t("replay.unreadable"))));
}

async function loadReplay() {
  stopPlaying();
  const keepAt = R.at;
  page.main.replaceChildren(el("p", { class: "panel loading", text: t("replay.loading") }));
  const view = encodeURIComponent(R.view);
  let got;
  try {
    got = R.source.text !== undefined
      ? await postText(`/api/replay?view=${view}`, R.source.text)
      : await api(`/api/rooms/${R.source.room}/replay?game=${R.source.game}&view=${view}`);
  } catch (e) {
    R.frames = [];
    page.main.replaceChildren(replayOpenView(t("replay.cannot", { reason: e.message })));
    return;
  }
  if (!got.frames.length) {
    page.main.replaceChildren(replayOpenView(t("replay.cannot", { reason: got.message || t("replay.noMoves") })));
    return;
  }
  Object.assign(R, { frames: got.frames, rounds: got.rounds, players: got.players, rules: got.rules, message: got.ok ? "" : got.message, at: -1 });
  setRoom({
    type: "room", code: "replay", status: "playing", host: -1, game: 1, timer: 0,
    rules: got.rules, rounds: [],
    seats: got.players.map((name, i) => ({ seat: i, name, kind: "person", level: null, connected: true, away: null, autopilot: false, team: null })),
  });
  setSeat(/^\d+$/.test(R.view) ? Number(R.view) : null, null);
  document.title = R.source.room ? t("page.titleReplayRoom", { room: R.source.room }) : t("page.titleReplay");
  step(keepAt >= 0 ? Math.min(keepAt, R.frames.length - 1) : 0);
}

/** Show frame ``k``. */
function step(k) {
  k = Math.max(0, Math.min(R.frames.length - 1, k));
  const prev = showFrame(R.frames, k, R.at, Date.now());
  R.at = k;
  page.render(prev);
  flipShown();
}

export function stopPlaying() {
  clearInterval(R.timer);
  R.timer = null;
}

/** What the viewer's controls do (render/replaybar.js's ``act``). */
export const replayAct = {
  goTo(k) {
    stopPlaying();
    step(k);
  },
  togglePlay,
  setSpeed(x) {
    R.speed = x;
    if (R.timer) {
      stopPlaying();
      togglePlay();
    } else page.render();
  },
  setView(view) {
    R.view = view;
    loadReplay();
  },
};

function togglePlay() {
  if (R.timer) {
    stopPlaying();
  } else {
    if (R.at >= R.frames.length - 1) step(0);
    R.timer = setInterval(() => {
      if (R.at >= R.frames.length - 1) {
        stopPlaying();
        page.render();
        return;
      }
      step(R.at + 1);
    }, 900 / R.speed);
  }
  page.render();
}

/** The viewer's keys: arrows step, Home/End, PageUp/PageDown by round, Space plays. */
export function replayKeys(e) {
  if (!R.frames.length || e.target.closest?.(".hand")) return false;
  const go = (k) => { e.preventDefault(); replayAct.goTo(k); };
  const r = roundOf(R.rounds, R.at);
  switch (e.key) {
    case "ArrowRight": go(R.at + 1); return true;
    case "ArrowLeft": go(R.at - 1); return true;
    case "Home": go(0); return true;
    case "End": go(R.frames.length - 1); return true;
    case "PageDown": go(R.rounds[Math.min(R.rounds.length - 1, r + 1)]); return true;
    case "PageUp": go(R.rounds[Math.max(0, r - (R.at === R.rounds[r] ? 1 : 0))]); return true;
    case " ":
      if (e.target.tagName === "BUTTON" || e.target.tagName === "A") return false;
      e.preventDefault();
      togglePlay();
      return true;
    default:
      return false;
  }
}

// ---- the controls: position, round, speed, whose view ---------------------------------
// The keys keep them the same elements from one frame to the next (a slider being
// dragged, a focused button).

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
