// Languages (issue 36 item 18): every string the page shows is looked up here, in one
// table per language (locales/en.js, de.js, es.js, fr.js, listed in locales/index.js;
// flat "area.what" keys).
//
//   t("home.create")                      the text of a key in the current language
//   t("join.continueAs", { name })        "{name}" placeholders filled in
//   tn("log.drew.other", 3, { name })     plural forms: the key's ".one"/".other"/... sub-key
//                                         chosen by Intl.PluralRules; "{n}" is the count
//   tNodes("home.intro", { link: a })     the same, as a list of strings and elements, for
//                                         a sentence with a link in it (no innerHTML)
//
// A key missing from a language falls back to English, then to the key itself (the
// tests in tests/js/ make sure neither happens).  The lookup is pure (a table and a
// language in, text out) and runs in Node; the browser's parts (navigator, localStorage,
// document) are the small functions at the end.

import TABLES from "./locales/index.js";

/** Every language the page speaks: code -> its name in itself and its table. */
export const LANGUAGES = TABLES;
const en = LANGUAGES.en.table;
export const DEFAULT_LANGUAGE = "en";
export const STORAGE_KEY = "unokit:lang";

let current = DEFAULT_LANGUAGE;
const listeners = new Set();
const pluralRules = {};

export function language() {
  return current;
}

/** The text of ``key`` in ``lang``'s table, else English's, else undefined. */
export function lookup(key, lang = current) {
  const table = LANGUAGES[lang]?.table;
  if (table && Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  if (Object.prototype.hasOwnProperty.call(en, key)) return en[key];
  return undefined;
}

/** Whether English has ``key`` (a plural key counts by its ".other" form). */
export function has(key) {
  return lookup(key, DEFAULT_LANGUAGE) !== undefined || lookup(`${key}.other`, DEFAULT_LANGUAGE) !== undefined;
}

function fill(template, vars) {
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(vars, name) && vars[name] !== null && vars[name] !== undefined ? String(vars[name]) : whole);
}

/** The text of ``key`` with its placeholders filled from ``vars``. */
export function t(key, vars, lang = current) {
  const text = lookup(key, lang);
  return text === undefined ? key : fill(text, vars);
}

/** ``key`` if English has it, else ``fallback`` (a server's text for a name the page
 * does not know yet: a new preset, option or error code). */
export function tOr(key, fallback, vars, lang = current) {
  return has(key) ? t(key, vars, lang) : fallback;
}

/**
 * What to show for a refusal with ``code`` (docs/protocol.md, "Errors"): in English the
 * server's own message (it says more: "it is Ben's turn"); in another language the
 * code's "errors.<code>" text; the server's message for a code the page does not know.
 */
export function errorText(code, serverMessage, lang = current) {
  if (lang === DEFAULT_LANGUAGE && serverMessage) return serverMessage;
  const key = `errors.${code}`;
  if (has(key)) return t(key, null, lang);
  return serverMessage || String(code);
}

/** The plural category of ``n`` in ``lang`` ("one", "other", "many", ...). */
export function pluralForm(n, lang = current) {
  if (!pluralRules[lang]) {
    try {
      pluralRules[lang] = new Intl.PluralRules(lang);
    } catch {
      pluralRules[lang] = new Intl.PluralRules(DEFAULT_LANGUAGE);
    }
  }
  return pluralRules[lang].select(n);
}

/** The form of ``key`` for the count ``n`` (``{n}`` in it is the count). */
export function tn(key, n, vars, lang = current) {
  const form = pluralForm(n, lang);
  const all = { n, ...(vars || {}) };
  for (const k of [`${key}.${form}`, `${key}.other`]) {
    const text = lookup(k, lang);
    if (text !== undefined) return fill(text, all);
  }
  return key;
}

/**
 * ``key``'s text cut at its placeholders: a list of strings and the values of
 * ``vars`` as they are (elements stay elements), for ``el.append(...)``.
 */
export function tNodes(key, vars = {}, lang = current) {
  const text = lookup(key, lang);
  if (text === undefined) return [key];
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const v = vars[m[1]];
    out.push(v === undefined || v === null ? m[0] : typeof v === "object" ? v : String(v));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** "a", "a and b", "a, b and c" in the current language. */
export function listText(items, lang = current) {
  const xs = items.map(String);
  if (xs.length < 2) return xs.join("");
  return t("common.list", { items: xs.slice(0, -1).join(t("common.listSep", null, lang)), last: xs[xs.length - 1] }, lang);
}

/**
 * The language for the browser's preferences (``navigator.languages``): the first one
 * the page speaks, by its exact tag or its base language ("de-AT" -> "de"); else English.
 */
export function pickLanguage(preferred, supported = Object.keys(LANGUAGES)) {
  for (const tag of preferred || []) {
    if (typeof tag !== "string" || !tag) continue;
    const low = tag.toLowerCase();
    if (supported.includes(low)) return low;
    const base = low.split(/[-_]/)[0];
    if (supported.includes(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

/** Called with the new language after every switch (the page draws itself again). */
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Speak ``lang`` from now on; ``persist``: remember it in this browser (a choice made
 * with the switch).  Returns the language set (English for one the page does not speak).
 */
export function setLanguage(lang, { persist = false } = {}) {
  const next = LANGUAGES[lang] ? lang : DEFAULT_LANGUAGE;
  const changed = next !== current;
  current = next;
  if (persist) storeLanguage(next);
  if (typeof document !== "undefined") {
    document.documentElement.lang = next;
    applyStatic(document);
    syncSwitch();
  }
  if (changed) for (const fn of [...listeners]) fn(next);
  return next;
}

// ---- the browser's parts ---------------------------------------------------------------

function storedLanguage() {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) || null;
  } catch {
    return null; // storage refused (private mode, a sandbox)
  }
}

function storeLanguage(lang) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    /* the choice lasts this page only */
  }
}

/** The language the page starts in: the one chosen before with the switch, else the
 * browser's preferences. */
export function initialLanguage() {
  const saved = storedLanguage();
  if (saved && LANGUAGES[saved]) return saved;
  const nav = globalThis.navigator;
  return pickLanguage(nav ? (nav.languages?.length ? nav.languages : [nav.language]) : []);
}

/**
 * The page's fixed text (index.html): ``data-i18n="key"`` sets an element's text,
 * ``data-i18n-attr="aria-label:key title:key"`` its attributes.
 */
export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const [attr, key] = pair.split(":");
      el.setAttribute(attr, t(key));
    }
  }
}

// the switch in the top bar (index.html: <select id="lang">), each language by its code
// and its name in itself ("DE · Deutsch")
function syncSwitch() {
  const sel = document.getElementById("lang");
  if (!sel) return;
  if (!sel.options.length) {
    for (const [code, { name }] of Object.entries(LANGUAGES)) {
      const o = document.createElement("option");
      o.value = code;
      o.lang = code;
      o.textContent = `${code.toUpperCase()} · ${name}`; // a phone shows the code alone
      sel.append(o);
    }
    sel.addEventListener("change", () => setLanguage(sel.value, { persist: true }));
  }
  sel.value = current;
}

if (typeof document !== "undefined") setLanguage(initialLanguage());
