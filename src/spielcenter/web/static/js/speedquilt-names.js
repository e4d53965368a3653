// Who sits at a Speedquilt seat, in the same words on every screen: the lobby, the table, its
// chat and history, the end table and the replays. A person is her name, a guest "Gast 2" by her
// seat; a computer is a neighbour with a name and its strength ("Hilde (normal)"); she herself is
// "Du" where she is spoken to, and her name where the others' words are (history, chat).

import { t } from "./i18n.js";

/** The computer neighbours' names, given in seat order to the computers of a table. */
export const NEIGHBOUR_NAMES = ["Hilde", "Erna", "Gerda"];

/**
 * The name of `seat` among `seats` (the table summary's seats: {seat, kind, name, level}).
 * @param you her own seat (null for a spectator)
 * @param thirdPerson whether the words around speak of her (history, chat): then no "Du"
 */
export function seatName(seats, seat, you = null, thirdPerson = false) {
  if (seat === you && !thirdPerson) return t("sq.you");
  const info = seats?.find((s) => s.seat === seat);
  if (info?.kind === "computer") {
    const index = seats.filter((s) => s.kind === "computer").indexOf(info);
    return t("sq.computer_name", {
      name: NEIGHBOUR_NAMES[index % NEIGHBOUR_NAMES.length],
      level: t(`sq.level.${info.level}`),
    });
  }
  return info?.name || t("tables.guest", { n: seat + 1 });
}
