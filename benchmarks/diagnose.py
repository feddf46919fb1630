"""Where the standard net's strength is missing: two diagnoses that use GNU Backgammon as a yardstick.

    python benchmarks/diagnose.py labels [--net PATH ...] [--labels training/labels/standard_selfplay_end.npz]
    python benchmarks/diagnose.py race-oracle --values gnubg|net [--classes race] [--net PATH] [--games 10000]
                                  [--first-pair 3000]
    python benchmarks/diagnose.py teacher [--net PATH] [--positions 400] [--seed 0] [--deep 3] [--window 0.04]
                                  [--rollout GAMES --truncate TURNS] [--only contact|crashed]

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

``teacher``
    Whether a 3-ply search ranks the plays better than the 2-ply search that teaches the net
    (``scripts/rank_labels.py``): on the contact positions among ``judge``'s (``strength.py``,
    gnubg 0-ply self-play, the same seed), the 2-ply teacher's choice (``rank_plays`` with the
    teacher's filter), and the 3-ply choice: the 2-ply candidates within ``--window`` of the best
    at 2-ply (at most ``--deep``) valued at 3-ply (the opponent's ``roll_row`` at 3: three rolls,
    the choices inside at 0-ply); with ``--rollout GAMES``, valued instead by a rollout of GAMES
    games played by the net's 0-ply bot, each roll's luck taken off, cut after ``--truncate``
    turns (the same dice for every candidate). ``--only crashed`` (or ``contact``) draws the positions
    as ``judge --only`` does, from that class alone (without it: every position in contact, crashed
    ones included, of ``judge``'s usual draw). Each choice is judged by gnubg 2-ply over every play (agreement,
    equity lost) and, where the two choices differ, by gnubg 3-ply (which of the two it prefers,
    and by how much on average).

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


def cmd_teacher(args: argparse.Namespace) -> dict[str, Any]:
    import time

    from strength import _roll_state_play, gnubg_positions

    from backgammon_lab.analysis.options import Options
    from backgammon_lab.analysis.rollout import rollout
    from backgammon_lab.engine import MakePlay, Phase, advance
    from backgammon_lab.rules import legal_boards

    sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
    from rank_labels import TEACHER_FILTERS

    net = load_net(args.net) if args.net else shipped_net("standard")
    assert net is not None
    ev = Evaluator(net)
    g2, g3 = Gnubg(2), Gnubg(3)
    roll_opts = Options(games=args.rollout or 1, truncate=args.truncate, luck=True, bot=NetBot(net), evaluator=net,
                        seed=args.seed)
    cut = f"{args.truncate} turns" if args.truncate else "to the end"
    deep_name = f"rollout {args.rollout} games, {cut}" if args.rollout else "3-ply"
    stats: dict[str, list[float]] = {"agree2": [], "agree3": [], "lost2": [], "lost3": []}
    differ: list[float] = []  # gnubg 3-ply: the deep choice's equity less the 2-ply choice's
    cpu3: list[float] = []
    for pos, dice in gnubg_positions(args.positions, args.seed, args.only):
        if not contact(pos):
            continue
        st = _roll_state_play(pos, dice)
        boards = [play_board(p) for p in st.plays]
        assert sorted(boards) == sorted(legal_boards(pos, dice))
        opp = pos.off[1 if pos.turn == WHITE else 0]
        ranked = ev.rank_plays(st, 2, TEACHER_FILTERS)
        two = {i: r["eq"] for i, r in ranked.items() if r["how"] == "2-ply"}
        pick2 = max(two, key=lambda i: (two[i], -i))
        t0 = time.process_time()
        cands = sorted((i for i in two if two[i] >= two[pick2] - args.window), key=lambda i: (-two[i], i))
        three = {}
        for i in cands[: args.deep]:
            nxt = advance(st, MakePlay(st.plays[i]))[0]
            if nxt.phase is Phase.OVER:
                three[i] = float(equity(ev.after_value(st, MakePlay(st.plays[i]), 0)))
            elif args.rollout:
                three[i] = -rollout(nxt.position, roll_opts).points
            else:
                three[i] = -float(equity(ev.roll_row(nxt.position, 3)))
        pick3 = max(three, key=lambda i: (three[i], -i))
        cpu3.append(time.process_time() - t0)
        if len(cpu3) % 10 == 0:  # progress, for long runs (the figures come at the end)
            print(f"teacher: {len(cpu3)} positions, {np.mean(cpu3):.1f} s of CPU a decision for the deep choice",
                  file=sys.stderr, flush=True)
        truth = np.array([g2.after_play(b, opp) for b in boards])
        for k, pick in (("2", pick2), ("3", pick3)):
            stats["agree" + k].append(float(truth[pick] >= truth.max() - 1e-9))
            stats["lost" + k].append(float(truth.max() - truth[pick]))
        if pick3 != pick2:
            differ.append(g3.after_play(boards[pick3], opp) - g3.after_play(boards[pick2], opp))
    n = len(stats["agree2"])
    d = np.array(differ)
    lost = np.array(stats["lost3"]) - np.array(stats["lost2"])
    return {
        "contact_positions": n, **({"only": args.only} if args.only else {}), "judge": "gnubg 2-ply over every play; gnubg 3-ply where the choices differ",
        "teacher 2-ply": {"agrees": float(np.mean(stats["agree2"])), "equity_lost": float(np.mean(stats["lost2"]))},
        deep_name: {"agrees": float(np.mean(stats["agree3"])), "equity_lost": float(np.mean(stats["lost3"])),
                    "cpu_s_per_decision": float(np.mean(cpu3))},
        "the deep choice less the 2-ply teacher's, gnubg 2-ply's equity lost": {"mean": float(lost.mean()),
                                                        "se": float(lost.std(ddof=1) / np.sqrt(n)) if n > 1 else None},
        "choices_differ": len(differ),
        "gnubg 3-ply, the deep choice less the 2-ply choice": {
            "mean": float(d.mean()) if len(d) else None,
            "se": float(d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else None,
            "deep better": int((d > 1e-9).sum()), "2-ply better": int((d < -1e-9).sum())},
    }


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
    p = sub.add_parser("teacher")
    p.add_argument("--net")
    p.add_argument("--positions", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--deep", type=int, default=3, help="at most this many 2-ply candidates go to 3-ply")
    p.add_argument("--window", type=float, default=0.04, help="within this equity of the best at 2-ply")
    p.add_argument("--rollout", type=int, default=0, metavar="GAMES", help="value the candidates by rollouts")
    p.add_argument("--truncate", type=int, default=None, metavar="TURNS", help="cut the rollouts' games")
    p.add_argument("--only", choices=("contact", "crashed"), help="positions of this class only, as judge --only")
    args = ap.parse_args(argv)
    cmds = {"labels": cmd_labels, "race-oracle": cmd_race_oracle, "teacher": cmd_teacher}
    out = cmds[args.cmd](args)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
