// The room before the game: the seats, the link to share, the rules, Start.  Pure: a
// context in, vnodes out.  The two forms that hold what is typed in them (the host's
// rules for the next game, a watcher's name to take a seat) come in built (forms.js),
// as ``forms.rules`` and ``forms.seat``, and the patch keeps them as they are.

import { h } from "../dom.js";
import { avatar } from "./avatar.js";
import { t, tNodes, tOr } from "../i18n.js";
import { rulesLine } from "./rules.js";
import { helpPanel } from "./side.js";

/**
 * ``ctx``: {room, seat (mine, null watching), origin (the page's, for the link), help,
 * botLevels, canShare (the browser has a share sheet)}.  ``act``: msg(message to the
 * server), setBotLevel(seat, level), toggleHelp, share(link).
 */
export function waitingView(ctx, act, forms = {}) {
  const { room, seat } = ctx;
  const host = seat !== null && seat === room.host;
  const people = room.seats.filter((s) => s && s.kind === "person");
  const rows = room.seats.map((s, i) => {
    const kids = [];
    if (s) {
      kids.push(
        h("span", { class: `dot ${s.connected ? "on" : "off"}`, "aria-hidden": "true" }),
        s.kind === "person" ? avatar(s.name, s.color) : null,
        h("span", { class: "who", text: s.name }),
        h("span", { class: "tag", text: s.kind === "bot" ? t("lobby.botLevel", { level: tOr(`levels.${s.level}`, s.level) }) : i === room.host ? t("lobby.host") : s.connected ? t("lobby.here") : t("lobby.notHere") }),
        i === seat ? h("span", { class: "tag you", text: t("common.you") }) : null,
        s.kind === "person" && s.ready ? h("span", { class: "tag ready", text: t("lobby.ready") }) : null);
      // the ready check: each person says when they are ready; the host sees it
      if (i === seat && s.kind === "person")
        kids.push(h("button", {
          // a toggle: its words stay, its pressed state says whether I am ready
          class: `btn small ready-toggle${s.ready ? " pressed" : " primary"}`, type: "button", id: "ready-btn", "aria-pressed": s.ready ? "true" : "false",
          text: t("lobby.imReady"), onclick: () => act.msg({ type: "ready", on: !s.ready }),
        }));
      if (host && i !== room.host)
        kids.push(h("button", { class: "btn small ghost", type: "button", text: t("lobby.remove"), "aria-label": t("lobby.removeLabel", { name: s.name }), onclick: () => act.msg({ type: "kick", seat: i }) }));
    } else {
      kids.push(h("span", { class: "dot off", "aria-hidden": "true" }), h("span", { class: "who muted", text: t("lobby.openSeat") }));
      if (host) {
        const level = ctx.botLevels?.[i] || "normal";
        kids.push(
          h("select", { "aria-label": t("lobby.botLevelFor", { n: i + 1 }), onchange: (e) => act.setBotLevel(i, e.currentTarget.value) },
            ["easy", "normal", "hard"].map((l) => h("option", { value: l, text: tOr(`levels.${l}`, l), selected: l === level }))),
          h("button", { class: "btn small", type: "button", text: t("lobby.addBot"), onclick: () => act.msg({ type: "add_bot", seat: i, level }) }));
      }
    }
    // a row's key says who sits there: a seat taken is a new row, not the open one reworded
    return h("li", { class: `seat-row ${s ? s.kind : "empty"}`, dataset: { seat: i }, key: `seat:${i}:${s ? s.kind + ":" + s.name : "open"}` }, kids);
  });
  const link = `${ctx.origin}/r/${room.code}`;
  return h("section", { class: "panel waiting", key: "waiting" },
    h("h1", { text: t("room.title", { code: room.code }) }),
    h("div", { class: "share-box", key: "share-box" },
      h("div", { class: "share-words" },
        h("p", { class: "share" }, tNodes("lobby.share", { link: h("a", { href: link, class: "share-link", text: link }) })),
        ctx.canShare ? h("button", { class: "btn small", type: "button", id: "share-btn", text: t("lobby.shareBtn"), onclick: () => act.share(link) }) : null,
        // issue 49 item 3: strangers find a public room on the home page and by Quick play
        host
          ? h("div", { class: "opt check", key: "public" },
              h("input", { type: "checkbox", id: "public-switch", props: { checked: !!room.public }, onchange: (e) => act.msg({ type: "public", on: e.currentTarget.checked }) }),
              h("label", { for: "public-switch", text: t("lobby.public") }))
          : room.public ? h("p", { class: "hint", id: "public-note", key: "public-note", text: t("lobby.publicNote") }) : null),
      // the link for a phone across the table: drawn by the server, nothing fetched elsewhere
      h("img", { class: "qr", src: `/api/rooms/${room.code}/qr.svg`, alt: t("lobby.qrAlt", { link }), width: 148, height: 148 })),
    h("p", { class: "hint", id: "lobby-rules", text: rulesLine(room) }),
    room.game > 0 ? h("p", { class: "hint", id: "last-game", key: "last-game" },
      tNodes(host ? "lobby.lastGameHost" : "lobby.lastGame", {
        n: room.game,
        download: h("a", { href: `/api/rooms/${room.code}/record?game=${room.game}`, download: `uno-${room.code}-${room.game}.json`, text: t("lobby.download") }),
        replay: h("a", { href: `/replay?room=${room.code}&game=${room.game}`, id: "last-game-replay", text: t("lobby.replay") }),
      })) : null,
    h("ol", { class: "seats", key: "seats", "aria-label": t("lobby.seats") }, rows),
    host ? forms.rules || null : null,
    host
      ? h("div", { class: "actions", key: "actions" },
          h("button", { class: "btn primary big", type: "button", id: "start-btn", text: t("lobby.start"), onclick: () => act.msg({ type: "start" }) }),
          h("p", { class: "hint", text: t("lobby.startHint") }),
          people.length > 1 ? h("p", { class: "hint", id: "ready-count", text: t("lobby.readyCount", { n: people.filter((s) => s.ready).length, total: people.length }) }) : null)
      : h("p", { class: "waiting-note", key: "waiting-note", text: seat === null ? t("lobby.watching") : t("lobby.waitingHost") }),
    seat === null && room.seats.some((x) => x === null) ? forms.seat || null : null,
    ctx.help ? helpPanel(act) : null);
}
