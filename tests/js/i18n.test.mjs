// The page's languages (issue 36 item 18): every language has every key of English (and
// no other), with the same {placeholders}; every key the page's code asks for exists;
// every error code of the server and every preset/option of /api/rules has its text;
// plural forms, the browser's choice, and no key or {placeholder} leaking into the log.
// Run: node --test tests/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

import {
  errorText, LANGUAGES, listText, lookup, pickLanguage, pluralForm, setLanguage, t, tn, tNodes,
} from "../../src/unokit/web/i18n.js";
import { describe as describeEvent } from "../../src/unokit/web/log.js";
import { GAMES } from "./helpers.mjs";
import { cardName, colorName } from "../../src/unokit/web/cards.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const WEB = join(ROOT, "src", "unokit", "web");
const en = LANGUAGES.en.table;
const FORMS = ["zero", "one", "two", "few", "many", "other"];

// a plural group: a base with ".one" and ".other" in English
function pluralBases(table) {
  const bases = new Set();
  for (const k of Object.keys(table)) {
    const m = k.match(/^(.*)\.(one|other)$/);
    if (m && table[`${m[1]}.one`] !== undefined && table[`${m[1]}.other`] !== undefined) bases.add(m[1]);
  }
  return bases;
}
const PLURALS = pluralBases(en);
const baseOf = (k) => {
  const m = k.match(/^(.*)\.(zero|one|two|few|many|other)$/);
  return m && PLURALS.has(m[1]) ? m[1] : null;
};
const placeholders = (s) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

test("there are at least three languages, English among them", () => {
  assert.ok(Object.keys(LANGUAGES).length >= 3);
  assert.ok(LANGUAGES.en);
  assert.ok(Object.keys(en).length > 300, "English has the page's strings");
});

for (const [lang, { table }] of Object.entries(LANGUAGES)) {
  if (lang === "en") continue;

  test(`${lang}: has every key of English and no other`, () => {
    const want = new Set(Object.keys(en).filter((k) => !baseOf(k)));
    const have = new Set(Object.keys(table).filter((k) => !baseOf(k)));
    const missing = [...want].filter((k) => !have.has(k) && !PLURALS.has(k));
    const extra = [...have].filter((k) => !want.has(k));
    assert.deepEqual(missing, [], `${lang} lacks these keys (copy them from en.js and translate)`);
    assert.deepEqual(extra, [], `${lang} has keys English does not`);
  });

  test(`${lang}: every plural key has exactly the forms the language uses`, () => {
    const cats = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    const problems = [];
    for (const base of PLURALS) {
      const forms = FORMS.filter((f) => table[`${base}.${f}`] !== undefined);
      for (const c of cats) if (!forms.includes(c)) problems.push(`${base}.${c} missing`);
      for (const f of forms) if (!cats.includes(f)) problems.push(`${base}.${f}: ${lang} has no "${f}" form`);
    }
    assert.deepEqual(problems, []);
  });

  test(`${lang}: every text has English's placeholders`, () => {
    const problems = [];
    for (const [k, text] of Object.entries(table)) {
      assert.equal(typeof text, "string", k);
      const base = baseOf(k);
      const ref = base ? en[`${base}.other`] : en[k];
      if (ref === undefined) continue; // reported by the key test
      // a plural's "one" form may say the count in words ("a card") instead of {n}
      const want = placeholders(ref).filter((p) => !(base && p === "n"));
      const got = placeholders(text).filter((p) => !(base && p === "n"));
      if (JSON.stringify(want) !== JSON.stringify(got)) problems.push(`${k}: {${got.join("},{")}} instead of {${want.join("},{")}}`);
    }
    assert.deepEqual(problems, []);
  });

  test(`${lang}: no text is left empty by mistake or copied with an English key name`, () => {
    const allowedEmpty = new Set(Object.keys(en).filter((k) => en[k] === ""));
    for (const [k, text] of Object.entries(table)) {
      if (!allowedEmpty.has(k)) assert.notEqual(text.trim(), "", k);
      assert.doesNotMatch(text, /\b(?:common|home|lobby|table|turn|log|errors|rule|replay)\.[a-zA-Z]/, k);
    }
  });
}

