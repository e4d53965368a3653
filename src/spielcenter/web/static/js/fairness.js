// Provably fair dice (issue 37): what a person is shown of a game's secret seed. At a table the
// short fingerprint of the seed's commitment, from the start; in a finished game's replay the one
// line the server computed by checking the revealed seed against that fingerprint and against
// every die and draw the replay shows (services/fairness.py). The words come from fairness.po.

import { t } from "./i18n.js";
import { el } from "./dom.js";

/**
 * The fingerprint of a table's seed, small, for the table screen; null for a practice table dealt
 * from a chosen number.
 */
export function fingerprintNote(fairness) {
  if (!fairness?.fingerprint) return null;
  const text = t("fairness.fingerprint", { fingerprint: fairness.fingerprint });
  const note = el("p", "sq-fairness", text);
  note.title = t("fairness.fingerprint_explained");
  return note;
}

/** The replay's line about the dice: checked and fair, not confirmed, or still sealed. */
export function fairnessLine(fairness) {
  if (!fairness?.fingerprint) return null;
  const verdict = fairness.verdict;
  let text;
  let state;
  if (!verdict) {
    text = t("fairness.sealed", { fingerprint: fairness.fingerprint });
    state = "sealed";
  } else if (verdict.ok) {
    const { rolls, draws } = verdict;
    text = t("fairness.verified", { fingerprint: fairness.fingerprint, rolls, draws });
    state = "ok";
  } else {
    text = t("fairness.failed", { fingerprint: fairness.fingerprint });
    state = "failed";
  }
  const line = el("p", `replay-fairness ${state}`, text);
  line.dataset.fairness = state;
  return line;
}
