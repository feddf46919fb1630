"""Where the standard net's strength is missing: two diagnoses that use GNU Backgammon as a yardstick.

    python benchmarks/diagnose.py labels [--net PATH ...] [--labels training/labels/standard_selfplay_end.npz]
    python benchmarks/diagnose.py race-oracle --values gnubg|net [--classes race] [--net PATH] [--games 10000]
                                  [--first-pair 3000]

``labels``
    How far each evaluator's cubeless equity of a position (the side to act on roll) lies from
    labels of rollouts played to the end of the game with each roll's luck taken off
    (``scripts/rollout_labels.py --to-end``: our net's 0-ply bot plays the rollouts, so the labels
    are that policy's values, about 0.036 equity of noise each): the mean absolute difference over
    all positions and by class (``strength.position_class``: contact, crashed, race; the races
    split into those where both sides are bearing off, which the library values by its bear-off
    database and not by the net, and the others), for gnubg 0-ply, the shipped net and each
    ``--net``, valued as the library's search values them at 0-ply (``Evaluator.roll_row``: the
    bear-off database where both sides are bearing off, a net's race net in other races).
``race-oracle``
    What exact race values would buy in a match: the net's 0-ply bot against gnubg 0-ply (pairs of
    games with the same dice, as ``strength.py match``), except that when some play of a roll
    leads to a race (no contact), every play is valued by ``--values``: ``gnubg`` values the
    plays that reach a race by gnubg 0-ply (whose race net and bear-off databases are near exact)
    and the others by our net; ``net`` values them all by our net (the control, on the same dice).
    The difference of the two is what a race evaluator as good as gnubg's would gain.
    ``--classes race,crashed`` (any of contact, crashed, race) asks the same of other classes.

gnubg is a yardstick here only, never a part of the library (the brief's rule for peers).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from strength import CLASSES, Gnubg, GnubgBot, match, position_class  # noqa: E402

from backgammon_lab import find_variant  # noqa: E402
from backgammon_lab.analysis.bearoff import home_configs  # noqa: E402
from backgammon_lab.analysis.netbot import NetBot  # noqa: E402
from backgammon_lab.analysis.nets import Net, equity, load_net, play_board, shipped_net  # noqa: E402
from backgammon_lab.analysis.search import Evaluator  # noqa: E402
from backgammon_lab.analysis.strategy import contact  # noqa: E402
from backgammon_lab.position import WHITE, Position  # noqa: E402


def _position(board: Any, opp_off: int) -> Position:
    """The position of a standard mover's-eye board (off, p1..p24, bar, opponent's bar), White to act."""
    return Position.from_board(find_variant("standard"), WHITE, tuple(int(x) for x in board), opp_off)


def is_race(board: Any, opp_off: int = 0) -> bool:
    """No contact left on a standard mover's-eye board (``strategy.contact``)."""
    return not contact(_position(board, opp_off))


def board_class(board: Any, opp_off: int) -> str:
    """``strength.position_class`` of a standard mover's-eye board."""
    return position_class(_position(board, opp_off))


def cmd_labels(args: argparse.Namespace) -> dict[str, Any]:
    data = np.load(args.labels)
    boards, offs, targets = data["boards"], data["offs"], data["targets"]
    positions = [_position(b, int(o)) for b, o in zip(boards, offs, strict=True)]
    classes = np.array([position_class(p) for p in positions])
    # the races split: both sides bearing off (the bear-off database's, exact in the library's
    # search) and the others (the net's values there)
    bearoff = np.array([c == "race" and home_configs(p) is not None for c, p in zip(classes, positions, strict=True)])
    parts = {**{c: classes == c for c in CLASSES}, "race, bearing off": bearoff,
             "race, the others": (classes == "race") & ~bearoff}
    g = Gnubg(0)
    rows = {"gnubg 0-ply": np.array([g.on_roll(tuple(int(x) for x in b))[:5] for b in boards])}
    nets: list[tuple[str, Net | None]] = [("shipped net", shipped_net("standard"))]
    nets += [(p, load_net(p)) for p in args.net]
    for name, net in nets:
        if net is not None:  # the library's values at 0-ply: the search's (race net, bear-off database)
            ev = Evaluator(net)
            rows[name] = np.array([ev.roll_row(p, 0) for p in positions])
    want = equity(targets)
    out: dict[str, Any] = {"positions": len(boards), "by_class": {c: int(m.sum()) for c, m in parts.items()}}
    for name, r in rows.items():
        err = np.abs(equity(r) - want)
        out[name] = {"all": round(float(err.mean()), 4),
                     **{c: round(float(err[m].mean()), 4) for c, m in parts.items() if m.any()}}
    return out


class RaceValuesBot(NetBot):
    """The net's 0-ply bot, but a roll with a play that reaches a position of ``classes`` (default:
    a race) has all its plays valued here: those that reach one by gnubg 0-ply when ``oracle``, the
    rest (all without it) by the net."""

    def __init__(self, net: Net, oracle: bool, classes: tuple[str, ...] = ("race",)) -> None:
        super().__init__(net)
        self.oracle = oracle
        self.classes = classes
        self._g: Gnubg | None = None

    def choose_play(self, game: Any, plays: Any) -> Any:
        if len(plays) == 1:
            return plays[0]
        pos = game.position
        opp = pos.off[1 if pos.turn == WHITE else 0]
        boards = [play_board(p) for p in plays]
        reached = [board_class(b, opp) in self.classes for b in boards]
        if not any(reached):
            return super().choose_play(game, plays)
        net = self.net_for(game.variant)
        vals = net.score(net.values_after(np.array(boards), opp))
        if self.oracle:
            if self._g is None:
                self._g = Gnubg(0)
            for i, (b, hit) in enumerate(zip(boards, reached, strict=True)):
                if hit:
                    vals[i] = self._g.after_play(b, opp)
        return plays[int(np.argmax(vals))]

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_g": None}


def cmd_race_oracle(args: argparse.Namespace) -> dict[str, Any]:
    v = find_variant("standard")
    net = load_net(args.net) if args.net else shipped_net("standard")
    assert net is not None
    classes = tuple(args.classes.split(","))
    if not set(classes) <= set(CLASSES):
        raise SystemExit(f"diagnose.py: --classes {args.classes!r}: name some of {', '.join(CLASSES)}")
    out = match(v, RaceValuesBot(net, args.values == "gnubg", classes), GnubgBot(), args.games, 1, args.first_pair)
    out["race_values"] = args.values
    out["classes"] = list(classes)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("labels")
    p.add_argument("--net", action="append", default=[])
    p.add_argument("--labels", default="training/labels/standard_selfplay_end.npz")
    p = sub.add_parser("race-oracle")
    p.add_argument("--values", choices=("gnubg", "net"), required=True)
    p.add_argument("--classes", default="race")
    p.add_argument("--net")
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--first-pair", type=int, default=3000)
    args = ap.parse_args(argv)
    out = cmd_labels(args) if args.cmd == "labels" else cmd_race_oracle(args)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
