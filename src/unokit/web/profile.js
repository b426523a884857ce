// Profiles, stats and ratings in the page (issue 49 item 4): the home page's profile
// panel, a profile's page (/p/ID) and the leaderboard (/leaderboard).  A profile is a
// secret token kept in this browser (net.js); its page and the leaderboard show what
// anyone may see: name, colour, games, wins, points, rating, last games.

import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api, forgetProfile, saveName, saveProfile, savedName, savedProfile } from "./net.js";
import { avatar, COLOR_NAMES } from "./render/avatar.js";

const ratingText = (p) => p.rating.toFixed(1);
// the page still shown: an answer that comes after the player went elsewhere is dropped
const here = () => globalThis.location?.pathname;

/** The colour choice: one radio per colour, each an avatar of the name typed. */
function colorChoice(name, chosen, prefix) {
  const box = el("fieldset", { class: "color-choice" }, el("legend", { text: t("profile.color") }));
  for (const c of COLOR_NAMES) {
    const id = `${prefix}-${c}`;
    box.append(el("label", { class: "swatch", for: id },
      el("input", { type: "radio", name: `${prefix}-color`, id, value: c, checked: c === chosen }),
      avatar(name || "?", c, 30),
      el("span", { class: "visually-hidden", text: t(`profile.colors.${c}`) })));
  }
  return { box, value: () => box.querySelector("input:checked")?.value || "blue" };
}

/** The home page's panel: this browser's profile (checked with the server: a lost one
 * is said and forgotten), or a form to make one.  ``nameNow()``: the name typed above. */
export function profilePanel(go, nameNow) {
  const panel = el("section", { class: "panel profile-panel", id: "profile-panel", "aria-labelledby": "profile-h" },
    el("h2", { id: "profile-h", text: t("profile.title") }));
  const body = el("div", { class: "profile-body", "aria-live": "polite" });
  panel.append(body);
  const link = (href, text, id) => el("a", { href, id, text, onclick: (e) => { e.preventDefault(); go(href); } });
  const board = link("/leaderboard", t("profile.leaderboard"), "leaderboard-link");
  const showMine = (p) => body.replaceChildren(
    el("div", { class: "profile-mine" }, avatar(p.name, p.color, 40),
      el("div", {},
        el("b", { class: "profile-name", text: p.name }),
        el("p", { class: "hint", id: "profile-line", text: t("profile.line", { rating: ratingText(p), games: tn("profile.games", p.games), wins: p.wins }) }),
        el("p", { class: "profile-links" }, link(`/p/${p.id}`, t("profile.open"), "my-profile-link"), " · ", board))));
  const showForm = (lost) => {
    const listed = el("input", { type: "checkbox", id: "profile-listed" });
    const colors = colorChoice(nameNow() || savedName(), "blue", "new-profile");
    const err = el("p", { class: "form-error", role: "alert" });
    const form = el("form", { class: "profile-form", id: "profile-form" },
      lost ? el("p", { class: "form-error", id: "profile-lost", text: t("profile.lost") }) : null,
      el("p", { class: "hint", text: t("profile.why") }),
      colors.box,
      el("div", { class: "opt check" }, listed, el("label", { for: "profile-listed", text: t("profile.listed") })),
      err,
      el("button", { class: "btn", type: "submit", id: "profile-make", text: t("profile.make") }),
      el("p", { class: "profile-links" }, board));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      err.textContent = "";
      const name = nameNow();
      if (!name) {
        err.textContent = t("home.nameFirst");
        return;
      }
      try {
        const made = await api("/api/profiles", { name, color: colors.value(), listed: listed.checked });
        saveProfile({ id: made.profile.id, token: made.token });
        saveName(name); // the name typed is the one the next room takes
        showMine(made.profile);
      } catch (ex) {
        err.textContent = ex.message;
      }
    });
    body.replaceChildren(form);
  };
  const mine = savedProfile();
  if (!mine) showForm(false);
  else {
    body.replaceChildren(el("p", { class: "hint", text: t("common.loading") }));
    api("/api/profiles/me", { token: mine.token }).then(({ profile }) => {
      if (profile) showMine(profile);
      else {
        forgetProfile(); // lost: its token is unknown to the server, and stays so
        showForm(true);
      }
    }, (e) => body.replaceChildren(el("p", { class: "form-error", text: e.message })));
  }
  return panel;
}