test("English's plural keys have .one and .other and the same placeholders apart from {n}", () => {
  for (const base of PLURALS) {
    const one = placeholders(en[`${base}.one`]).filter((p) => p !== "n");
    const other = placeholders(en[`${base}.other`]).filter((p) => p !== "n");
    assert.deepEqual(one, other, base);
  }
});

// ---- the keys the code uses ---------------------------------------------------------
function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== "locales") out.push(...sources(p));
    } else if (name.endsWith(".js")) out.push(p);
  }
  return out;
}

test("every t()/tn()/tNodes()/tOr() key in the page's code exists in English", () => {
  const missing = [];
  let literal = 0;
  let dynamic = 0;
  for (const file of sources(WEB)) {
    const text = readFileSync(file, "utf8");
    const where = relative(ROOT, file);
    for (const m of text.matchAll(/\b(?:t|tn|tNodes|tOr)\(\s*"([^"\n]+)"/g)) {
      literal += 1;
      if (lookup(m[1], "en") === undefined && en[`${m[1]}.other`] === undefined) missing.push(`${where}: "${m[1]}"`);
    }
    // a key built at run time: its fixed start must begin some key
    for (const m of text.matchAll(/\b(?:t|tn|tNodes|tOr)\(\s*`([^`$\n]*)\$\{/g)) {
      dynamic += 1;
      if (!Object.keys(en).some((k) => k.startsWith(m[1]))) missing.push(`${where}: \`${m[1]}...\``);
    }
    // "about(key, ...)"-style helpers in log.js pass a key on: those must have .you/.other
    for (const m of text.matchAll(/\b(?:about|aboutN)\(\s*"([^"\n]+)"/g)) {
      literal += 1;
      for (const who of ["you", "other"]) {
        const k = `${m[1]}.${who}`;
        if (en[k] === undefined && en[`${k}.other`] === undefined) missing.push(`${where}: "${k}"`);
      }
    }
  }
  assert.ok(literal > 40, `the scan found ${literal} keys: is it still reading the code?`);
  assert.ok(dynamic > 0);
  assert.deepEqual(missing, []);
});

test("index.html's fixed text has keys, and its noscript says it in every language", () => {
  const html = readFileSync(join(WEB, "index.html"), "utf8");
  const keys = [...html.matchAll(/data-i18n="([^"]+)"/g)].map((m) => m[1]);
  for (const m of html.matchAll(/data-i18n-attr="([^"]+)"/g)) for (const pair of m[1].split(/\s+/)) keys.push(pair.split(":")[1]);
  assert.ok(keys.length >= 3);
  for (const k of keys) assert.ok(en[k] !== undefined, k);
  const noscript = html.match(/<noscript>([\s\S]*?)<\/noscript>/)[1];
  for (const [lang, { table }] of Object.entries(LANGUAGES)) assert.ok(noscript.includes(table["page.noscript"]), `${lang}: ${table["page.noscript"]}`);
  assert.match(html, /<select id="lang"/);
  assert.match(html, /<label for="lang"[^>]*data-i18n="top.language"/);
});

