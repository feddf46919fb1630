"""Find "find the better play" puzzles whose answer is certain, prove them, and store the proofs.

    nice -n 5 .venv/bin/python scripts/make_puzzles.py [--variant standard|mexican|minigam|all]
                                                      [--budget SECONDS] [--positions N]

Positions come from seeded self-play of the shipped nets (``rollout.sample_positions`` with a
``NetBot``, a few random moves mixed in for variety) and a few hand-chosen classics; each gets a
seeded roll. A puzzle is kept when

* Mini-Gam: the exact table (``analysis.solve``) ranks the best play at least ``MIN_EXACT`` in
  winning chance above the second (the table is the proof);
* standard and Mexican: the net at 0, 1 and (standard) 2 ply names the same best play, the best
  beats the second by at least ``MARGIN`` in winning chance at the deepest ply, and a
  variance-reduced rollout (stratified first rolls, the same dice for both plays, ``GAMES`` games
  truncated after ``TRUNCATE`` turns) names the same play with an equity loss of the second above
  three standard errors and a winning-chance error well below the margin.

Mexican's decisions (keep or re-roll the opening dice, which doubles to name after a Mexican) are
valued by the net (``opening_hint`` / ``doubles_hint``) and kept with their values; a keep-or-re-roll
puzzle must be at least ``KEEP_MARGIN`` from even and confirmed by a luck-reduced rollout of both
choices (``KEEP_GAMES`` games each).

Each theme is filled up to ``--per-theme`` puzzles (the theme of a play puzzle comes from what the
better play does: :func:`backgammon_lab.analysis.strategy.play_facts`). The script is resumable:
the puzzles are written to ``backgammon_lab/data/puzzles/<variant>.json`` as they are found and the
positions already tried are remembered in the cache (``puzzles-work/``), so a second run goes on.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backgammon_lab.analysis.hints import Options, doubles_hint, hint, opening_hint  # noqa: E402
from backgammon_lab.analysis.netbot import NetBot  # noqa: E402
from backgammon_lab.analysis.rollout import sample_positions  # noqa: E402
from backgammon_lab.analysis.solve import cache_dir, get_table  # noqa: E402
from backgammon_lab.analysis.strategy import all_home, contact, puzzle_dir, puzzle_theme  # noqa: E402
from backgammon_lab.engine import Phase, advance, dice_state  # noqa: E402
from backgammon_lab.position import WHITE, Position, Roll  # noqa: E402

MARGIN = 0.05
MIN_EXACT = 0.03
#: Rollout games and truncation (turns) of the confirming rollout, by variant.
GAMES = {"standard": 72, "mexican": 144}
TRUNCATE = {"standard": 3, "mexican": 4}
DEEPEST = {"standard": 2, "mexican": 1}
#: A keep-or-re-roll puzzle: at least this far from even at 1-ply (winning chance), and confirmed by
#: a luck-reduced rollout of both choices (this many games each, this seed) by more than 2 errors.
KEEP_MARGIN = 0.01
KEEP_GAMES = 648
KEEP_SEED = 7
THEMES = {
    "standard": ("points", "safe", "hitting", "priming", "race", "bearoff"),
    "mexican": ("keep", "name", "chain", "cap", "bearoff"),
    "minigam": ("entering", "racehit"),
}
#: Hand-chosen classics: (position, dice).
CLASSICS = {
    "standard": [
        ("standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "3-1"),   # make the 5-point
        ("standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "6-1"),   # make the bar point
        ("standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "4-2"),   # make the 4-point
        ("standard/w/6x3,5x3,4x3,3x3,2x3/24,6x5,5x5,4x4", "6-2"),  # bear off against a back checker
    ],
    "mexican": [],
    "minigam": [],
}


class Store:
    """The puzzles of one variant and the positions already tried, written as they change."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.path = puzzle_dir() / f"{variant}.json"
        self.work = cache_dir() / "puzzles-work" / f"{variant}.json"
        self.puzzles: list[dict[str, Any]] = json.loads(self.path.read_text()) if self.path.is_file() else []
        self.seen: set[str] = set(json.loads(self.work.read_text())) if self.work.is_file() else set()

    def count(self, theme: str) -> int:
        return sum(1 for p in self.puzzles if p["theme"] == theme)

    def add(self, record: dict[str, Any]) -> None:
        if any(p["id"] == record["id"] for p in self.puzzles):
            return
        self.puzzles.append(record)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.puzzles, indent=1, sort_keys=True) + "\n")
        print(f"  + {record['id']} ({record['theme']}): {record['answer']}", flush=True)

    def mark(self, key: str) -> None:
        self.seen.add(key)
        self.work.parent.mkdir(parents=True, exist_ok=True)
        self.work.write_text(json.dumps(sorted(self.seen)))