/** A profile's page: its stats and last games; its owner may change it here. */
export async function profilePage(main, pid, go) {
  main.replaceChildren(el("p", { class: "panel loading", text: t("common.loading") }));
  const path = here();
  let p;
  const token = savedProfile()?.id === pid ? savedProfile().token : null;
  try {
    // its holder sees the rooms of its games (codes open rooms: nobody else does)
    p = token ? (await api("/api/profiles/me", { token })).profile : null;
    p = p || (await api(`/api/profiles/${encodeURIComponent(pid)}`));
  } catch (e) {
    if (here() !== path) return;
    main.replaceChildren(el("section", { class: "panel" }, el("h1", { text: t("profile.none") }), el("p", { text: e.message }),
      el("a", { class: "btn", href: "/", text: t("profile.home") })));
    return;
  }
  if (here() !== path) return;
  document.title = t("profile.pageTitle", { name: p.name });
  const mine = savedProfile()?.id === p.id;
  const stat = (label, value, id) => el("div", { class: "stat", id }, el("span", { class: "stat-value", text: String(value) }), el("span", { class: "stat-label", text: label }));
  const games = p.history.length
    ? el("ol", { class: "history", id: "history" }, p.history.map((g) => el("li", {},
        el("span", { class: `badge ${g.won ? "won" : "lost"}`, text: g.won ? t("profile.won") : t("profile.lost1") }),
        " ",
        el("span", { text: t(g.code ? "profile.gameLine" : "profile.gameLineOther", { code: g.code, game: g.game, points: g.points, players: g.players, rated: g.rated ? t("profile.rated") : t("profile.unrated"), when: new Date(g.at * 1000).toLocaleDateString() }) }),
        g.code ? " " : null,
        g.code ? el("a", { href: `/replay?room=${g.code}&game=${g.game}`, text: t("profile.replay") }) : null)))
    : el("p", { class: "hint", id: "history", text: t("profile.noGames") });
  const section = el("section", { class: "panel profile-page", id: "profile-page" },
    el("div", { class: "profile-head" }, avatar(p.name, p.color, 64),
      el("div", {}, el("h1", { text: p.name }),
        el("p", { class: "hint", text: mine ? t("profile.yours") : p.listed ? t("profile.onBoard") : t("profile.offBoard") }))),
    el("div", { class: "stats" },
      stat(t("profile.rating"), ratingText(p), "stat-rating"),
      stat(t("profile.gamesLabel"), p.games, "stat-games"),
      stat(t("profile.wins"), p.wins, "stat-wins"),
      stat(t("profile.points"), p.points, "stat-points"),
      stat(t("profile.ratedGames"), p.rated, "stat-rated")),
    el("p", { class: "hint", text: t("profile.ratingHow", { mu: p.mu.toFixed(1), sigma: p.sigma.toFixed(1) }) }),
    el("h2", { text: t("profile.lastGames") }),
    games,
    mine ? editForm(p, () => profilePage(main, pid, go)) : null,
    el("p", {}, el("a", { href: "/leaderboard", text: t("profile.leaderboard"), onclick: (e) => { e.preventDefault(); go("/leaderboard"); } })));
  main.replaceChildren(section);
}

function editForm(p, done) {
  const mine = savedProfile();
  const name = el("input", { id: "profile-name", maxlength: 20, value: p.name, autocomplete: "nickname" });
  const colors = colorChoice(p.name, p.color, "edit-profile");
  const listed = el("input", { type: "checkbox", id: "edit-listed", checked: p.listed });
  const err = el("p", { class: "form-error", role: "alert" });
  const form = el("form", { class: "profile-form", id: "profile-edit" },
    el("h2", { text: t("profile.change") }),
    el("div", { class: "field" }, el("label", { for: "profile-name", text: t("home.yourName") }), name),
    colors.box,
    el("div", { class: "opt check" }, listed, el("label", { for: "edit-listed", text: t("profile.listed") })),
    err,
    el("button", { class: "btn", type: "submit", id: "profile-save", text: t("profile.save") }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api("/api/profiles/me", { token: mine.token, name: name.value.trim(), color: colors.value(), listed: listed.checked });
      done();
    } catch (ex) {
      err.textContent = ex.message;
    }
  });
  return form;
}

/** The leaderboard: listed profiles with a rated game, best rating first. */
export async function leaderboardPage(main, go) {
  document.title = t("profile.boardTitle");
  main.replaceChildren(el("p", { class: "panel loading", text: t("common.loading") }));
  const path = here();
  let rows;
  try {
    rows = (await api("/api/leaderboard")).profiles;
  } catch (e) {
    if (here() !== path) return;
    main.replaceChildren(el("p", { class: "panel form-error", text: e.message }));
    return;
  }
  if (here() !== path) return;
  const me = savedProfile()?.id;
  const table = rows.length
    ? el("table", { class: "board", id: "board" },
        el("thead", {}, el("tr", {}, ...["#", t("profile.player"), t("profile.rating"), t("profile.ratedGames"), t("profile.wins")].map((x) => el("th", { scope: "col", text: x })))),
        el("tbody", {}, rows.map((p, i) => el("tr", { class: p.id === me ? "board-mine" : "", dataset: { id: p.id } },
          el("td", { text: String(i + 1) }),
          el("td", {}, el("a", { class: "board-name", href: `/p/${p.id}`, onclick: (e) => { e.preventDefault(); go(`/p/${p.id}`); } }, avatar(p.name, p.color, 24), el("span", { text: p.name }))),
          el("td", { text: ratingText(p) }),
          el("td", { text: String(p.rated) }),
          el("td", { text: String(p.wins) })))))
    : el("p", { class: "hint", id: "board-empty", text: t("profile.boardEmpty") });
  main.replaceChildren(el("section", { class: "panel leaderboard", id: "leaderboard" },
    el("h1", { text: t("profile.boardTitle") }),
    el("p", { class: "hint", text: t("profile.boardHow") }),
    table,
    el("p", {}, el("a", { href: "/", text: t("profile.home") }))));
}
