// Issue 36 item 13: the replay viewer, a game record played again with the live table's
// renderer.  The server turns the record into the table's own state messages
// (server/replay.py: the engine replays it, from one seat, a spectator, or with every
// hand open), so the page holds no copy of the rules: stepping is moving along those
// frames, the log is the same log built from their events (store.showFrame), and the
// table is drawn by render/table.js as at a live table.  Its controls are drawn by
// render/replaybar.js's replayBar(), a pure function of replayState() and replayAct.

import { el } from "./dom.js";
import { errorText, t, tNodes } from "./i18n.js";
import { api, postText } from "./net.js";
import { roundOf } from "./render/replaybar.js";
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
  // a link with something that cannot be a room code says so (it showed the file
  // picker as if no room had been asked for)
  page.main.replaceChildren(replayOpenView(room ? t("replay.badCode", { code: room.slice(0, 12) }) : ""));
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


/**
 * What is plainly wrong with ``text`` as a game record, found before it is sent: the
 * server's refusal (a 400) would be logged in the console as a failed request.
 * "notJson"; "notRecord": not an object with ``players`` (a list of names) and
 * ``rounds`` (a list), or with a ``format`` other than uno-record/1 or ``rules`` that
 * are not an object (docs/records.md); "" when it has a record's shape (the server
 * checks the rest: the rules, the deals, every move).
 */
export function recordProblem(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    return "notJson";
  }
  const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
  if (!isObject(v)) return "notRecord";
  const names = Array.isArray(v.players) && v.players.length > 0 && v.players.every((p) => typeof p === "string");
  if (!names || !Array.isArray(v.rounds)) return "notRecord";
  if ("format" in v && v.format !== "uno-record/1") return "notRecord";
  if ("rules" in v && !isObject(v.rules)) return "notRecord";
  return "";
}

function readRecordFile(f) {
  if (f.size > 4 * 1024 * 1024) {
    page.main.replaceChildren(replayOpenView(t("replay.tooBig")));
    return;
  }
  f.text().then((text) => {
    // a file that is not even shaped like a record is said here, not sent
    const problem = recordProblem(text);
    if (problem) {
      page.main.replaceChildren(replayOpenView(t("replay.cannot", { reason: t(`replay.${problem}`) })));
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
    page.main.replaceChildren(replayOpenView(t("replay.cannot", { reason: errorText(e.code, e.message) })));
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
