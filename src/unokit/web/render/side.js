// The side column: a challenged hand shown to me, the keys, the rules, the log, the
// spectators, reactions, chat and the host's seat tools.  Pure: a context in, vnodes
// out; what the user does goes to ``act``.

import { h } from "../dom.js";
import { face } from "./parts.js";
import { rulesPanel } from "./rules.js";

export const EMOTE_TEXT = { nice: "Nice!", gg: "Good game!", oops: "Oops!", wow: "Wow!", hurry: "Hurry up!", thanks: "Thanks!" };

/** A reaction beside a seat (key: the seat, or "w:" and a spectator's name), while it lasts. */
export function reactBubble(reacts, key, now) {
  const r = reacts?.[key];
  return r && now < r.until ? h("span", { class: "react-bubble", role: "status", text: r.text }) : null;
}

// key names as words: an arrow glyph may be missing from the reader's fonts
export const KEYS = [
  ["Left, Right", "move along your hand (Home, End: its ends)"], ["Enter, Space", "play the focused card"],
  ["D", "draw"], ["K", "keep the drawn card"], ["P", "play the drawn card"], ["U", "UNO"],
  ["C", "catch (or challenge)"], ["A", "accept the penalty"], ["R, Y, G, B", "pick a colour"],
  ["1-9", "pick a player or a choice"], ["N", "next round"], ["Esc", "cancel a choice, close this"], ["?", "show or hide the keys"],
];

export function helpPanel(act) {
  return h("section", { class: "help", id: "help", key: "help", "aria-labelledby": "help-h" },
    h("h2", { id: "help-h", text: "Keys" }),
    h("dl", {}, KEYS.map(([k, d]) => [h("dt", { text: k }), h("dd", { text: d })])),
    h("button", { class: "btn small", type: "button", id: "help-close", text: "Close", onclick: () => act.toggleHelp() }));
}

/** The log's last 120 lines ({n, text, cls}: ``n`` keeps a line's element as lines come). */
export function logList(log) {
  // focusable: it scrolls, and a keyboard user must be able to scroll it (axe's
  // scrollable-region-focusable)
  return h("ol", { class: "log", id: "log", key: "log", tabindex: 0, "aria-label": "What happened", "aria-live": "polite", "aria-relevant": "additions" },
    log.slice(-120).map((e) => h("li", { class: e.cls || "", key: `log:${e.n}`, text: e.text })));
}

/**
 * ``ctx``: {st, room, rules, seat, log, revealed, help, rulesOpen, replay, watchers,
 * watchName, reacts, now, toolsOpen}.  ``act``: msg, chat(event), hideReveal,
 * toggleHelp, toggleRules, setToolsOpen(open), kickToBot(seat, name).
 */
export function sideView(ctx, act) {
  const { st, room, seat } = ctx;
  const kids = [];
  if (ctx.revealed && st) {
    const names = st.view.names;
    kids.push(h("div", { class: "reveal", id: "reveal", key: "reveal", role: "region", "aria-label": "Revealed hand" },
      h("p", { class: "reveal-title", text: `${names[ctx.revealed.seat]}'s hand when you challenged (shown to you only):` }),
      h("div", { class: "reveal-cards" }, ctx.revealed.cards.map((code) => face(code, { size: "sm", dark: st.view.side === "dark" }))),
      h("button", { class: "btn ghost small", type: "button", text: "Hide", onclick: () => act.hideReveal() })));
  }
  if (ctx.help) kids.push(helpPanel(act));
  if (ctx.rulesOpen) kids.push(rulesPanel(room, ctx.rules, act));
  kids.push(h("h2", { class: "side-h", key: "log-h", text: "Log" }), logList(ctx.log));
  if (!ctx.replay) {
    kids.push(watchersView(ctx));
    if (seat !== null || ctx.watchName) kids.push(reactionsView(act));
    if (seat !== null || (ctx.watchName && room?.watch_chat !== false)) kids.push(chatForm(act));
    else if (ctx.watchName) kids.push(h("p", { class: "hint", id: "watch-chat-off", key: "watch-chat-off", text: "The host turned spectators' chat off." }));
    kids.push(watchChatToggle(ctx, act));
  }
  kids.push(hostTools(ctx, act));
  return h("aside", { class: "side", key: "side", "aria-label": "Log and chat" }, kids);
}

// one form, kept by the patch (its key) so a half-typed line survives a state change
function chatForm(act) {
  return h("form", { class: "chat", key: "chat", onsubmit: (e) => act.chat(e) },
    h("input", { id: "chat-input", maxlength: 200, autocomplete: "off", placeholder: "Say something…", "aria-label": "Chat message", dataset: { key: "chat" } }),
    h("button", { class: "btn small", type: "submit", text: "Send" }));
}

export function reactionsView(act) {
  return h("div", { class: "reactions", key: "reactions", role: "group", "aria-label": "React" },
    Object.entries(EMOTE_TEXT).map(([k, text]) => h("button", {
      class: "btn small ghost", type: "button", dataset: { key: `react:${k}`, emote: k }, text,
      onclick: () => act.msg({ type: "react", emote: k }),
    })));
}

export function watchersView(ctx) {
  const w = ctx.watchers;
  if (!w || !w.count) return null;
  const unnamed = w.count - w.names.length;
  return h("section", { class: "watchers", id: "watchers", key: "watchers", "aria-label": "Spectators" },
    h("h2", { class: "side-h", text: `Watching (${w.count})` }),
    h("ul", {}, w.names.map((n) => h("li", { key: `w:${n}` }, h("span", { text: n + (n === ctx.watchName && ctx.seat === null ? " (you)" : "") }), reactBubble(ctx.reacts, `w:${n}`, ctx.now))),
      unnamed ? h("li", { class: "hint", key: "unnamed", text: `${unnamed} without a name` }) : null));
}

function watchChatToggle(ctx, act) {
  const room = ctx.room;
  if (!room || ctx.seat === null || ctx.seat !== room.host) return null;
  return h("div", { class: "opt check watch-chat", key: "watch-chat" },
    h("input", { type: "checkbox", id: "watch-chat", checked: room.watch_chat !== false, onchange: (e) => act.msg({ type: "watch_chat", on: e.currentTarget.checked }) }),
    h("label", { for: "watch-chat", text: "Spectators may chat" }));
}

// The host's seat controls, under the chat (after the hand in the Tab order): hand a
// person's seat to a bot when they left for good; a bot plays on.
export function hostTools(ctx, act) {
  const v = ctx.st?.view;
  const { room, seat } = ctx;
  if (!v || !room || seat === null || seat !== room.host || room.status !== "playing") return null;
  const people = v.names.map((name, s) => [name, s]).filter(([, s]) => s !== seat && room.seats[s]?.kind === "person");
  if (!people.length) return null;
  return h("details", { class: "host-tools", id: "host-tools", key: "host-tools", open: ctx.toolsOpen ? true : null, ontoggle: (e) => act.setToolsOpen(e.currentTarget.open) },
    h("summary", { text: "Seats (host)" }),
    h("p", { class: "hint", text: "Someone left for good? A bot takes their seat; they can still watch." }),
    h("div", { class: "tool-row" }, people.map(([name, s]) => h("button", {
      class: "btn small ghost to-bot", type: "button", dataset: { key: `to-bot:${s}` },
      "aria-label": `Give ${name}'s seat to a bot`, text: `${name}: give to a bot`,
      onclick: () => act.kickToBot(s, name),
    }))));
}
