// The side column: a challenged hand shown to me, the keys, the rules, the log, the
// spectators, reactions, chat and the host's seat tools.  Pure: a context in, vnodes
// out; what the user does goes to ``act``.

import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { EMOTES, emoteText } from "../store.js";
import { emotePicture } from "./emotes.js";
import { face } from "./parts.js";
import { rulesPanel } from "./rules.js";

/** The quick reactions, emote -> its words in the page's language. */
export const EMOTE_TEXT = Object.fromEntries(EMOTES.map((k) => [k, null]));
for (const k of EMOTES) Object.defineProperty(EMOTE_TEXT, k, { get: () => emoteText(k), enumerable: true });

/** A reaction beside a seat (key: the seat, or "w:" and a spectator's name), while it lasts. */
export function reactBubble(reacts, key, now) {
  const r = reacts?.[key];
  return r && now < r.until ? h("span", { class: "react-bubble", role: "status" }, emotePicture(r.emote, 20), h("span", { text: r.text })) : null;
}

// key names as words: an arrow glyph may be missing from the reader's fonts
// (the keys themselves are the page's: D, K, P... whatever the language)
export const KEYS = [
  ["keys.arrows", "keys.arrowsDo"], ["keys.move", "keys.moveDo"], ["keys.enter", "keys.enterDo"],
  ["D", "keys.dDo"], ["K", "keys.kDo"], ["P", "keys.pDo"], ["U", "keys.uDo"],
  ["C", "keys.cDo"], ["A", "keys.aDo"], ["keys.colours", "keys.coloursDo"],
  ["1-9", "keys.digitsDo"], ["N", "keys.nDo"], ["keys.esc", "keys.escDo"], ["?", "keys.helpDo"],
];

// the colour keys are the colours' letters: UNO Flip!'s dark side has its own
const DARK_COLOURS = "P, T, O, V";

/** The Keys panel; ``dark``: UNO Flip!'s dark side is up (its colours' keys). */
export function helpPanel(act, dark = false) {
  const name = (k) => (k === "keys.colours" && dark ? DARK_COLOURS : k.startsWith("keys.") ? t(k) : k);
  return h("section", { class: "help", id: "help", key: "help", "aria-labelledby": "help-h" },
    h("h2", { id: "help-h", text: t("keys.title") }),
    h("dl", {}, KEYS.map(([k, d]) => [h("dt", { text: name(k) }), h("dd", { text: t(d) })])),
    h("button", { class: "btn small", type: "button", id: "help-close", text: t("common.close"), onclick: () => act.toggleHelp() }));
}

/** The log's last 120 lines ({n, text, cls}: ``n`` keeps a line's element as lines come). */
export function logList(log) {
  // focusable: it scrolls, and a keyboard user must be able to scroll it (axe's
  // scrollable-region-focusable)
  return h("ol", { class: "log", id: "log", key: "log", tabindex: 0, "aria-label": t("side.logLabel"), "aria-live": "polite", "aria-relevant": "additions" },
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
    kids.push(h("div", { class: "reveal", id: "reveal", key: "reveal", role: "region", "aria-label": t("side.revealed") },
      h("p", { class: "reveal-title", text: t("side.revealedTitle", { name: names[ctx.revealed.seat] }) }),
      h("div", { class: "reveal-cards" }, ctx.revealed.cards.map((code) => face(code, { size: "sm", dark: st.view.side === "dark" }))),
      h("button", { class: "btn ghost small", type: "button", text: t("side.hide"), onclick: () => act.hideReveal() })));
  }
  if (ctx.help) kids.push(helpPanel(act, st?.view.side === "dark"));
  if (ctx.rulesOpen) kids.push(rulesPanel(room, ctx.rules, act));
  kids.push(h("h2", { class: "side-h", key: "log-h", text: t("side.log") }), logList(ctx.log));
  if (!ctx.replay) {
    kids.push(watchersView(ctx));
    if (seat !== null || ctx.watchName) kids.push(reactionsView(act));
    if (seat !== null || (ctx.watchName && room?.watch_chat !== false)) kids.push(chatForm(act));
    else if (ctx.watchName) kids.push(h("p", { class: "hint", id: "watch-chat-off", key: "watch-chat-off", text: t("side.chatOff") }));
    kids.push(watchChatToggle(ctx, act));
  }
  kids.push(hostTools(ctx, act));
  return h("aside", { class: "side", key: "side", "aria-label": t("side.label") }, kids);
}

// one form, kept by the patch (its key) so a half-typed line survives a state change
function chatForm(act) {
  return h("form", { class: "chat", key: "chat", onsubmit: (e) => act.chat(e) },
    h("input", { id: "chat-input", maxlength: 200, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.label"), dataset: { key: "chat" } }),
    h("button", { class: "btn small", type: "submit", text: t("chat.send") }));
}

export function reactionsView(act) {
  return h("div", { class: "reactions", key: "reactions", role: "group", "aria-label": t("react.label") },
    Object.entries(EMOTE_TEXT).map(([k, text]) => h("button", {
      class: "btn small ghost", type: "button", dataset: { key: `react:${k}`, emote: k },
      onclick: () => act.msg({ type: "react", emote: k }),
    }, emotePicture(k, 18), h("span", { text }))));
}

export function watchersView(ctx) {
  const w = ctx.watchers;
  if (!w || !w.count) return null;
  const unnamed = w.count - w.names.length;
  return h("section", { class: "watchers", id: "watchers", key: "watchers", "aria-label": t("watchers.label") },
    h("h2", { class: "side-h", text: t("watchers.title", { n: w.count }) }),
    h("ul", {}, w.names.map((n) => h("li", { key: `w:${n}` }, h("span", { text: n === ctx.watchName && ctx.seat === null ? t("common.youMark", { name: n }) : n }), reactBubble(ctx.reacts, `w:${n}`, ctx.now))),
      unnamed ? h("li", { class: "hint", key: "unnamed", text: tn("watchers.unnamed", unnamed) }) : null));
}

function watchChatToggle(ctx, act) {
  const room = ctx.room;
  if (!room || ctx.seat === null || ctx.seat !== room.host) return null;
  return h("div", { class: "opt check watch-chat", key: "watch-chat" },
    h("input", { type: "checkbox", id: "watch-chat", props: { checked: room.watch_chat !== false }, onchange: (e) => act.msg({ type: "watch_chat", on: e.currentTarget.checked }) }),
    h("label", { for: "watch-chat", text: t("watchers.mayChat") }));
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
    h("summary", { text: t("host.tools") }),
    h("p", { class: "hint", text: t("host.toolsHint") }),
    h("div", { class: "tool-row" }, people.map(([name, s]) => h("button", {
      class: "btn small ghost to-bot", type: "button", dataset: { key: `to-bot:${s}` },
      "aria-label": t("host.toBotLabel", { name }), text: t("host.toBot", { name }),
      onclick: () => act.kickToBot(s, name),
    }))));
}
