// Where the rules page of a game lives, in the current language. Resolved against this module's
// own address, so it holds wherever the server mounts the static files.

import { language } from "./i18n.js";

export function rulesUrl(game) {
  return new URL(`../rules/${game}.${language()}.html`, import.meta.url).href;
}
