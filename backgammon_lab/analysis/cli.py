"""The analysis subcommands of ``backgammon-lab``: ``value``, ``hint`` and ``solve``.

``backgammon_lab.cli`` calls :func:`add_subcommands` when this package imports.

* ``backgammon-lab value POSITION [--games N] [--json]`` -- the winning chance of the side to move:
  exact for Mini-Gam when its solved table is cached, else a rollout. ``--batch`` reads one
  position a line on stdin (its JSON form, a JSON string holding a position string, or
  ``{"position": ...}`` holding either; the JSON form may add ``"options"``, e.g.
  ``{"checkers": 3}``, for a variant with options) and writes ``{"win": p}`` a line, p for the
  side to move.
* ``backgammon-lab hint POSITION --dice A-B [--json]`` -- every legal play ranked.
* ``backgammon-lab solve minigam [--out PATH] [--checkers K]`` -- solve Mini-Gam and cache the table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from ..errors import BackgammonError
from ..notation import parse_position
from ..position import Position
from ..variants import find_variant
from .bots import Bot, HeuristicBot, RandomBot

__all__ = ["add_subcommands", "position_value"]


def _bot(name: str) -> Bot:
    return RandomBot(0) if name == "random" else HeuristicBot()


def _table_for(position: Position, path: str | None) -> Any:
    if position.variant.name != "minigam":
        return None
    from .solve import get_table, load_table

    if path:
        try:
            return load_table(path)
        except (OSError, ValueError) as e:
            raise BackgammonError(f"cannot read the table {path!r}: {e}") from None
    return get_table(position.variant, build=position.variant.checkers <= 4)


def position_value(position: Position, *, games: int = 1000, seed: int = 0, bot: Bot | None = None,
                   workers: int = 1, table: Any = None, progress: bool = False) -> dict[str, Any]:
    """The winning chance of the side to move as a JSON-ready dict: exact with a Mini-Gam table
    (``{"win", "method": "exact"}``), else a rollout (adds ``stderr`` and ``games``)."""
    if position.is_over:
        return {"win": 1.0 if position.winner() == position.turn else 0.0, "method": "over"}
    if table is not None:
        if table.variant != position.variant:
            raise BackgammonError(f"the table solves {table.variant!r}, not {position.variant!r}")
        return {"win": table.value(position), "method": "exact"}
    from .rollout import rollout

    r = rollout(position, bot or HeuristicBot(), games=games, seed=seed, workers=workers, progress=progress)
    return {"win": r.win, "method": "rollout", "stderr": r.stderr, "games": r.games, "seed": seed, "bot": r.bot}


def _read_batch_line(line: str, variant: str | None) -> Position:
    item = json.loads(line)
    if isinstance(item, dict) and "position" in item:
        item = item["position"]
    if isinstance(item, dict) and "options" in item:  # a variant with options, e.g. {"checkers": 3}
        item = dict(item)
        v = find_variant(item.pop("variant"), **item.pop("options"))
        return Position(v, item["points"], item["bar"], item["off"], item["turn"])
    if isinstance(item, dict):
        return Position.from_json(item)
    if isinstance(item, str):
        return parse_position(item, variant)
    raise BackgammonError(f"expected a position (JSON object or string), not {item!r}")


def _cmd_value(args: argparse.Namespace) -> int:
    bot = _bot(args.bot)
    if args.batch:
        tables: dict[Any, Any] = {}
        for lineno, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                pos = _read_batch_line(line, args.variant)
            except (BackgammonError, KeyError, TypeError, ValueError) as e:
                raise BackgammonError(f"--batch line {lineno} {line.strip()[:200]!r}: {e}") from None
            if pos.variant not in tables:
                tables[pos.variant] = _table_for(pos, args.table)
            res = position_value(pos, games=args.games, seed=args.seed, bot=bot, workers=args.workers,
                                 table=tables[pos.variant])
            sys.stdout.write(json.dumps({"win": res["win"]}) + "\n")
        return 0
    if args.position is None:
        raise BackgammonError("value needs a POSITION (or --batch)")
    pos = parse_position(args.position, args.variant)
    res = position_value(pos, games=args.games, seed=args.seed, bot=bot, workers=args.workers,
                         table=_table_for(pos, args.table), progress=args.progress)
    if args.json:
        print(json.dumps({"player": pos.turn, **res}))
    else:
        how = {"exact": "exact, perfect play", "over": "the game is over"}.get(
            res["method"], f"rollout of {res.get('games')} games, seed {args.seed}, {res.get('bot')}")
        err = f" ± {res['stderr'] * 100:.2f}%" if "stderr" in res else ""
        print(f"{pos.turn.capitalize()} to move: winning chance {res['win'] * 100:.4f}%{err} ({how})")
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    from ..position import Roll
    from .hints import hint

    pos = parse_position(args.position, args.variant)
    if pos.is_over:
        raise BackgammonError(f"the game is over in {pos.to_string()!r}: nothing to play")
    dice = Roll.parse(args.dice)
    table = _table_for(pos, args.table)
    h = hint(pos, dice, games=args.games, seed=args.seed, bot=_bot(args.bot), workers=args.workers,
             table=table, exact=None if table is not None else False, candidates=args.candidates,
             progress=args.progress)
    if args.json:
        print(json.dumps(h.to_json()))
    else:
        print(h.table(top=args.top))
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from .solve import default_table_path, solve

    if args.game != "minigam":
        raise BackgammonError(f"only Mini-Gam can be solved, not {args.game!r}")
    try:
        find_variant("minigam", checkers=args.checkers, bar_first=args.bar_first)
        t0 = time.perf_counter()
        table = solve(args.checkers, bar_first=args.bar_first, tol=args.tol, progress=not args.quiet,
                      threads=args.threads)
    except ValueError as e:
        raise BackgammonError(str(e)) from None
    path = table.save(args.out or default_table_path(args.checkers, args.bar_first))
    st = table.stats
    assert st is not None
    start = Position.start(table.variant)
    from .solve import start_values

    sv = start_values(table)
    print(f"solved Mini-Gam with {args.checkers} checkers{' (bar first)' if args.bar_first else ''}: "
          f"{st.n_states} states in {time.perf_counter() - t0:.1f} s, last change {st.residual:.1e}")
    print(f"table: {path}")
    print(f"start, side to roll: {table.value(start):.12f}; first mover after the opening roll: "
          f"{sv['first_mover']:.12f}")
    return 0


def add_subcommands(sub: Any) -> None:
    """Add ``value``, ``hint`` and ``solve`` to the ``backgammon-lab`` subparsers."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--variant", help="variant of a Position ID (standard, mexican)")
    common.add_argument("--games", type=int, default=1000,
                        help="rollout games (value: default 1000; hint: per play, default 200)")
    common.add_argument("--seed", type=int, default=0, help="rollout seed (default 0)")
    common.add_argument("--workers", type=int, default=1, choices=(1, 2), help="processes for rollouts")
    common.add_argument("--bot", choices=("heuristic", "random"), default="heuristic", help="rollout bot")
    common.add_argument("--table", help="a solved Mini-Gam table file (default: the cache)")
    common.add_argument("--json", action="store_true", help="print JSON")
    common.add_argument("--progress", action="store_true", help="show a progress bar on stderr")

    va = sub.add_parser("value", parents=[common],
                        help="winning chance of the side to move (exact for Mini-Gam, else a rollout)")
    va.add_argument("position", nargs="?", help="JSON, a file, a position string, or a Position ID")
    va.add_argument("--batch", action="store_true",
                    help='read JSON-lines positions on stdin; write {"win": p} lines')
    va.set_defaults(func=_cmd_value)

    hi = sub.add_parser("hint", parents=[common], help="every legal play of a roll ranked by winning chance")
    hi.add_argument("position")
    hi.add_argument("--dice", required=True, help="the roll, e.g. 6-5")
    hi.add_argument("--top", type=int, default=None, help="show only the best N plays")
    hi.add_argument("--candidates", type=int, default=None,
                    help="roll out only the N plays the heuristic likes most")
    hi.set_defaults(func=_cmd_hint, games=200)

    so = sub.add_parser("solve", help="solve Mini-Gam exactly and cache the table")
    so.add_argument("game", choices=("minigam",))
    so.add_argument("--out", help="where to write the table (default: the user's cache directory)")
    so.add_argument("--checkers", type=int, default=8, help="checkers a side (1-8; default 8)")
    so.add_argument("--bar-first", action="store_true", help="the bar_first=True reading of rule G4")
    so.add_argument("--tol", type=float, default=1e-12, help="stop when no value changes more (default 1e-12)")
    so.add_argument("--threads", type=int, default=2, choices=(1, 2), help="threads (default 2)")
    so.add_argument("--quiet", action="store_true", help="no progress bar")
    so.set_defaults(func=_cmd_solve)