// ---- the server's names ----------------------------------------------------------------
function protocolCodes() {
  const doc = readFileSync(join(ROOT, "docs", "protocol.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Errors"));
  return [...section.slice(0, section.indexOf("\n## ", 5) > 0 ? section.indexOf("\n## ", 5) : undefined).matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
}

function python() {
  for (const p of [process.env.UNOKIT_PYTHON, join(ROOT, ".venv", "bin", "python")]) if (p && existsSync(p)) return p;
  return null;
}

test("every error code of docs/protocol.md has a text in every language", () => {
  const codes = protocolCodes();
  assert.ok(codes.length > 40, `found ${codes.length} codes in docs/protocol.md`);
  for (const [lang, { table }] of Object.entries(LANGUAGES)) {
    const missing = codes.filter((c) => table[`errors.${c}`] === undefined);
    assert.deepEqual(missing, [], `${lang}: add errors.<code> for these`);
  }
});

test("the Python registries' codes (unokit.errors, unokit.server.codes) all have texts", (ctx) => {
  const py = python();
  if (!py) return ctx.skip("no Python with unokit here (set UNOKIT_PYTHON)");
  const out = execFileSync(py, ["-c", "import json; from unokit.server.codes import ALL_CODES; print(json.dumps(sorted(ALL_CODES)))"], { cwd: ROOT, encoding: "utf8" });
  const codes = JSON.parse(out);
  assert.ok(codes.length > 40);
  for (const [lang, { table }] of Object.entries(LANGUAGES)) assert.deepEqual(codes.filter((c) => table[`errors.${c}`] === undefined), [], lang);
});

test("every preset, option and choice of /api/rules has its text in English", (ctx) => {
  const py = python();
  if (!py) return ctx.skip("no Python with unokit here (set UNOKIT_PYTHON)");
  const out = execFileSync(py, ["-c", "import json; from unokit.server.options import rules_json; print(json.dumps(rules_json()))"], { cwd: ROOT, encoding: "utf8" });
  const rules = JSON.parse(out);
  const missing = [];
  for (const p of rules.presets) for (const k of [`preset.${p.name}`, `preset.${p.name}.desc`]) if (en[k] === undefined) missing.push(k);
  for (const o of rules.options) {
    for (const k of [`option.${o.name}`, `option.${o.name}.help`]) if (en[k] === undefined) missing.push(k);
    for (const c of o.choices || []) if (en[`choice.${o.name}.${c}`] === undefined) missing.push(`choice.${o.name}.${c}`);
  }
  for (const l of rules.levels) if (en[`levels.${l}`] === undefined) missing.push(`levels.${l}`);
  assert.deepEqual(missing, []);
  // English says what the server says (the server's text is its reference)
  for (const p of rules.presets) assert.equal(en[`preset.${p.name}.desc`], p.description, p.name);
  for (const o of rules.options) assert.equal(en[`option.${o.name}.help`], o.help, o.name);
});

test("a refusal: the server's words in English, the code's text in another language", () => {
  assert.equal(errorText("not_your_turn", "it is Ben's turn", "en"), "it is Ben's turn");
  assert.equal(errorText("not_your_turn", "it is Ben's turn", "de"), LANGUAGES.de.table["errors.not_your_turn"]);
  assert.equal(errorText("some_new_code", "a new refusal", "de"), "a new refusal");
  assert.equal(errorText("offline", "", "en"), en["errors.offline"]);
});

// ---- lookup, plurals, the browser's choice ----------------------------------------------
test("placeholders are filled; a missing value stays visible; a missing key falls back to English", () => {
  assert.equal(t("join.continueAs", { name: "Ana" }, "en"), "Continue as Ana");
  assert.equal(t("join.continueAs", { name: "Ana" }, "de"), "Weiter als Ana");
  assert.equal(t("join.continueAs", {}, "en"), "Continue as {name}");
  const de = LANGUAGES.de.table;
  const saved = de["home.create"];
  delete de["home.create"];
  try {
    assert.equal(t("home.create", null, "de"), en["home.create"]);
  } finally {
    de["home.create"] = saved;
  }
  assert.equal(t("no.such.key", null, "de"), "no.such.key");
  // user text with braces is not a placeholder of the result
  assert.equal(t("chat.line", { name: "{x}", text: "{name}" }, "en"), "{x}: {name}");
});

test("plural forms follow Intl.PluralRules", () => {
  assert.equal(tn("log.drew.other", 1, { name: "Ben" }, "en"), "Ben drew a card.");
  assert.equal(tn("log.drew.other", 3, { name: "Ben" }, "en"), "Ben drew 3 cards.");
  assert.equal(tn("log.drew.other", 0, { name: "Ben" }, "en"), "Ben drew 0 cards.");
  assert.equal(tn("log.drew.other", 1, { name: "Ben" }, "de"), "Ben hat eine Karte gezogen.");
  assert.equal(tn("log.drew.other", 2, { name: "Ben" }, "de"), "Ben hat 2 Karten gezogen.");
  assert.equal(tn("log.drew.other", 1, { name: "Ben" }, "es"), "Ben ha robado una carta.");
  assert.equal(tn("table.pile", 1, {}, "es"), "Mazo, 1 carta");
  assert.equal(tn("table.pile", 1000000, {}, "es"), "Mazo, 1000000 cartas");
  assert.equal(pluralForm(1000000, "es"), "many");
  assert.equal(pluralForm(1, "en"), "one");
  assert.equal(pluralForm(2, "en"), "other");
});

test("lists and sentences with elements in them", () => {
  assert.equal(listText(["a"], "en"), "a");
  assert.equal(listText(["a", "b", "c"], "en"), "a, b and c");
  assert.equal(listText(["a", "b"], "de"), "a und b");
  assert.equal(listText(["a", "b", "c"], "es"), "a, b y c");
  const link = { tag: "a" };
  const parts = tNodes("home.intro", { link }, "en");
  assert.ok(parts.includes(link));
  assert.equal(parts.filter((p) => typeof p === "string").join(""), en["home.intro"].replace("{link}", ""));
});

test("the browser's languages choose the page's: first supported, by base language, else English", () => {
  assert.equal(pickLanguage(["de-AT", "en"]), "de");
  assert.equal(pickLanguage(["en-GB", "de"]), "en");
  assert.equal(pickLanguage(["pt-BR", "es-MX", "de"]), "es");
  assert.equal(pickLanguage(["ES"]), "es");
  assert.equal(pickLanguage(["pt-BR", "ja"]), "en");
  assert.equal(pickLanguage([]), "en");
  assert.equal(pickLanguage(undefined), "en");
});

// ---- the log and the cards in every language: nothing left unfilled ---------------------
const NAMES = ["Ana", "Ben", "Cy"];
const EVENTS = [
  { kind: "round_start", round: 0, dealer: 0 }, { kind: "round_start", round: 1, dealer: 1 },
  { kind: "deal", cards: ["R1"], count: 7 }, { kind: "deal", cards: ["R1"], count: 1 },
  { kind: "start_card", card: "G5" }, { kind: "start_return", card: "W+4" },
  { kind: "reshuffle", pile: 40 }, { kind: "reshuffle", pile: 1 },
  { kind: "play", seat: 0, cards: ["R7"] }, { kind: "play", seat: 1, cards: ["W"], color: "B" },
  { kind: "play", seat: 1, cards: ["WCR"] }, { kind: "play", seat: 2, cards: ["GDA", "G3", "G5"] },
  { kind: "play", seat: 0, cards: ["WSWAP"], color: "Y", target: 2 }, { kind: "play", seat: 2, cards: ["R7"], target: 0 },
  { kind: "draw", seat: 0, cards: ["Y2"] }, { kind: "draw", seat: 1, count: 1 }, { kind: "draw", seat: 1, count: 4 },
  { kind: "keep", seat: 0 }, { kind: "keep", seat: 1 },
  { kind: "color", seat: 1, color: "G" }, { kind: "color", seat: 1, color: "P", target: 0 },
  { kind: "uno", seat: 0 }, { kind: "uno", seat: 2 }, { kind: "false_uno", seat: 1, penalty: 2 },
  { kind: "catch", seat: 0, caught: 1, penalty: 2 }, { kind: "catch", seat: 1, caught: 0, penalty: 2 }, { kind: "catch", seat: 1, caught: 2, penalty: 2 },
  { kind: "challenge", seat: 0, challenged: 1, guilty: true }, { kind: "challenge", seat: 1, challenged: 0, guilty: false },
  { kind: "challenge", seat: 1, challenged: 2, guilty: true },
  { kind: "reveal", seat: 1, cards: ["R1", "B2"] }, { kind: "reveal", seat: 0 }, { kind: "reveal", seat: 1 },
  { kind: "retract", seat: 1, color: "R" }, { kind: "skip", seat: 0 }, { kind: "skip", seat: 2 }, { kind: "reverse" },
  { kind: "hit", seat: 0, card: "B+2", total: 4 }, { kind: "hit", seat: 1, card: "W+4", total: 8 },
  { kind: "hand", seat: 0, cards: ["R1"] }, { kind: "hand", seat: 1, count: 1 }, { kind: "hand", seat: 1, count: 5 },
  { kind: "swap", seat: 0, with: 1 }, { kind: "swap", seat: 1, with: 0 }, { kind: "swap", seat: 1, with: 2 },
  { kind: "rotate", direction: 1 }, { kind: "rotate", direction: -1 }, { kind: "shuffle_hands", seat: 2 },
  { kind: "discard", seat: 1, cards: ["R1", "R2"] }, { kind: "launch", seat: 0, fired: 3 }, { kind: "launch", seat: 1, fired: 0 },
  { kind: "flip", side: 1, card: "P+5" }, { kind: "flip", side: 0, card: "Y+1" },
  { kind: "knockout", seat: 1, count: 25 }, { kind: "round_over", winner: 0, points: 57 }, { kind: "round_over", winner: 1, points: 0 },
  { kind: "eliminated", seat: 2, score: 500 }, { kind: "game_over", winner: 1, score: 512 }, { kind: "game_over", winner: 0, score: 0 },
];
const CODES = ["R0", "Y7", "GS", "BR", "R+2", "W", "W+4", "WSWAP", "WSHUF", "WCUST", "Y+1", "GR", "BS", "RF", "W+2", "P7", "T+5", "OR", "VSE", "PF", "W+C", "B+4", "GSE", "YDA", "WR+4", "W+6", "W+10", "WCR"];
const LEAK = /\{\w+\}|\b(?:log|cards|colors|colorName|common)\.[a-zA-Z]/;

test("every log line and card name is filled in every language", () => {
  try {
    for (const lang of Object.keys(LANGUAGES)) {
      setLanguage(lang);
      for (const game of [undefined, ...Object.values(GAMES)]) {
        for (const ev of EVENTS) {
          const d = describeEvent(ev, NAMES, 0, null, game);
          if (!d) continue;
          assert.doesNotMatch(d.text, LEAK, `${lang} ${ev.kind}: ${d.text}`);
        }
      }
      for (const code of CODES) {
        const name = cardName(code);
        assert.doesNotMatch(name, LEAK, `${lang} ${code}`);
        assert.notEqual(name, code, `${lang} ${code} has a name`);
      }
      for (const k of ["R", "Y", "G", "B", "P", "T", "O", "V", null]) assert.doesNotMatch(colorName(k), LEAK);
    }
  } finally {
    setLanguage("en");
  }
});

test("the log speaks the language chosen, and says 'you' to the player", () => {
  try {
    setLanguage("en");
    assert.equal(describeEvent({ kind: "play", seat: 1, cards: ["GS"] }, NAMES, 0).text, "Ben played Green Skip.");
    assert.equal(describeEvent({ kind: "play", seat: 0, cards: ["W+4"], color: "R" }, NAMES, 0).text, "You played Wild Draw Four and chose red.");
    setLanguage("de");
    assert.equal(describeEvent({ kind: "play", seat: 1, cards: ["GS"] }, NAMES, 0).text, "Ben hat Grün Aussetzen gespielt.");
    assert.equal(describeEvent({ kind: "draw", seat: 0, count: 2 }, NAMES, 0).text, "Du hast 2 Karten gezogen.");
    setLanguage("es");
    assert.equal(describeEvent({ kind: "play", seat: 1, cards: ["G+2"] }, NAMES, 0).text, "Ben ha jugado Roba dos Verde.");
    assert.equal(describeEvent({ kind: "catch", seat: 1, caught: 0, penalty: 2 }, NAMES, 0).text, "Ben te ha pillado sin decir UNO: robas 2.");
  } finally {
    setLanguage("en");
  }
});

// Players read these texts: the project's own documents and rule ids mean nothing to
// them (issue 49: "RULES-MODERN.md Part A" in a preset, "docs/records.md" in the
// replay's introduction).
const INTERNAL = /\.md\b|RULES|\b(?:Part|Teil|parte|partie) [A-D]\b|\b[A-Z]{2,}-[A-Z]+-\d/;

for (const [lang, { table }] of Object.entries(LANGUAGES)) {
  test(`${lang}: no text names an internal document or rule id`, () => {
    const found = Object.entries(table).filter(([, v]) => typeof v === "string" && INTERNAL.test(v));
    assert.deepEqual(found, [], `${lang}: say it in the player's words`);
  });
}

test("the presets' and options' descriptions the server sends name no internal document", (ctx) => {
  const py = python();
  if (!py) return ctx.skip("no Python with unokit here (set UNOKIT_PYTHON)");
  const out = execFileSync(py, ["-c", "import json; from unokit.server.options import rules_json; print(json.dumps(rules_json()))"], { cwd: ROOT, encoding: "utf8" });
  const rules = JSON.parse(out);
  const texts = [...rules.presets.map((p) => p.description), ...rules.options.map((o) => o.help)];
  const found = texts.filter((s) => typeof s === "string" && INTERNAL.test(s));
  assert.deepEqual(found, []);
});