def _prefix(variant: str) -> str:
    return {"standard": "sp", "mexican": "mp", "minigam": "gp"}[variant]


def prove_play(variant: str, pos: Position, roll: Roll) -> dict[str, Any] | None:
    """The proof that one play of ``roll`` is clearly best, or None."""
    if variant == "minigam":
        h = hint(pos, roll)
        if h.method != "exact" or len(h.plays) < 2:
            return None
        best, second = h.plays[0], h.plays[1]
        assert best.win is not None and second.win is not None
        if best.win - second.win < MIN_EXACT:
            return None
        others = [r for r in h.plays[1:3]]
        return {"answer": best.text, "others": [r.text for r in others],
                "proof": {"method": "exact", "how": "exact, from the solved Mini-Gam table",
                          "values": {r.text: r.win for r in [best, *others]}, "margin": best.win - second.win}}
    deepest = DEEPEST[variant]
    hints = {ply: hint(pos, roll, Options(ply=ply)) for ply in range(deepest + 1)}
    if len(hints[0].plays) < 3:
        return None
    h0 = hints[0]
    if h0.plays[1].error is None or h0.plays[1].error < MARGIN:
        return None
    best = hints[deepest].plays[0].text
    if any(h.plays[0].text != best for h in hints.values()):
        return None
    hd = hints[deepest]
    second = hd.plays[1]
    if second.error is None or second.error < MARGIN:
        return None
    if second.how != hd.plays[0].how:
        return None  # the second was pruned at a shallower ply: the margin is not one at the deepest
    games, truncate = GAMES[variant], TRUNCATE[variant]
    r = hint(pos, roll, Options(ply=0, games=games, filters=((2, 0.16),), truncate=truncate, seed=1))
    rb, rs = r.plays[0], r.plays[1]
    if rb.text != best or rs.how != "rollout" or rs.loss is None or rs.loss_stderr is None:
        return None
    assert rb.stderr is not None and rs.stderr is not None and rb.win is not None and rs.win is not None
    if rs.loss < 3 * rs.loss_stderr or max(rb.stderr, rs.stderr) > second.error / 4 or rb.win <= rs.win:
        return None
    others = hd.plays[1:3]
    checks = {str(ply): {p.text: p.win for p in h.plays[:3]} for ply, h in hints.items()}
    return {"answer": best, "others": [p.text for p in others],
            "proof": {"method": "net", "ply": deepest,
                      "how": f"{deepest}-ply net, confirmed by a rollout of {games} games",
                      "values": {p.text: p.win for p in [hd.plays[0], *others]}, "margin": second.error,
                      "plies": checks,
                      "rollout": {"games": games, "truncate": truncate, "seed": 1, "stratified": True,
                                  "bot": r.bot, "plays": [rb.text, rs.text], "win": [rb.win, rs.win],
                                  "stderr": [rb.stderr, rs.stderr], "equity_loss": rs.loss,
                                  "loss_stderr": rs.loss_stderr}}}


def every_roll(variant: str, n: int, seed: int, explore: float, doubles: bool = False
               ) -> list[tuple[str, Position, Roll]]:
    """Seeded positions from self-play (``explore``: the rate of random moves mixed in), each with
    every roll of the 21 (a Mexican's 1-2 left out: it is named, not played), or every doubles."""
    out = []
    for i, pos in enumerate(sample_positions(variant, n, NetBot(), seed=seed, explore=explore)):
        for hi in range(1, 7):
            for lo in range(1, hi + 1):
                roll = Roll(hi, lo)
                if (hi == lo or not doubles) and not (variant == "mexican" and roll.is_mexican):
                    out.append((f"e{seed}.{i}", pos, roll))
    return out


def candidates(variant: str, n: int, seed: int) -> list[tuple[str, Position, Roll]]:
    """Seeded positions from self-play (with a few random moves) and a seeded roll each."""
    out = [(f"c{i}", Position.from_string(t), Roll.parse(d)) for i, (t, d) in enumerate(CLASSICS[variant])]
    positions = sample_positions(variant, n, NetBot(), seed=seed, explore=0.1)
    rng = random.Random(seed)
    for i, pos in enumerate(positions):
        if variant == "mexican" and rng.random() < 0.35:
            k = rng.randint(1, 6)
            roll = Roll(k, k)
        else:
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        if variant == "mexican" and roll.is_mexican:
            continue
        out.append((f"s{seed}.{i}", pos, roll))
    return out


