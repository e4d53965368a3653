"""Provably fair dice: check a finished game's revealed seed against what its players were shown.

A ranked or staked game is dealt from a secret seed (``games/seeds.py``). At the start the table
shows the seed's commitment; after the end it reveals the seed. :func:`verify` takes the seed, the
commitment and the game as one reader saw it — the views of a replay, step by step — and checks,
without trusting the engine that produced the views:

* the commitment: ``SHA-256("spielcenter-seed-commitment/1|" ‖ seed)`` is the one promised;
* the deal: the shop at the start, the reader's own four dealt blocks and the start player are
  what ``dice.deal_order`` computes from the seed;
* every die shown: each die's value is the dice stream's value for the turn, round, roll and
  colour in which it was last rolled (dice in the basket keep theirs); a die the reader herself
  changed with a thimble or dye bath is flagged ``adjusted`` and checked where it is shown as
  rolled;
* every draw shown: each block that enters the shop, and each block the reader drew blind, is the
  top of its deck as the seed ordered it (an undo puts a refill back on top; blocks put back under
  a deck at the start are known only to their owners, so a draw that reaches them is counted
  ``unchecked``); the deck sizes shown must agree all along.

The replay is plain JSON as the server sends it (``/api/my-tables/{id}/replay``), so this module
is also what ``spielcenter speedquilt verify`` runs on an exported file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from spielcenter.games.base import JSON
from spielcenter.games.seeds import SecretSeed, matches

from .dice import DiceKey, deal_order, giving_turn, own_turn
from .model import Colour

__all__ = ["Verdict", "verify"]

DECKS = ("pattern", "kit")
DEALT_PER_DECK = 2
GIVING = "giving"


@dataclass
class Verdict:
    """What :func:`verify` found: the counts of what was checked, and every fault (plain text)."""

    commitment_ok: bool = False
    dealt: int = 0
    """Blocks of the deal checked (the shop, and the reader's own four)."""
    rolls: int = 0
    """Rolls checked (a roll is the first roll of a turn, a reroll, or a solo giving roll)."""
    dice: int = 0
    """Die values checked where they were rolled."""
    draws: int = 0
    """Blocks checked as drawn from a deck after the deal (shop refills, blind draws)."""
    unchecked: int = 0
    """Draws of blocks nobody but their owner could know (put back under a deck at the start)."""
    faults: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """The seed matches the commitment and everything shown follows from it."""
        return self.commitment_ok and not self.faults

    def to_json(self) -> JSON:
        """The verdict as the replay and ``verify --json`` give it."""
        return {
            "ok": self.ok,
            "commitment_ok": self.commitment_ok,
            "dealt": self.dealt,
            "rolls": self.rolls,
            "dice": self.dice,
            "draws": self.draws,
            "unchecked": self.unchecked,
            "faults": list(self.faults),
        }


def verify(
    seed: SecretSeed,
    promised: str,
    steps: Sequence[JSON],
    pattern_ids: Sequence[str],
    kit_ids: Sequence[str],
) -> Verdict:
    """Check ``steps`` (each with its ``view`` and, where the reader saw it, its ``move``)
    against ``seed`` and the commitment ``promised``; the catalogue's ids in catalogue order."""
    verdict = Verdict(commitment_ok=matches(seed, promised))
    ids = (pattern_ids, kit_ids)
    if not verdict.commitment_ok:
        verdict.faults.append("the revealed seed does not match the commitment shown at the start")
    views = [step.get("view") if isinstance(step, dict) else None for step in steps]
    if not views or not all(isinstance(view, dict) for view in views):
        verdict.faults.append("the replay has no views to check")
        return verdict
    return _walk(seed, steps, [view for view in views if isinstance(view, dict)], ids, verdict)


def _walk(
    seed: SecretSeed,
    steps: Sequence[JSON],
    views: list[JSON],
    ids: tuple[Sequence[str], Sequence[str]],
    verdict: Verdict,
) -> Verdict:
    try:
        checker = _Checker(seed, views[0], *ids, verdict)
        for index in range(1, len(views)):
            checker.step(steps[index], views[index - 1], views[index], index)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as fault:
        verdict.faults.append(f"the replay is not in the expected form ({fault!r})")
    return verdict


class _Checker:
    """Walks the views; holds the decks as the seed ordered them and where each die was rolled."""

    def __init__(
        self,
        seed: SecretSeed,
        start: JSON,
        pattern_ids: Sequence[str],
        kit_ids: Sequence[str],
        verdict: Verdict,
    ) -> None:
        self.verdict = verdict
        self.key = DiceKey.for_seed(seed)
        seats = len(start["seats"])
        order = deal_order(seed, pattern_ids, kit_ids, seats)
        self.decks: dict[str, list[str | None]] = {"pattern": [*order.pattern], "kit": [*order.kit]}
        for deck in DECKS:
            shop = start["shop"][deck]
            self._expect(shop == self.decks[deck][: len(shop)], f"the {deck} shelf at the start")
            self.verdict.dealt += len(shop)
            del self.decks[deck][: len(shop)]
        hands = []
        for _ in range(seats):
            hands.append(
                self.decks["pattern"][:DEALT_PER_DECK] + self.decks["kit"][:DEALT_PER_DECK]
            )
            for deck in DECKS:
                del self.decks[deck][:DEALT_PER_DECK]
        reader = start.get("you")
        if reader is not None and "hand" in start["seats"][reader]:
            self._expect(start["seats"][reader]["hand"] == hands[reader], "your dealt blocks")
            self.verdict.dealt += len(hands[reader])
        self._expect(start["start_player"] == order.start_player, "the start player")
        self._sizes(start, 0)
        self.turn: tuple[int, str, int] | None = None
        self.rolled_at: dict[str, int] = {}
        self.rolls = 0
        self._dice(start, 0)

    def _expect(self, holds: bool, what: str) -> None:
        if not holds:
            self.verdict.faults.append(f"{what} did not follow from the seed")

    def step(self, step: JSON, before: JSON, after: JSON, index: int) -> None:
        """Check one entry: what it drew and what it rolled."""
        if before["phase"] == "choosing" and after["phase"] != "choosing":
            # Every put-back block went under its deck; only its owner knows which it was.
            for deck in DECKS:
                self.decks[deck] += [None] * (after["decks"][deck] - len(self.decks[deck]))
        for deck in DECKS:
            self._shelf(deck, before["shop"][deck], after["shop"][deck], step.get("move"), index)
        self._blind(before.get("turn"), after.get("turn"), after, index)
        self._sizes(after, index)
        self._dice(after, index)

    def _shelf(
        self, deck: str, before: list[Any], after: list[Any], move: str | None, index: int
    ) -> None:
        came = [b for b in after if b is not None and b not in before]
        went = [b for b in before if b is not None and b not in after]
        if move == "undo":
            # An undone purchase: the refill goes back on top of its deck, the block to the shelf.
            self.decks[deck] = [*went, *self.decks[deck]]
            return
        for block in came:
            self._draw(deck, block, index, f"the block entering the {deck} shelf")

    def _blind(self, before: JSON | None, after: JSON | None, view: JSON, index: int) -> None:
        drawn = after.get("drawn") if after else None
        had = before.get("drawn") if before else None
        if drawn is not None and had is None:
            self._draw(drawn["deck"], drawn["block"], index, "the block drawn blind", shown=False)
        elif had is not None and drawn is None:
            deck = had["deck"]
            if view["decks"][deck] == len(self.decks[deck]) + 1:  # returned under its deck
                self.decks[deck].append(had["block"])

    def _draw(
        self, deck: str, block: str | None, index: int, what: str, shown: bool = True
    ) -> None:
        pile = self.decks[deck]
        if not pile:
            self.verdict.faults.append(f"step {index}: {what} came from an empty deck")
            return
        top = pile.pop(0)
        if block is None:
            return  # drawn blind by another seat: not shown to this reader
        if top is None:
            self.verdict.unchecked += 1
        elif top != block:
            self.verdict.faults.append(
                f"step {index}: {what} is {block}; the seed's deck has {top}"
            )
        else:
            self.verdict.draws += 1

    def _sizes(self, view: JSON, index: int) -> None:
        for deck in DECKS:
            shown, known = view["decks"][deck], len(self.decks[deck])
            if shown != known:
                self.verdict.faults.append(
                    f"step {index}: the {deck} deck shows {shown} blocks, the seed's order {known}"
                )
                self.decks[deck] = self.decks[deck][:shown] + [None] * (shown - known)

    def _dice(self, view: JSON, index: int) -> None:
        turn = view.get("turn")
        if turn is None:
            self.turn = None
            return
        current = (turn["seat"], turn["kind"], view["round"])
        if current != self.turn:
            self.turn, self.rolled_at, self.rolls = current, {}, 0
        label = giving_turn() if turn["kind"] == GIVING else own_turn(turn["seat"])
        fresh: set[str] = set()
        if turn["rolls"] != self.rolls:
            if turn["rolls"] != self.rolls + 1:
                self.verdict.faults.append(
                    f"step {index}: the roll count jumped to {turn['rolls']}"
                )
            basket = set(turn["basket"]) if self.rolls else set()
            fresh = {die["die"] for die in turn["dice"] if die["die"] not in basket}
            for colour in fresh:
                self.rolled_at[colour] = turn["rolls"]
            self.rolls = turn["rolls"]
            self.verdict.rolls += 1
        for die in turn["dice"]:
            colour = die["die"]
            if colour not in self.rolled_at:
                self.verdict.faults.append(f"step {index}: the {colour} die was never rolled")
                continue
            if die["adjusted"]:
                continue  # the reader's own thimble or dye: shown as rolled at other steps
            expected = self.key.value(label, view["round"], self.rolled_at[colour], Colour(colour))
            if die["value"] != expected:
                shown = die["value"]
                self.verdict.faults.append(
                    f"step {index}: the {colour} die shows {shown}; the seed rolls {expected}"
                )
            elif colour in fresh:
                self.verdict.dice += 1
