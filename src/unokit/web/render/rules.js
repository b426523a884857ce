// The rules a room plays by, in words: the one-line summary (the join page, the lobby),
// one sentence per option, and the Rules panel at the table.  Pure: a room message and
// /api/rules in, text and vnodes out.

import { h } from "../dom.js";
import { has, listText, t, tn, tOr } from "../i18n.js";

/** "Rules: party, with hand size 5 and target score 100. Turn timer: off." */
export function rulesLine(room) {
  const opts = Object.entries(room.rules.options || {}).map(([k, v]) => t("rules.option", { option: optionLabel(k), value: optionText(v, k) }));
  const vars = { preset: presetName(room.rules.preset), options: listText(opts), timer: room.timer ? t("rules.timerSeconds", { n: room.timer }) : t("common.off") };
  return t(opts.length ? "rules.line" : "rules.lineNone", vars);
}

/** A preset's name and description, an option's name and help, a choice's words: the
 * page's language, else what the server says (a preset or option the page does not know). */
export const presetName = (name) => tOr(`preset.${name}`, name);
export const presetDescription = (p) => tOr(`preset.${p.name}.desc`, p.description || "");
export const optionLabel = (name) => tOr(`option.${name}`, name.replaceAll("_", " "));
export const optionHelp = (o) => tOr(`option.${o.name}.help`, o.help || "");
export const choiceText = (option, value) => tOr(`choice.${option}.${value}`, String(value));

export function optionText(v, name = null) {
  if (v === true) return t("common.on");
  if (v === false) return t("common.off");
  if (Array.isArray(v)) return v.join("/");
  return name ? choiceText(name, v) : String(v);
}

/** An option of this room's rules: its own options, else its preset's, else the default. */
export function ruleValue(name, room, rules) {
  const mine = room?.rules?.options || {};
  if (name in mine) return mine[name];
  const preset = rules?.presets.find((p) => p.name === room?.rules?.preset);
  if (preset && name in preset.options) return preset.options[name];
  return rules?.options.find((o) => o.name === name)?.default;
}

// ---- the rules in force ------------------------------------------------------------------
// "rule.<x>.on"/".off" for a yes-or-no option, "rule.<x>.<value>" for a choice
const onOff = (key, v) => t(`${key}.${v ? "on" : "off"}`);
const choice = (key, v, fallback) => (has(`${key}.${v}`) ? t(`${key}.${v}`) : fallback);

/** One sentence for an option's value (the rule as it plays at this table). */
export function ruleSentence(name, v) {
  const n = Number(v);
  switch (name) {
    case "deck": return choice("rule.deck", v, t("rule.deck.any", { value: v }));
    case "custom_rule": return choice("rule.custom", v, t("rule.custom.any", { value: v }));
    case "custom_cards": return tn("rule.customCards", n);
    case "hand_size": return tn("rule.handSize", n);
    case "target_score": return tn("rule.target", n);
    case "scoring": return choice("rule.scoring", v, t("rule.scoring.any", { value: v }));
    case "wild_points": return t("rule.wildPoints", { n });
    case "uno_penalty": return tn("rule.unoPenalty", n);
    case "false_uno_penalty": return n ? tn("rule.falseUno", n) : t("rule.falseUnoFree");
    case "wd4_bluffing": return onOff("rule.bluffing", v);
    case "wd4_guilty": return t(v === "retract" ? "rule.guilty.retract" : "rule.guilty.draw4");
    case "draw_until_playable": return onOff("rule.drawUntil", v);
    case "force_play_drawn": return onOff("rule.forcePlay", v);
    case "stacking": return choice("rule.stacking", v, t("rule.stacking.any", { value: v }));
    case "stack_draw4_on_draw2": return onOff("rule.draw4OnDraw2", v);
    case "multi_play": return onOff("rule.multiPlay", v);
    case "jump_in": return onOff("rule.jumpIn", v);
    case "seven_zero": return onOff("rule.sevenZero", v);
    case "attack_launcher": return onOff("rule.launcher", v);
    // UNO Flip! (RULES-MODERN.md A12)
    case "flip_start": return t(v === "flip" ? "rule.flipStart.flip" : "rule.flipStart.redraw");
    case "flip_inverts_discard": return onOff("rule.flipInverts", v);
    case "flip_exposed_action": return onOff("rule.flipExposed", v);
    case "flip_wild_color": return t(v === "next_player" ? "rule.flipWild.next_player" : "rule.flipWild.flipper");
    case "flip_last_card": return t(v === "no_flip" ? "rule.flipLast.no_flip" : "rule.flipLast.flip");
    case "flip_pairing": return t("rule.flipPairing");
    // No Mercy (RULES-MODERN.md B11)
    case "nm_deck": return t("rule.nmDeck", { value: v });
    case "nm_voluntary_draw": return onOff("rule.nmVoluntary", v);
    case "nm_stack_threshold": return t(v === "total" ? "rule.nmThreshold.total" : "rule.nmThreshold.last");
    case "nm_stack_match_color": return onOff("rule.nmMatchColor", v);
    case "nm_stack_deflect": return onOff("rule.nmDeflect", v);
    case "mercy_limit": return n ? t("rule.mercy", { n }) : t("rule.mercyOff");
    case "nm_knockout_cards": return t(v === "discard_bottom" ? "rule.nmKnockout.discard_bottom" : "rule.nmKnockout.set_aside");
    case "nm_last_card_effect": return onOff("rule.nmLastEffect", v);
    case "nm_roulette_color": return t(v === "player" ? "rule.nmRoulette.player" : "rule.nmRoulette.victim");
    default: return t("rule.other", { option: optionLabel(name), value: optionText(v, name) });
  }
}

