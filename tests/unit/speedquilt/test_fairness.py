"""Provably fair dice (issue 37): the revealed seed is checked against the commitment, and every
die and every draw a reader was shown is checked against the seed (games/speedquilt/fairness.py).

The steps are built the way a replay is: the view after each entry, from one reader's seat.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from spielcenter.bots.tournament import play_game
from spielcenter.games.base import JSON
from spielcenter.games.seeds import SecretSeed, commitment
from spielcenter.games.speedquilt.fairness import Verdict, verify
from spielcenter.games.speedquilt.rules import Speedquilt

from .engine_helpers import CATALOGUE, game

SEED = SecretSeed(bytes.fromhex("5eed" * 16))
PROMISED = commitment(SEED)


def _log(players: int, seed: SecretSeed = SEED) -> list[tuple[int, str]]:
    levels = ["normal"] * players
    variant = "table" if players > 1 else "solo"
    return play_game(levels, seed, variant=variant).moves  # type: ignore[arg-type]


def _steps(engine: Speedquilt, log: list[tuple[int, str]], reader: int | None) -> list[JSON]:
    state = engine.start(SEED)
    steps: list[JSON] = [{"seq": 0, "move": None, "view": engine.view_for(state, reader)}]
    for seq, (seat, text) in enumerate(log, start=1):
        state = engine.play(state, text, seat)
        steps.append({"seq": seq, "move": text, "view": engine.view_for(state, reader)})
    return steps


def _verify(steps: list[JSON], seed: SecretSeed = SEED, promised: str = PROMISED) -> Verdict:
    return verify(seed, promised, steps, CATALOGUE.pattern_ids, CATALOGUE.kit_ids)


@pytest.fixture(scope="module")
def three() -> tuple[Speedquilt, list[tuple[int, str]]]:
    return game(3), _log(3)


@pytest.mark.parametrize("reader", [0, 1, 2, None])
def test_an_honest_table_passes_from_every_seat_and_for_a_spectator(
    three: tuple[Speedquilt, list[tuple[int, str]]], reader: int | None
) -> None:
    engine, log = three
    verdict = _verify(_steps(engine, log, reader))
    assert verdict.ok, verdict.faults
    assert verdict.rolls >= 20 and verdict.dice >= 5 * 20 and verdict.draws >= 1
    assert verdict.dealt == 8 + (4 if reader is not None else 0)


def test_an_honest_solo_game_passes_with_its_giving_turns() -> None:
    engine = game(1, "solo")
    log = _log(1)
    verdict = _verify(_steps(engine, log, 0))
    assert verdict.ok, verdict.faults
    giving_rolls = sum(1 for _seat, text in log if text == "end")  # each end rolls a giving turn
    assert verdict.rolls >= giving_rolls + 12


def test_an_undone_purchase_puts_its_refill_back_on_top_of_the_deck(
    three: tuple[Speedquilt, list[tuple[int, str]]],
) -> None:
    engine, log = three
    first_buy = next(i for i, (_seat, text) in enumerate(log) if text.startswith("buy "))
    seat, buy = log[first_buy]
    # Buy, take it back, buy again: the refill seen in between is drawn again from the top.
    with_undo = [*log[: first_buy + 1], (seat, "undo"), (seat, buy), *log[first_buy + 1 :]]
    steps = _steps(engine, with_undo, None)
    verdict = _verify(steps)
    assert verdict.ok, verdict.faults
    refill = steps[first_buy + 1]["view"]["shop"]
    assert refill == steps[first_buy + 3]["view"]["shop"]


def _rolled(steps: list[JSON]) -> tuple[int, dict[str, Any]]:
    index = next(i for i, s in enumerate(steps) if s["move"] == "roll")
    return index, steps[index]["view"]["turn"]["dice"][2]


def test_a_tampered_die_fails(three: tuple[Speedquilt, list[tuple[int, str]]]) -> None:
    engine, log = three
    steps = copy.deepcopy(_steps(engine, log, None))
    index, die = _rolled(steps)
    die["value"] = die["value"] % 6 + 1
    verdict = _verify(steps)
    assert not verdict.ok and verdict.commitment_ok
    assert any(f"step {index}: the {die['die']} die" in fault for fault in verdict.faults)


def test_a_tampered_refill_fails(three: tuple[Speedquilt, list[tuple[int, str]]]) -> None:
    engine, log = three
    steps = copy.deepcopy(_steps(engine, log, None))
    first_buy = next(i for i, (_s, text) in enumerate(log, start=1) if text.startswith("buy "))
    shop = steps[first_buy]["view"]["shop"]
    deck = "pattern" if " P" in log[first_buy - 1][1] else "kit"
    shown = {b for step in steps for b in step["view"]["shop"][deck] if b}
    unseen = next(b for b in (CATALOGUE.pattern_ids + CATALOGUE.kit_ids) if b not in shown)
    shop[deck][0] = unseen
    assert not _verify(steps).ok


def test_a_seed_that_is_not_the_committed_one_fails(
    three: tuple[Speedquilt, list[tuple[int, str]]],
) -> None:
    engine, log = three
    verdict = _verify(_steps(engine, log, None), seed=SecretSeed(bytes(32)))
    assert not verdict.commitment_ok and not verdict.ok
    assert any("did not follow from the seed" in fault for fault in verdict.faults)


def test_a_commitment_that_is_not_the_seeds_fails(
    three: tuple[Speedquilt, list[tuple[int, str]]],
) -> None:
    engine, log = three
    verdict = _verify(_steps(engine, log, 0), promised=commitment(SecretSeed(bytes(32))))
    assert not verdict.ok and not verdict.commitment_ok
    assert verdict.faults[0] == "the revealed seed does not match the commitment shown at the start"


def test_a_replay_without_views_is_a_fault_not_a_crash() -> None:
    assert not _verify([]).ok
    assert "not in the expected form" in _verify([{"view": {"seats": []}}]).faults[-1]


def _bargain_bin_log(engine: Speedquilt, turns: int) -> list[tuple[int, str]]:
    """Every turn: three rolls, then a blind draw from the bargain bin, placed or put back."""
    state = engine.start(SEED)
    log: list[tuple[int, str]] = []

    def play(seat: int, text: str) -> None:
        nonlocal state
        state = engine.play(state, text, seat)
        log.append((seat, text))

    for seat in range(engine.seats):
        play(seat, engine.format_move(engine.legal_moves(state, seat)[0]))
    for turn in range(turns):
        active = state.active
        assert active is not None
        for text in ("roll", "reroll", "reroll"):
            for other in sorted(engine.to_act(state) - {active}):
                play(other, "pass")
            play(active, text)
        for other in sorted(engine.to_act(state) - {active}):
            play(other, "pass")
        play(active, f"bin draw {'kit' if turn % 2 else 'pattern'}")
        legal = [engine.format_move(m) for m in engine.legal_moves(state, active)]
        places = [text for text in legal if text.startswith("bin place")]
        play(active, "bin return" if turn % 3 == 0 or not places else places[0])
        play(active, "end")
    return log


@pytest.mark.parametrize("reader", [0, 1, None])
def test_blind_draws_are_checked_for_the_drawer_and_hidden_from_the_others(
    reader: int | None,
) -> None:
    engine = game(2)
    log = _bargain_bin_log(engine, 8)
    verdict = _verify(_steps(engine, log, reader))
    assert verdict.ok, verdict.faults
    own = sum(1 for seat, text in log if seat == reader and text.startswith("bin draw"))
    assert verdict.draws == own and verdict.rolls == 8 * 3
