// HTTP helpers, the seat tokens kept in the browser, and the websocket that resumes
// by itself after a drop (with the last sequence number, so only missed events come).

import { errorText } from "./i18n.js";

/** A refusal: ``message`` is in the page's language (chosen by ``code``), and
 * ``serverMessage`` the server's own words. */
export class ApiError extends Error {
  constructor(code, message) {
    super(errorText(code, message));
    this.code = code;
    this.serverMessage = message;
  }
}

// The page asks for refusals as answers (server/web.py SoftRefusals): a 4xx comes as a
// 200 with the status in X-Unokit-Status, so the browser's console does not log a
// refused room code or a taken name as a failed resource (issue 49).
const SOFT = { "X-Unokit-Soft": "1" };
const statusOf = (res) => Number(res.headers.get("X-Unokit-Status")) || res.status;

export function api(path, body) {
  return ask(path, body === undefined ? { headers: SOFT } : {
    method: "POST",
    headers: { "Content-Type": "application/json", ...SOFT },
    body: JSON.stringify(body),
  });
}

/** POST a text body as it is (a game record for the replay viewer). */
export function postText(path, text) {
  return ask(path, { method: "POST", headers: { "Content-Type": "application/json", ...SOFT }, body: text });
}

async function ask(path, opts) {
  let res;
  try {
    res = await fetch(path, opts);
  } catch {
    throw new ApiError("offline", "");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  const status = statusOf(res);
  if (status >= 400) throw new ApiError(data?.code || "http_" + status, data?.message || res.statusText);
  return data;
}

// --- seat tokens ----------------------------------------------------------------------
// Per tab (sessionStorage): a reload keeps the seat, and a second window of the same
// browser is a second player.  Also in localStorage, so a closed tab can be reopened:
// the room page then offers "continue as NAME" beside joining as someone new.
const KEY = (code) => `unokit:seat:${code}`;
function read(store, code) {
  try {
    return JSON.parse(store.getItem(KEY(code)) || "null");
  } catch {
    return null;
  }
}
export function tabSeat(code) {
  return read(sessionStorage, code);
}
export function savedSeat(code) {
  return read(localStorage, code);
}
export function saveSeat(code, data) {
  for (const store of [sessionStorage, localStorage]) {
    try {
      store.setItem(KEY(code), JSON.stringify(data));
    } catch {
      /* private mode: the seat lasts as long as the page */
    }
  }
}
export function forgetSeat(code) {
  for (const store of [sessionStorage, localStorage]) {
    try {
      store.removeItem(KEY(code));
    } catch {
      /* nothing kept */
    }
  }
}
export function savedName() {
  try {
    return localStorage.getItem("unokit:name") || "";
  } catch {
    return "";
  }
}
export function saveName(name) {
  try {
    localStorage.setItem("unokit:name", name);
  } catch {
    /* fine */
  }
}

/**
 * One websocket per page.  ``onMessage(msg)`` gets every server message;
 * ``onStatus(status)`` gets "connecting", "open", "reconnecting" or "closed".  The
 * server's ``restarting`` error is not passed on: it is a drop, and reconnects.
 */
export class Connection {
  constructor(code, token, { onMessage, onStatus, name = null }) {
    this.code = code;
    this.token = token;
    this.name = name; // a spectator's name (the spectator list, chat, reactions)
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.game = null;
    this.lastSeq = null;
    this.tries = 0;
    this.stopped = false;
    this.timer = null;
    this.pingTimer = null;
    this.lastHeard = Date.now();
    this.status = "connecting";
    window.addEventListener("offline", () => this.drop());
    window.addEventListener("online", () => {
      if (this.status !== "open") this.reconnectSoon(0);
    });
  }

  setStatus(s) {
    this.status = s;
    this.onStatus(s);
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(this.code)}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.reconnectSoon();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello" };
      if (this.token) hello.token = this.token;
      else if (this.name) hello.name = this.name;
      if (this.game !== null && this.lastSeq !== null) {
        hello.game = this.game;
        hello.last_seq = this.lastSeq;
      }
      ws.send(JSON.stringify(hello));
      this.lastHeard = Date.now();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.keepAlive(), 10000);
    };
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.tries = 0;
        this.setStatus("open");
      }
      if (msg.type === "error" && msg.code === "restarting") {
        // a graceful stop (a restart, an upgrade, a cluster's server handing its rooms
        // over): not an error to show.  The server closes the socket next; go now, as
        // after a drop: "reconnecting", then back (to another server of the cluster,
        // or to this one once it is up), asking only for what was missed.
        this.drop();
        return;
      }
      if (msg.type === "state") {
        this.game = msg.game;
        this.lastSeq = msg.seq;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      if (!this.stopped) this.reconnectSoon();
    };
    ws.onerror = () => {};
  }

  keepAlive() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > 25000) {
      this.drop(); // nothing heard for a while: the connection is gone
      return;
    }
    this.send({ type: "ping" });
  }

  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    clearInterval(this.pingTimer);
    try {
      ws.close();
    } catch {
      /* already closed */
    }
    if (!this.stopped) this.reconnectSoon();
  }

  reconnectSoon(delay) {
    if (this.stopped) return;
    this.setStatus("reconnecting");
    clearTimeout(this.timer);
    const wait = delay ?? Math.min(5000, 300 * 2 ** this.tries);
    this.tries += 1;
    this.timer = setTimeout(() => {
      if (navigator.onLine === false) {
        this.reconnectSoon();
        return;
      }
      this.open();
    }, wait);
  }

  /** Forget the resume point (a new game or a refused token). */
  reset() {
    this.game = null;
    this.lastSeq = null;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
    this.ws = null;
    this.setStatus("closed");
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }
}

// --- the profile (issue 49 item 4) ----------------------------------------------------
// A secret token in this browser, as a seat token: no password, no e-mail.  Clearing
// the browser's data loses it, and the page says so; the server cannot give it back.
const PROFILE = "unokit:profile";
export function savedProfile() {
  try {
    const p = JSON.parse(localStorage.getItem(PROFILE) || "null");
    return p && typeof p.token === "string" && typeof p.id === "string" ? p : null;
  } catch {
    return null;
  }
}
export function saveProfile(p) {
  try {
    localStorage.setItem(PROFILE, JSON.stringify({ id: p.id, token: p.token }));
  } catch {
    /* private mode: the profile lasts as long as the page */
  }
}
export function forgetProfile() {
  try {
    localStorage.removeItem(PROFILE);
  } catch {
    /* nothing kept */
  }
}
/** A room request's body with this browser's profile, if it has one. */
export function withProfile(body) {
  const p = savedProfile();
  return p ? { ...body, profile: p.token } : body;
}
/** ``api`` for a body that carries the profile: a profile the server no longer knows
 * (``bad_profile``) is forgotten here, so the next try goes without it. */
export async function apiWithProfile(path, body) {
  try {
    return await api(path, withProfile(body));
  } catch (e) {
    if (e.code === "bad_profile") forgetProfile();
    throw e;
  }
}
