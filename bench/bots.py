"""Measure the Speedquilt computer players: win rates, solo scores, timings, campaign, blocks.

    uv run python bench/bots.py duel strong,normal --games 200 --seed 1000 --out sn.jsonl
    uv run python bench/bots.py solo strong --games 100 --seed 1 --out solo.jsonl \\
        [--rounds 10 --top-shelf 3 --bottom-shelf 4]
    uv run python bench/bots.py report FILES... [--histogram docs/bots-solo.png]
    uv run python bench/bots.py balance FILES...            # per block, in strong's games
    uv run python bench/bots.py calibrate FILES... [--write]  # campaign targets from strong solo
    uv run python bench/bots.py campaigns FILES...          # whole campaigns from those scores

``--jobs 2`` plays on two processes. Each game is written as one JSON line as soon as it ends, so
a run that is stopped early still leaves its figures; the other commands sum up any number of
such files (docs/bots.md quotes them).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spielcenter.bots.tournament import play_game, wilson

CAMPAIGN = Path(__file__).parent.parent / "src/spielcenter/games/speedquilt/campaign.toml"
CLEAR_AIMS = (0.96, 0.85, 0.74, 0.62, 0.50, 0.37, 0.25)
"""The clear rate of the strong player aimed at per stage: almost always at 1 (0.96 leaves room
for the sampling error above the 95 % the issue asks), one in four at 7
(design speedquilt.md §6), falling about evenly between."""


# -- playing ----------------------------------------------------------------------------------


def _options(args: argparse.Namespace) -> dict[str, int]:
    names = ("rounds", "top_shelf", "bottom_shelf")
    return {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}


def _one(task: tuple[list[str], int, str, dict[str, int]]) -> dict[str, Any]:
    seated, seed, variant, options = task
    result = play_game(seated, seed, variant=variant, **options)
    bought = [
        [text.split()[1] for s, text in result.moves if s == seat and text.startswith("buy ")]
        for seat in range(len(seated))
    ]
    return {
        "seed": result.seed,
        "variant": variant,
        "options": options,
        "levels": result.levels,
        "scores": result.scores,
        "places": result.places,
        "times": result.times,
        "quilts": result.quilts,
        "bought": bought,
    }


def _play(args: argparse.Namespace, solo: bool) -> int:
    levels = args.players.split(",")
    variant = "solo" if solo else "table"
    tasks = [
        ([levels[(k + i) % len(levels)] for i in range(len(levels))], args.seed + k, variant)
        for k in range(args.games)
    ]
    full = [(seated, seed, v, _options(args)) for seated, seed, v in tasks]
    bar = tqdm(total=len(full), desc=f"{variant} {args.players}", file=sys.stderr)
    with Path(args.out).open("a", encoding="utf-8") as out:
        for line in _results(full, args.jobs):
            out.write(json.dumps(line) + "\n")
            out.flush()
            bar.update()
    bar.close()
    return 0


def _results(tasks: list[Any], jobs: int) -> Iterator[dict[str, Any]]:
    if jobs <= 1:
        yield from map(_one, tasks)
        return
    with Pool(jobs) as pool:
        yield from pool.imap(_one, tasks)


# -- reading ----------------------------------------------------------------------------------


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _load(files: list[str]) -> list[dict[str, Any]]:
    return [
        json.loads(line) for name in files for line in Path(name).read_text().split("\n") if line
    ]


def _solo_key(game: dict[str, Any]) -> str:
    options = game.get("options") or {}
    twists = ", ".join(f"{k}={v}" for k, v in sorted(options.items()))
    return game["levels"][0] + (f" ({twists})" if twists else "")


def _report(args: argparse.Namespace) -> int:
    games = _load(args.files)
    duels: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    solo: dict[str, list[int]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    for game in games:
        for level, seat_times in zip(game["levels"], game["times"], strict=True):
            times[level].extend(seat_times)
        if game["variant"] == "solo":
            solo[_solo_key(game)].append(game["scores"][0])
        else:
            duels[tuple(sorted(game["levels"]))].append(game)
    for pair, played in sorted(duels.items()):
        for level in sorted(set(pair)):
            wins = sum(
                1 / g["places"].count(1)
                for g in played
                for seat, lv in enumerate(g["levels"])
                if lv == level and g["places"][seat] == 1
            )
            scores = [
                g["scores"][s] for g in played for s, lv in enumerate(g["levels"]) if lv == level
            ]
            low, high = wilson(wins, len(played))
            mean = sum(scores) / len(scores)
            print(
                f"{' vs '.join(pair)}: {level} wins {wins / len(played):.1%} "
                f"(95% {low:.1%}–{high:.1%}) of {len(played)}, mean score {mean:.1f}"
            )
    for key, scores in sorted(solo.items()):
        mean = sum(scores) / len(scores)
        sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(1, len(scores) - 1))
        print(
            f"solo {key}: mean {mean:.1f} (sd {sd:.1f}), median {_quantile(scores, 0.5):.0f}, "
            f"5%–95% {_quantile(scores, 0.05):.0f}–{_quantile(scores, 0.95):.0f} "
            f"over {len(scores)}"
        )
    for level, values in sorted(times.items()):
        ms = [v * 1000 for v in values]
        print(
            f"decision ms {level}: p50 {_quantile(ms, 0.5):.1f} p95 {_quantile(ms, 0.95):.1f} "
            f"max {max(ms):.1f} over {len(ms)}"
        )
    plain = {k: v for k, v in solo.items() if "(" not in k}
    if args.histogram and plain:
        _histogram(plain, Path(args.histogram))
    return 0


def _histogram(solo: dict[str, list[int]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    top = max(max(s) for s in solo.values())
    bins = range(0, top + 4, 4)
    for level in ("easy", "normal", "strong"):
        if level in solo:
            scores = solo[level]
            mean = sum(scores) / len(scores)
            label = f"{level} (n={len(scores)}, mean {mean:.1f})"
            # Shares, not counts: the levels are measured on different numbers of games.
            axes.hist(scores, bins=bins, density=True, histtype="step", linewidth=2, label=label)
    axes.set_xlabel("solo score (12 rounds, giving turn, round bonus)")
    axes.set_ylabel("share of games per point")
    axes.set_title("Speedquilt solo: scores of the computer players")
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)


# -- catalogue balance ------------------------------------------------------------------------


def _balance(args: argparse.Namespace) -> int:
    """Per block, over the strong seats of the files' games: bought, in the final quilt,
    finished, mean points when finished."""
    games = [g for g in _load(args.files) if "quilts" in g]
    seats = 0
    bought: dict[str, int] = defaultdict(int)
    held: dict[str, int] = defaultdict(int)
    done: dict[str, int] = defaultdict(int)
    points: dict[str, int] = defaultdict(int)
    for game in games:
        for seat, level in enumerate(game["levels"]):
            if level != args.level:
                continue
            seats += 1
            for block_id in game["bought"][seat]:
                bought[block_id] += 1
            for block_id, (finished, pts) in game["quilts"][seat].items():
                held[block_id] += 1
                if finished:
                    done[block_id] += 1
                    points[block_id] += pts
    print(f"{args.level} seats: {seats} (games: {len(games)})")
    print("| block | bought per 100 quilts | in the final quilt | finished | mean points |")
    print("| --- | --- | --- | --- | --- |")
    ids = sorted(set(bought) | set(held), key=lambda b: (b[0], int(b[1:])))
    for block_id in ids:
        mean = f"{points[block_id] / done[block_id]:.1f}" if done[block_id] else "–"
        rate = f"{done[block_id] / held[block_id]:.0%}" if held[block_id] else "–"
        print(
            f"| {block_id} | {100 * bought[block_id] / seats:.1f} | "
            f"{100 * held[block_id] / seats:.1f} | {rate} | {mean} |"
        )
    return 0


# -- campaign calibration ---------------------------------------------------------------------


def _stages() -> list[dict[str, Any]]:
    import tomllib

    return list(tomllib.loads(CAMPAIGN.read_text(encoding="utf-8"))["stage"])


def _twists(stage: dict[str, Any]) -> dict[str, int]:
    return {k: stage[k] for k in ("rounds", "top_shelf", "bottom_shelf") if k in stage}


def _target_for(scores: list[int], aim: float) -> int:
    """The highest target that a share of at least ``aim`` of the scores reaches."""
    for target in range(max(scores), -1, -1):
        if sum(s >= target for s in scores) / len(scores) >= aim:
            return target
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    """Targets from the strong player's solo scores under each stage's twists; with
    ``--check`` files (other deals) the clear rates are measured on games not used to choose."""
    by_twists = _solo_scores(args.files)
    check = _solo_scores(args.check) if args.check else by_twists
    stages = _stages()
    print("| stage | twists | target | clear rate | 95 % interval | campaign points when cleared |")
    print("| --- | --- | --- | --- | --- | --- |")
    targets = []
    for stage, aim in zip(stages, CLEAR_AIMS, strict=True):
        key = json.dumps(_twists(stage), sort_keys=True)
        target = _target_for(by_twists[key], aim)
        targets.append(target)
        scores = check[key]
        cleared = [s - target for s in scores if s >= target]
        low, high = wilson(len(cleared), len(scores))
        gain = sum(cleared) / len(cleared) if cleared else 0.0
        twists = ", ".join(f"{k} {v}" for k, v in _twists(stage).items()) or "–"
        print(
            f"| {stage['number']} | {twists} | {target} | {len(cleared) / len(scores):.1%} "
            f"(n={len(scores)}) | {low:.1%}–{high:.1%} | {gain:.1f} |"
        )
    if args.write:
        _write_targets(targets)
    return 0


def _solo_scores(files: list[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = defaultdict(list)
    for game in _load(files):
        if game["variant"] == "solo" and game["levels"] == ["strong"]:
            out[json.dumps(game.get("options") or {}, sort_keys=True)].append(game["scores"][0])
    return out


def _write_targets(targets: list[int]) -> None:
    """Replace the target numbers in campaign.toml, nothing else."""
    text = CAMPAIGN.read_text(encoding="utf-8")
    parts = re.split(r"(?m)^(?=\[\[stage\]\])", text)
    head, stages = parts[0], parts[1:]
    stages = [
        re.sub(r"(?m)^target = \d+$", f"target = {t}", block)
        for block, t in zip(stages, targets, strict=True)
    ]
    CAMPAIGN.write_text(head + "".join(stages), encoding="utf-8")


def _campaigns(args: argparse.Namespace) -> int:
    """Whole campaigns of the strong player by the rules of ``services/campaign.py``, each
    stage's score drawn from the measured solo scores under that stage's twists."""
    import random

    from spielcenter.services.campaign import Progress, after_stage, parse_campaign

    campaign = parse_campaign(CAMPAIGN.read_text(encoding="utf-8"))
    scores = _solo_scores(args.files)
    pools = {s["number"]: scores[json.dumps(_twists(s), sort_keys=True)] for s in _stages()}
    rng = random.Random(args.seed)
    reached: dict[int, int] = defaultdict(int)
    finished: list[int] = []
    for _ in range(args.runs):
        progress, highest = Progress(), 1
        while True:
            highest = max(highest, progress.stage)
            progress, outcome = after_stage(campaign, progress, rng.choice(pools[progress.stage]))
            if outcome.completed:
                finished.append(outcome.campaign_points)
            if outcome.completed or outcome.restarted:
                reached[highest] += 1
                break
    mean = sum(finished) / len(finished) if finished else 0.0
    print(
        f"{args.runs} campaign runs: all seven cleared {len(finished) / args.runs:.1%} "
        f"(then {mean:.0f} campaign points on average)"
    )
    for stage in sorted(reached):
        print(f"highest stage played {stage}: {reached[stage] / args.runs:.1%}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("duel", "solo"):
        sub = commands.add_parser(name)
        sub.add_argument("players")
        sub.add_argument("--games", type=int, default=100)
        sub.add_argument("--seed", type=int, default=1)
        sub.add_argument("--out", required=True)
        sub.add_argument("--jobs", type=int, default=1)
        if name == "solo":
            sub.add_argument("--rounds", type=int)
            sub.add_argument("--top-shelf", type=int)
            sub.add_argument("--bottom-shelf", type=int)
    report = commands.add_parser("report")
    report.add_argument("files", nargs="+")
    report.add_argument("--histogram")
    balance = commands.add_parser("balance")
    balance.add_argument("files", nargs="+")
    balance.add_argument("--level", default="strong")
    calibrate = commands.add_parser("calibrate")
    calibrate.add_argument("files", nargs="+")
    calibrate.add_argument("--check", nargs="*")
    calibrate.add_argument("--write", action="store_true")
    campaigns = commands.add_parser("campaigns")
    campaigns.add_argument("files", nargs="+")
    campaigns.add_argument("--runs", type=int, default=20_000)
    campaigns.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.command == "campaigns":
        return _campaigns(args)
    if args.command == "report":
        return _report(args)
    if args.command == "balance":
        return _balance(args)
    if args.command == "calibrate":
        return _calibrate(args)
    return _play(args, solo=args.command == "solo")


if __name__ == "__main__":
    sys.exit(main())