/** The rules of this room: the preset's description, then one sentence per rule that
 * differs from the official rules, then the target and the penalties. */
export function rulesInForce(room, rules) {
  const preset = rules?.presets.find((p) => p.name === room.rules.preset);
  const defaults = {};
  const game = preset?.game || "classic"; // a modern game lists only the options it plays
  for (const o of rules?.options || []) if (!o.games || o.games.includes(game)) defaults[o.name] = o.default;
  const house = [];
  const names = Object.keys(defaults).filter((k) => k !== "launcher_weights");
  for (const k of names) {
    const v = ruleValue(k, room, rules);
    if (JSON.stringify(v) !== JSON.stringify(defaults[k])) house.push([k, v]);
  }
  const always = ["target_score", "uno_penalty", "stacking", "mercy_limit"].filter((k) => k in defaults && !house.some(([n]) => n === k)).map((k) => [k, ruleValue(k, room, rules)]);
  return { preset: room.rules.preset, description: preset ? presetDescription(preset) : "", house, always };
}

/** The Rules panel (the top bar's Rules button): ``act.toggleRules`` closes it. */
export function rulesPanel(room, rules, act) {
  if (!rules) return h("section", { class: "help rules", id: "rules" }, h("p", { text: t("rulesPanel.loading") }));
  const r = rulesInForce(room, rules);
  const item = ([k, v]) => h("li", { dataset: { rule: k } }, h("b", { text: t("rulesPanel.item", { option: optionLabel(k) }) }), ruleSentence(k, v));
  return h("section", { class: "help rules", id: "rules", "aria-labelledby": "rules-h" },
    h("h2", { id: "rules-h", text: t("rulesPanel.title", { preset: presetName(r.preset) }) }),
    r.description ? h("p", { class: "hint", text: r.description.charAt(0).toUpperCase() + r.description.slice(1) + "." }) : null,
    h("h3", { text: r.house.length ? t("rulesPanel.house") : t("rulesPanel.noHouse") }),
    r.house.length ? h("ul", { class: "rule-list", id: "house-rules" }, r.house.map(item)) : null,
    h("ul", { class: "rule-list" }, r.always.map(item),
      h("li", {}, h("b", { text: t("rulesPanel.timer") }), room.timer ? t("rulesPanel.timerOn", { n: room.timer }) : t("rulesPanel.timerOff"))),
    h("button", { class: "btn small", type: "button", id: "rules-close", text: t("common.close"), onclick: act.toggleRules }));
}

