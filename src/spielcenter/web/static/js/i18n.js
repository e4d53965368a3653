// The message catalogue of the chosen language, fetched from the server as a static file named by
// its content (web/assets.py rewrites the addresses below to hashed names), so the browser keeps
// it until a message changes. Every visible text goes through t(); the keys live in
// web/i18n/{de,en}/LC_MESSAGES/*.po.

import { getJson } from "./api.js";

export const LANGUAGES = ["de", "en"];
const CATALOGUES = { de: "/static/i18n/de.json", en: "/static/i18n/en.json" };

let current = "en";
let messages = {};

/** The language the browser prefers, if we speak it; English otherwise. */
export function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lang = tag.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(lang)) return lang;
  }
  return "en";
}

/** Load the catalogue of `lang` and make it the current one. */
export async function loadLanguage(lang) {
  messages = await getJson(CATALOGUES[lang]);
  current = lang;
  document.documentElement.lang = lang;
}

export function language() {
  return current;
}

/** Whether the catalogue has a text for `key`. */
export function has(key) {
  return key in messages;
}

/**
 * The text of `key`, with {name} placeholders filled from `params`; the key itself if missing.
 * A text may choose its words by a number, in ICU's plural form:
 * "{empty, plural, one {# empty patch} other {# empty patches}}" (# is the number, written as
 * the language writes numbers; "=0 {…}" matches exactly).
 */
export function t(key, params = {}) {
  const text = plurals(messages[key] ?? key, params);
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

const PLURAL = /\{(\w+), plural,((?:\s*=?\w+\s*\{[^{}]*\})+)\s*\}/g;

function plurals(text, params) {
  return text.replace(PLURAL, (whole, name, forms) => {
    if (!(name in params)) return whole;
    const n = Number(params[name]);
    const choices = {};
    for (const [, form, words] of forms.matchAll(/(=?\w+)\s*\{([^{}]*)\}/g)) choices[form] = words;
    const words = choices[`=${n}`] ?? choices[new Intl.PluralRules(current).select(n)];
    return (words ?? choices.other ?? "").replace(/#/g, formatNumber(n));
  });
}

/** A number as the current language writes it: 1,000 in English, 1.000 in German. */
export function formatNumber(value) {
  return new Intl.NumberFormat(current).format(value);
}

/** An ISO timestamp as the current language writes a date (and the time when `withTime`). */
export function formatDate(iso, withTime = false) {
  if (!iso) return "–";
  const options = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(current, options).format(new Date(iso));
}

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The rank as people of the current language write it: 10 for T; B, D, K in German. */
export function rankLabel(rank) {
  if (rank === "T") return "10";
  return t(`rank.${rank}`);
}

export function suitSymbol(suit) {
  return SUIT_SYMBOLS[suit];
}

/** A card for people, e.g. "10♠" or, in German, "D♥". */
export function cardLabel(code) {
  return rankLabel(code[0]) + SUIT_SYMBOLS[code[1]];
}

/** A duration in milliseconds as m:ss (or h:mm:ss). */
export function formatDuration(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const s = String(total % 60).padStart(2, "0");
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