def _spread(rng: random.Random, checkers: int, points: list[int]) -> str:
    """``checkers`` dealt at random over ``points``, as position text (``6x3,4x2``)."""
    got: dict[int, int] = {}
    for _ in range(checkers):
        p = rng.choice(points)
        got[p] = got.get(p, 0) + 1
    return ",".join(f"{p}x{k}" if k > 1 else str(p) for p, k in sorted(got.items(), reverse=True))


def themed(n: int, seed: int) -> list[tuple[str, Position, Roll]]:
    """Standard positions for the rarer themes: bearing off against one or two checkers left
    back, and races with no contact (the checkers dealt at random, seeded)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 2 == 0:  # bearing off against contact
            back = rng.choice([[24], [23], [22], [24, 24], [24, 23]])
            black = ",".join(map(str, back)) + "," + _spread(rng, 15 - len(back), [6, 5, 4, 3, 2, 1, 7, 8])
            off = rng.randint(0, 6)
            home = [p for p in (6, 5, 4, 3, 2, 1) if 25 - p not in back]
            text = f"standard/w/{_spread(rng, 15 - off, home)}/{black}"  # the rest borne off
        else:  # a race
            text = f"standard/w/{_spread(rng, 15, [9, 8, 7, 6, 5, 4, 3, 2, 1])}/{_spread(rng, 15, [9, 8, 7, 6, 5, 4, 3, 2, 1])}"
        try:
            pos = Position.from_string(text)
        except ValueError:
            continue
        out.append((f"t{seed}.{i}", pos, Roll(rng.randint(1, 6), rng.randint(1, 6))))
    return out


def _priming(rng: random.Random) -> str:
    """A standard position with a run of made points in front of Black's back checkers, spares
    and blots around it, the rest dealt at random (seeded)."""
    lo = rng.randint(3, 7)
    run = list(range(lo, lo + rng.randint(3, 5)))
    if rng.random() < 0.5:
        run.remove(rng.choice(run[1:-1]))  # a gap to fill
    white: dict[int, int] = {p: 2 for p in run}
    for p in rng.sample([q for q in range(lo, 14) if q not in run] + [13, 13, 6, 8], 3):
        white[p] = white.get(p, 0) + 1
    rest = 15 - sum(white.values())
    for _ in range(rest):
        p = rng.choice([13, 13, 8, 6, run[-1] + 1, run[-1] + 2])
        white[p] = white.get(p, 0) + 1
    back = rng.choice([[24, 24], [24, 23], [23, 23], [24, 22], [24]])
    black: dict[int, int] = {}
    for q in back:
        black[q] = black.get(q, 0) + 1
    for _ in range(15 - len(back)):
        q = rng.choice([q for q in (13, 13, 8, 7, 6, 6, 5, 4, 3) if 25 - q not in white])
        black[q] = black.get(q, 0) + 1

    def text(d: dict[int, int]) -> str:
        return ",".join(f"{p}x{k}" if k > 1 else str(p) for p, k in sorted(d.items(), reverse=True))
    return f"standard/w/{text(white)}/{text(black)}"


def _mexican_bearoff(rng: random.Random) -> str:
    """A Mexican position with all of White's checkers home (some off), against a race or one or
    two checkers left back (seeded)."""
    off = rng.randint(0, 6)
    white = _spread(rng, 15 - off, [6, 5, 4, 3, 2, 1])
    if rng.random() < 0.5:
        back = rng.choice([[24], [23], [24, 24], [24, 23]])
        taken = {25 - int(t.split("x")[0]) for t in white.split(",")}
        if taken & set(back):
            return ""
        black = ",".join(map(str, back)) + "," + _spread(rng, 15 - len(back), [6, 5, 4, 3, 2, 1, 7, 8, 9])
    else:
        black = _spread(rng, 15, [9, 8, 7, 6, 5, 4, 3, 2, 1])
    return f"mexican/w/{white}{f',offx{off}' if off else ''}/{black}"


def close_races(n: int, seed: int) -> list[tuple[str, Position, Roll]]:
    """Standard races with no contact where the pip counts are close (the mover within 12 pips
    of the other side), so that a wasteful play costs winning chances (seeded)."""
    rng = random.Random(seed * 1000 + 29)
    out: list[tuple[str, Position, Roll]] = []
    i = 0
    while len(out) < n and i < 50 * n:
        i += 1
        top = rng.choice([6, 7, 8, 9, 11])
        sides = []
        for _ in range(2):
            off = rng.randint(0, 9)
            on = _spread(rng, 15 - off, list(range(1, top + 1)))
            sides.append(on + (f",offx{off}" if off else ""))
        try:
            pos = Position.from_string(f"standard/w/{sides[0]}/{sides[1]}")
        except ValueError:
            continue
        if not -12 <= pos.pip_count("black") - pos.pip_count("white") <= 4:
            continue
        out.append((f"r{seed}.{i}", pos, Roll(rng.randint(1, 6), rng.randint(1, 6))))
    return out


def themed_more(variant: str, n: int, seed: int) -> list[tuple[str, Position, Roll]]:
    """Seeded positions for the themes self-play reaches least: standard priming, Mexican
    exact bear-off (with a doubles roll now and then, for the chain)."""
    rng = random.Random(seed * 1000 + 17)
    out = []
    for i in range(n):
        text = _priming(rng) if variant == "standard" else _mexican_bearoff(rng)
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        try:
            pos = Position.from_string(text)
        except ValueError:
            continue
        if variant == "mexican" and roll.is_mexican:
            continue
        out.append((f"p{seed}.{i}", pos, roll))
    return out


def possible_themes(variant: str, pos: Position, roll: Roll) -> set[str]:
    """The themes a puzzle of ``pos`` and ``roll`` could have (before proving it), from the same
    facts :func:`puzzle_theme` reads: a position whose themes are all full is not proved."""
    if variant == "minigam":
        return {"entering", "racehit"}
    if variant == "standard":
        if not contact(pos):
            return {"race"}
        return {"bearoff"} if all_home(pos) else {"priming", "hitting", "points", "safe"}
    if all_home(pos):
        return {"bearoff"}
    return {"chain", "cap"} if roll.is_double else {"cap"}


def run_plays(variant: str, store: Store, per_theme: int, positions: int, deadline: float, seed: int = 11,
              only: str = "") -> None:
    themes = [t for t in THEMES[variant] if t not in ("keep", "name")]
    extra = themed(positions, seed) if variant == "standard" and seed != 11 else []
    if variant in ("standard", "mexican") and seed != 11:
        extra = themed_more(variant, positions, seed) + extra
    pool = extra + candidates(variant, positions, seed=seed)
    if only == "race":
        pool = close_races(positions, seed)
    elif only in ("rolls", "doubles"):
        pool = every_roll(variant, positions, seed, explore=0.5, doubles=only == "doubles")
    elif only == "themed":
        pool = extra
    elif only == "selfplay":
        pool = candidates(variant, positions, seed=seed)
    for key, pos, roll in pool:
        if time.time() > deadline or all(store.count(t) >= per_theme for t in themes):
            break
        k = f"{key}|{pos.to_string()}|{roll}"
        if k in store.seen:
            continue
        if all(store.count(t) >= per_theme for t in possible_themes(variant, pos, roll)):
            continue
        if any(p["position"] == pos.to_string() for p in store.puzzles):
            continue  # one puzzle a position
        state = dice_state(pos, roll)
        if state.phase is not Phase.PLAY or state.plays is None or len(state.plays) < 3:
            store.mark(k)
            continue
        got = prove_play(variant, pos, roll)
        if got is not None:
            plays = {str(p): p for p in state.plays}
            theme = puzzle_theme(pos, roll, plays[got["answer"]], plays[got["others"][0]])
            if theme and store.count(theme) < per_theme:
                n = store.count(theme) + 1
                store.add({"id": f"{_prefix(variant)}.{theme}.{n}", "kind": "play", "theme": theme,
                           "position": pos.to_string(), "dice": str(roll), "level": 2, **got})
        store.mark(k)


def run_mexican_decisions(store: Store, per_theme: int) -> None:
    start = Position.start("mexican", WHITE)
    if store.count("keep") < per_theme:
        rows = []
        for hi in range(2, 7):
            for lo in range(1, hi):
                if (hi, lo) == (2, 1):
                    continue  # a Mexican: played as a Mexican, nothing to keep
                h = opening_hint(start, f"{hi}-{lo}", Options(ply=1))
                vals = {d.option: d.win for d in h.options}
                rows.append((abs(vals["keep"] - vals["reroll"]), f"{hi}-{lo}", h, vals))
        # the clearest decisions first, whatever their answer; a close call (3-1 and 6-1 are within
        # 0.005 of even by both nets measured) is no puzzle
        rows.sort(key=lambda r: (-r[0], r[1]))
        chosen: list[tuple[float, str, Any, dict[str, float], dict[str, Any]]] = []
        for margin, dice, h, vals in rows:
            if margin < KEEP_MARGIN or len(chosen) >= per_theme:
                break
            ro = opening_hint(start, dice, Options(ply=0, games=KEEP_GAMES, luck=True, seed=KEEP_SEED))
            win = {d.option: d.win for d in ro.options}
            err = {d.option: d.stderr if d.stderr is not None else float("inf") for d in ro.options}
            other = "keep" if h.best.option == "reroll" else "reroll"
            lead = win[h.best.option] - win[other]  # the two rollouts' errors taken as independent
            if lead <= 2 * (err["keep"] ** 2 + err["reroll"] ** 2) ** 0.5:
                print(f"  - keep {dice}: the rollout does not confirm {h.best.option} ({win}, {err})")
                continue
            chosen.append((margin, dice, h, vals, {"games": KEEP_GAMES, "seed": KEEP_SEED, "luck": True,
                                                   "by": "the net's 0-ply bot", "win": win, "stderr": err}))
        for margin, dice, h, vals, rollout in sorted(chosen, key=lambda r: r[1]):
            n = store.count("keep") + 1
            store.add({"id": f"mp.keep.{n}", "kind": "keep", "theme": "keep", "position": start.to_string(),
                       "dice": dice, "answer": h.best.option, "others": [o for o in vals if o != h.best.option],
                       "level": 1, "proof": {"method": "net", "ply": 1, "how": "1-ply net (opening_hint)",
                                             "values": vals, "margin": margin, "rollout": rollout}})
    if store.count("name") >= per_theme:
        return
    bot = NetBot()
    for i, pos in enumerate(sample_positions("mexican", 300, bot, seed=23, explore=0.1)):
        if store.count("name") >= per_theme:
            break
        k = f"name{i}|{pos.to_string()}"
        if k in store.seen:
            continue
        store.mark(k)
        s = dice_state(pos, Roll(1, 2))
        if s.phase is not Phase.PLAY:
            continue
        s2 = advance(s, bot.choose(s))[0]
        if s2.phase is not Phase.NAME:
            continue
        h = doubles_hint(s2, Options(ply=1))
        opts = h.options
        if opts[1].error < MARGIN:
            continue
        vals = {str(d.option): d.win for d in opts}
        n = store.count("name") + 1
        others = [str(d.option) for d in opts[1:4]]
        store.add({"id": f"mp.name.{n}", "kind": "name", "theme": "name", "position": s2.position.to_string(),
                   "dice": "1-2", "answer": str(opts[0].option), "others": others, "level": 2,
                   "proof": {"method": "net", "ply": 1, "how": "1-ply net (doubles_hint)",
                             "values": {o: vals[o] for o in [str(opts[0].option), *others]},
                             "margin": opts[1].error}})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="all", choices=["all", "standard", "mexican", "minigam"])
    ap.add_argument("--budget", type=float, default=600.0, help="seconds for each variant")
    ap.add_argument("--positions", type=int, default=600, help="self-play positions to try per variant")
    ap.add_argument("--per-theme", type=int, default=6)
    ap.add_argument("--seed", type=int, default=11, help="self-play seed (another seed: more positions)")
    ap.add_argument("--only", default="", choices=["", "themed", "selfplay", "race", "rolls", "doubles"],
                    help="try only the themed positions, only those from self-play, only close races, or "
                         "self-play positions with many random moves, each with every roll (or every doubles)")
    args = ap.parse_args(argv)
    variants = ["minigam", "mexican", "standard"] if args.variant == "all" else [args.variant]
    for v in variants:
        t0 = time.time()
        store = Store(v)
        if v == "minigam" and get_table() is None:
            print("minigam: no solved table in the cache; build it with `backgammon-lab solve minigam`")
            continue
        if v == "mexican":
            run_mexican_decisions(store, args.per_theme)
        run_plays(v, store, args.per_theme, args.positions, t0 + args.budget, args.seed, args.only)
        print(f"{v}: {len(store.puzzles)} puzzles, "
              + ", ".join(f"{t} {store.count(t)}" for t in THEMES[v]) + f" ({time.time() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
