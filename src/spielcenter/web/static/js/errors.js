// The one error formatter: a refusal of the server (an ApiError of api.js, or an `error` message
// of a socket) said in her language. The server's code goes through the catalogues; its English
// words are the fallback for a code the catalogue does not know yet.

import { has, t } from "./i18n.js";

/**
 * The text for a refusal: its code's message, else the server's words, else "unknown error".
 * @param error {code, message}
 * @param serverWords false where only the catalogue may speak (the account box keeps to her
 *   language: an unknown code reads "unknown error" rather than the server's English)
 */
export function errorText(error, { serverWords = true } = {}) {
  const key = `error.${error.code}`;
  if (has(key)) return t(key);
  return (serverWords && error.message) || t("error.unknown");
}
