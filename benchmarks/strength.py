"""Strength and speed of the learned evaluators (issue 10), measured side by side.

    python benchmarks/strength.py minigam [--net PATH] [--positions 10000] [--games 4000]
    python benchmarks/strength.py match VARIANT --opponent heuristic|gnubg|perfect|net:PATH [--games N] [--ply 1]
                                        [--rollout GAMES [--truncate TURNS] [--luck]]
    python benchmarks/strength.py judge [--net PATH] [--positions 200] [--ply 1] [--only contact|crashed|race]
    python benchmarks/strength.py speed [--seconds 20] [--no-train] [--hints-only] [--evals-only] [--train-only]
                                        [--hint-positions 200] [--ply2 200]

``minigam``
    The net against the exact table: the mean absolute error of the winning chance of the side to
    roll on ``--positions`` random positions, drawn two ways: uniformly over every state of the
    table where neither side has finished (``uniform``), and the positions before a roll in games
    of perfect play with 10% random plays, seed 0 (``from play``). Then a match of the net's bot
    against :class:`PerfectMiniGamBot` over ``--games`` games.
``match``
    The net's bot (:class:`NetBot`, the shipped net or ``--net``) against an opponent, in pairs of
    games with the same dice and the seats exchanged, so both sides start equally often and the
    luck of the dice cancels. ``gnubg``: GNU Backgammon's 0-ply net (PyPI ``gnubg``) choosing among
    our legal plays the one whose resulting position it rates best (``findbestmove`` truncates
    bear-off moves, so plays are judged by the positions they reach). In Mexican it is
    :class:`GnubgMexicanBot`, the fair gnubg-based player of issue 19: gnubg's standard net judging
    our legal Mexican plays by the mover's winning chance in what follows each (the opponent on
    roll; the mover on roll again after doubles played in full; after a Mexican, the best named
    doubles looked up), keeping the opening dice when they are worth at least a fresh roll.
    ``--rollout GAMES``: the bot is :class:`RolloutBot`, a far slower player meant for the ceiling
    of a variant against an opponent: each checker play the best of at most 4 candidates (within
    0.08 equity of the best at 0-ply) rolled out ``GAMES`` games each by the
    net's 0-ply bot, ``--truncate`` turns deep (``--luck``: each roll's luck taken off); the
    other decisions at 1-ply. Without ``--luck`` and with a few dozen games a candidate, its
    rollouts are noisier than the candidates' differences in Mexican: it plays worse than the
    1-ply bot (training/LOG.md).
``judge``
    200 standard positions from GNU Backgammon 0-ply self-play (seed 0, non-forced decisions),
    every legal play judged by gnubg 2-ply (cubeless): how often our 0-ply top play is gnubg's best,
    and the mean equity lost per decision; HeuristicBot and gnubg 0-ply for scale. ``--raw FILE``
    writes each decision's equity lost by each player (JSON lines), so that two runs on the same
    positions can be compared decision by decision. ``--only crashed`` (or ``contact``, ``race``)
    draws the decisions from positions of that class alone (half of those the self-play meets).
``speed``
    Net evaluations per second of CPU (batches of one roll's candidates, and the public calls one
    position at a time: ``Net.evaluate`` of one board, ``Net.evaluate_position``) vs gnubg 0-ply
    through its binding, interleaved in one run (``--evals-only``: these rows alone); the public
    calls' CPU time (``--hints-only``: these rows alone): ``hint()`` standard at ply 0, 1 and 2 (2 is
    the default) on ``--hint-positions`` decisions from gnubg self-play (2-ply on the first
    ``--ply2``), Mexican ``opening_hint()`` on the 15 opening rolls and ``hint()`` of a Mexican 1-2
    (the naming looked up) at 0-ply and at Mexican's default 1-ply; training games per second of CPU
    on one core, and with two processes at once, for each of ``--lambdas`` (the default 0.7 and 0,
    whose update needs no eligibility trace; ``--alpha``, the step size, default the trainer's;
    ``--train-only``: these rows alone). The kernels
    and the bear-off databases are loaded before the timing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: one BLAS thread (before numpy loads)

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backgammon_lab import Position, find_variant  # noqa: E402
from backgammon_lab.analysis.bots import Bot, HeuristicBot, PerfectMiniGamBot, roll_of  # noqa: E402
from backgammon_lab.analysis.hints import hint  # noqa: E402
from backgammon_lab.analysis.netbot import NetBot  # noqa: E402
from backgammon_lab.analysis.nets import Net, load_net, play_board, shipped_net  # noqa: E402
from backgammon_lab.analysis.options import Options  # noqa: E402
from backgammon_lab.analysis.rollout import play_out, sample_positions, turn_state  # noqa: E402
from backgammon_lab.analysis.strategy import position_class  # noqa: E402
from backgammon_lab.analysis.train import DEFAULT_LAMBDA  # noqa: E402
from backgammon_lab.engine import ALL_ROLLS, OpeningRoll, Phase, RollDice, advance, start_state  # noqa: E402
from backgammon_lab.position import BLACK, WHITE, Roll  # noqa: E402
from backgammon_lab.rules import legal_boards, legal_plays  # noqa: E402
from backgammon_lab.variants import Variant  # noqa: E402

# ---------------------------------------------------------------------------------------------
# GNU Backgammon as a player (PyPI gnubg)


def gnubg_board(board: tuple[int, ...] | list[int]) -> tuple[list[int], list[int]]:
    """A 24-point mover's-eye board -> gnubg's ``(opponent, player on roll)``, 25 ints each (index 24
    the bar, index i point i + 1 in that side's own numbering)."""
    me = [x if x > 0 else 0 for x in board[1:25]] + [board[25]]
    op = [-board[25 - q] if board[25 - q] < 0 else 0 for q in range(1, 25)] + [board[26]]
    return op, me


def swapped(board: tuple[int, ...], opp_off: int) -> tuple[int, ...]:
    """The mover's-eye board of the opponent (24 points)."""
    return (opp_off, *(-x for x in board[24:0:-1]), board[26], board[25])


class Gnubg:
    """gnubg's cubeless evaluations (0-ply unless ``plies``), for the side on roll."""

    def __init__(self, plies: int = 0) -> None:
        import gnubg

        self.g = gnubg
        self.ci = gnubg.cubeinfo()
        self.ec = gnubg.evalcontext(0, plies, 1, 1 if plies else 0, 0.0)

    def on_roll(self, board: tuple[int, ...]) -> tuple[float, ...]:
        """(win, wg, wbg, lg, lbg, equity) of the side on roll of a mover's-eye board."""
        return tuple(self.g.evaluate(gnubg_board(board), self.ci, self.ec))

    def after_play(self, board: tuple[int, ...], opp_off: int, checkers: int = 15) -> float:
        """Cubeless equity for the mover of the board it played to (the opponent on roll)."""
        if board[0] == checkers:
            gammon = opp_off == 0
            deep = board[26] > 0 or any(x < 0 for x in board[1:7])
            return 1.0 + gammon + (gammon and deep)
        return -self.on_roll(swapped(board, opp_off))[5]


class GnubgBot(Bot):
    """Picks, among our legal plays, the one whose resulting position gnubg rates best."""

    name = "gnubg"

    def __init__(self, plies: int = 0) -> None:
        self.plies = plies
        self._g: Gnubg | None = None

    @property
    def g(self) -> Gnubg:
        if self._g is None:
            self._g = Gnubg(self.plies)
        return self._g

    def _best(self, pos: Position, dice: tuple[int, int]) -> float:
        opp = pos.off[1 if pos.turn == WHITE else 0]
        return max(self.g.after_play(b, opp) for b in legal_boards(pos, dice))

    def choose_play(self, game: Any, plays: Any) -> Any:
        if len(plays) == 1:
            return plays[0]
        pos = game.position
        opp = pos.off[1 if pos.turn == WHITE else 0]
        scores = [self.g.after_play(play_board(p), opp) for p in plays]
        return plays[int(np.argmax(scores))]

    def keep_or_reroll(self, game: Any) -> str:
        pos = game.position
        keep = self._best(pos, roll_of(game).dice)
        fresh = sum(p * self._best(pos, r) for r, p in ALL_ROLLS)
        return "keep" if keep >= fresh else "reroll"

    def name_doubles(self, game: Any) -> int:
        pos = game.position
        return max(range(1, 7), key=lambda k: (self._best(pos, (k, k)), k))

    def __getstate__(self) -> dict[str, Any]:
        return {"plies": self.plies, "_g": None}


class GnubgMexicanBot(GnubgBot):
    """The fair gnubg-based Mexican player (issue 19): gnubg's standard 0-ply net as the judge of
    positions, with Mexican's flow read from the variant (:meth:`Variant.after_play`, the one owner
    of what follows a play). A play is valued by the mover's winning chance (Mexican has no
    gammons) in what follows it: the opponent on roll after an ordinary play; the mover on roll
    again after doubles played in full; after a Mexican played in full, the best of the six named
    doubles, each valued the same way (the naming looked up, not guessed from the start)."""

    name = "gnubg-mexican"

    def _win_after(self, pos: Position, board: tuple[int, ...], dice: tuple[int, int], named: bool, used: int,
                   opp: int, depth: int = 0) -> float:
        checkers = pos.variant.checkers
        if board[0] == checkers:
            return 1.0
        follow = pos.variant.after_play(dice, named, used)
        if follow == "roll_again":
            return float(self.g.on_roll(board)[0])
        if follow == "name" and depth == 0:
            best = 0.0
            for d in range(1, 7):
                mp = _mover_position(pos, board)
                ends = legal_boards(mp, (d, d))
                u = legal_plays(mp, (d, d)).length
                best = max(best, max(self._win_after(pos, b, (d, d), True, u, opp, 1) for b in ends))
            return best
        return 1.0 - float(self.g.on_roll(swapped(board, opp))[0])

    def _plays_value(self, pos: Position, dice: tuple[int, int], named: bool) -> dict[tuple[int, ...], float]:
        opp = pos.off[1 if pos.turn == WHITE else 0]
        ends = legal_boards(pos, dice)
        used = legal_plays(pos, dice).length
        return {b: self._win_after(pos, b, dice, named, used, opp) for b in ends}

    def _best(self, pos: Position, dice: Any) -> float:
        return max(self._plays_value(pos, Roll.parse(dice).dice, False).values())

    def choose_play(self, game: Any, plays: Any) -> Any:
        if len(plays) == 1:
            return plays[0]
        pos = game.position
        values = self._plays_value(pos, game.roll.dice, bool(getattr(game, "named", False)))
        return plays[int(np.argmax([values[tuple(play_board(p))] for p in plays]))]

    def name_doubles(self, game: Any) -> int:
        pos = game.position
        return max(range(1, 7), key=lambda k: (max(self._plays_value(pos, (k, k), True).values()), k))


def _mover_position(pos: Position, board: tuple[int, ...]) -> Position:
    """The position of a mover's-eye ``board`` with ``pos``'s mover still to move."""
    opp = pos.off[1 if pos.turn == WHITE else 0]
    n = pos.variant.points
    if pos.turn == WHITE:
        return Position(pos.variant, board[1:n + 1], (board[n + 1], board[n + 2]), (board[0], opp), WHITE)
    return Position(pos.variant, tuple(-x for x in reversed(board[1:n + 1])), (board[n + 2], board[n + 1]),
                    (opp, board[0]), BLACK)


# ---------------------------------------------------------------------------------------------
# matches


class RolloutBot(NetBot):
    """The net's 1-ply bot whose checker plays are chosen by rollouts: the best of at most four
    candidates (the best at 0-ply, within 0.08 equity of the best) after ``games`` games each,
    played by the net's 0-ply bot with the same dice for each candidate, cut after ``truncate``
    turns (None: to the end) and valued there by the net, each roll's luck taken off with ``luck``
    (about 30 times the CPU). The other decisions are the 1-ply bot's."""

    def __init__(self, net: Net, games: int, truncate: int | None, luck: bool = False) -> None:
        super().__init__(net, Options(ply=1))
        self.rollouts = Options(ply=1, filters=((4, 0.08),), games=games, truncate=truncate, luck=luck,
                                bot=NetBot(net))

    def choose_play(self, game: Any, plays: Any) -> Any:
        if len(plays) == 1:
            return plays[0]
        state = turn_state(game)
        assert state.roll is not None and not state.steps
        best = hint(state.position, state.roll, self.rollouts, named=state.named).plays[0].play
        want = play_board(best)
        return next(p for p in plays if play_board(p) == want)

    def __repr__(self) -> str:
        luck = ", luck" if self.rollouts.luck else ""
        return f"RolloutBot({self.net!r}, {self.rollouts.games} games, truncate={self.rollouts.truncate}{luck})"


def _net(path: str | None, variant: Variant) -> Net:
    net = load_net(path) if path else shipped_net(variant)
    if net is None:
        raise SystemExit(f"no net for {variant.name}: pass --net PATH")
    return net


def _opponent(spec: str, variant: Variant) -> Bot:
    if spec == "heuristic":
        return HeuristicBot()
    if spec == "gnubg":
        return GnubgMexicanBot() if variant.name == "mexican" else GnubgBot()
    if spec == "perfect":
        return PerfectMiniGamBot()
    if spec.startswith("net:"):
        return NetBot(load_net(spec[4:]))
    raise SystemExit(f"unknown opponent {spec!r}")


def _pair(args: tuple[Variant, Bot, Bot, int, int]) -> list[tuple[int, int]]:
    """Games ``lo..hi``: each a pair with the same dice, the bot White then Black; (bot's points) per game."""
    variant, bot, opp, lo, hi = args
    out = []
    for i in range(lo, hi):
        for seat in (WHITE, BLACK):
            rng = random.Random(1_000_003 * i + 17)
            bots = {seat: bot, (BLACK if seat == WHITE else WHITE): opp}
            end = play_out(start_state(variant), bots, rng)
            pts = end.points if end.winner == seat else -end.points
            out.append((i, pts))
    return out


def match(variant: Variant, bot: Bot, opp: Bot, games: int, workers: int = 1, first: int = 0) -> dict[str, Any]:
    """``games`` games (pairs with exchanged seats, the dice of pairs ``first``, ``first + 1``, ...):
    the bot's winning share and points per game."""
    pairs = max(games // 2, 1)
    t0 = time.perf_counter()
    if workers > 1:
        size = (pairs + workers * 4 - 1) // (workers * 4)
        chunks = [(variant, bot, opp, lo, min(lo + size, first + pairs)) for lo in range(first, first + pairs, size)]
        with ProcessPoolExecutor(workers) as ex:
            res = [r for part in ex.map(_pair, chunks) for r in part]
    else:
        res = _pair((variant, bot, opp, first, first + pairs))
    pts = np.array([p for _, p in res], dtype=float)
    wins = pts > 0
    n = len(pts)
    return {"variant": variant.name, "bot": repr(bot)[:60], "opponent": repr(opp)[:60], "games": n,
            "win": float(wins.mean()), "win_stderr": float(wins.std(ddof=1) / np.sqrt(n)),
            "points_per_game": float(pts.mean()), "ppg_stderr": float(pts.std(ddof=1) / np.sqrt(n)),
            "seconds": round(time.perf_counter() - t0, 1)}


# ---------------------------------------------------------------------------------------------
# Mini-Gam against the exact table


def minigam_positions(table: Any, n: int, seed: int = 0) -> dict[str, tuple[list[Position], np.ndarray]]:
    """``n`` positions drawn uniformly over the table's unfinished states, and ``n`` positions
    before a roll from games of perfect play with 10% random plays; with their exact values."""
    ix = table.index
    k = ix.checkers
    a_all, b_all = ix._ab_cache()
    g = np.random.default_rng(seed)
    live = np.nonzero((ix.offc[a_all] < k) & (ix.offc[b_all] < k))[0]
    pick = g.choice(live, size=min(n, len(live)), replace=False)
    uniform = [ix.position(int(i), table.variant) for i in pick]
    played = sample_positions(table.variant, n, PerfectMiniGamBot(table), seed=seed, explore=0.1)
    return {"uniform": (uniform, table.values[pick]),
            "from play": (played, np.array([table.value(p) for p in played]))}


def net_errors(net: Net, positions: list[Position], truth: np.ndarray) -> dict[str, float]:
    """Mean and largest absolute error of the net's winning chance for the side to roll."""
    boards = np.array([p.board() for p in positions])
    offs = np.array([p.off[1 if p.turn == WHITE else 0] for p in positions])
    err = np.abs(net.evaluate(boards, offs)[:, 0] - truth)
    return {"mae": float(err.mean()), "max": float(err.max()), "p99": float(np.quantile(err, 0.99))}


def cmd_minigam(args: argparse.Namespace) -> dict[str, Any]:
    from backgammon_lab.analysis.solve import load_table

    table = load_table()
    net = _net(args.net, table.variant)
    out: dict[str, Any] = {"net": repr(net)}
    for name, (pos, truth) in minigam_positions(table, args.positions, args.seed).items():
        out[name] = net_errors(net, pos, truth)
    if args.games:
        out["match vs perfect"] = match(table.variant, NetBot(net), PerfectMiniGamBot(table), args.games,
                                        args.workers)
    return out


def cmd_match(args: argparse.Namespace) -> dict[str, Any]:
    v = find_variant(args.variant)
    net = _net(args.net, v)
    bot = (RolloutBot(net, args.rollout, args.truncate, args.luck) if args.rollout else
           NetBot(net, Options(ply=args.ply), lookahead=not args.no_lookahead))
    return match(v, bot, _opponent(args.opponent, v), args.games, args.workers, args.first_pair)


# ---------------------------------------------------------------------------------------------
# standard positions judged by gnubg 2-ply


def gnubg_positions(n: int, seed: int = 0, only: str | None = None) -> list[tuple[Position, tuple[int, int]]]:
    """``n`` (position, dice) decisions with at least two legal plays from gnubg 0-ply self-play
    (a tenth of them, at random); ``only="crashed"``: from crashed positions only (half of them)."""
    v = find_variant("standard")
    bot = GnubgBot()
    rng = random.Random(seed)
    out: list[tuple[Position, tuple[int, int]]] = []
    while len(out) < n:
        s = start_state(v)
        while not s.is_over and len(out) < n:
            if s.phase is Phase.OPENING:
                s, _ = advance(s, OpeningRoll(rng.randint(1, 6), rng.randint(1, 6)))
            elif s.phase is Phase.ROLL:
                s, _ = advance(s, RollDice(Roll(rng.randint(1, 6), rng.randint(1, 6))))
            else:
                assert s.plays is not None and s.roll is not None
                if only is None:
                    if len(s.plays) > 1 and rng.random() < 0.1:
                        out.append((s.position, s.roll.dice))
                elif len(s.plays) > 1 and position_class(s.position) == only and rng.random() < 0.5:
                    out.append((s.position, s.roll.dice))
                s, _ = advance(s, bot.choose(s))
    return out


CLASSES = ("contact", "crashed", "race")


def cmd_judge(args: argparse.Namespace) -> dict[str, Any]:
    from backgammon_lab.analysis.search import Evaluator

    v = find_variant("standard")
    net = _net(args.net, v)
    judge = Gnubg(plies=2)
    g0 = Gnubg(plies=0)
    decisions = gnubg_positions(args.positions, args.seed, args.only)
    rows: dict[str, list[tuple[bool, float]]] = {"net 0-ply": [], "HeuristicBot": [], "gnubg 0-ply": []}
    if args.ply:
        rows[f"net {args.ply}-ply"] = []
    heur = HeuristicBot()
    extra = {"filters": tuple(map(tuple, args.filters))} if args.filters else {}
    deep = NetBot(net, Options(ply=args.ply, **extra)) if args.ply else None
    t_net: list[float] = []
    t_deep: list[float] = []
    classes: list[str] = []
    for pos, dice in decisions:
        found = legal_boards(pos, dice)
        boards = list(found)
        opp = pos.off[1 if pos.turn == WHITE else 0]
        truth = np.array([judge.after_play(b, opp) for b in boards])
        best = float(truth.max())
        st = _roll_state_play(pos, dice)
        t0 = time.perf_counter()
        vals = Evaluator(net).play_values(st)  # in the order of the plays, which is legal_boards' order
        t_net.append(time.perf_counter() - t0)
        picks = {
            "net 0-ply": int(np.argmax(net.score(vals))),
            "gnubg 0-ply": int(np.argmax([g0.after_play(b, opp) for b in boards])),
        }
        hp = heur.choose_play(st, st.plays)
        picks["HeuristicBot"] = boards.index(play_board(hp))
        if deep is not None:
            t0 = time.perf_counter()
            picks[f"net {args.ply}-ply"] = boards.index(play_board(deep.choose_play(st, st.plays)))
            t_deep.append(time.perf_counter() - t0)
        classes.append(position_class(pos))
        for name, i in picks.items():
            rows[name].append((bool(truth[i] >= best - 1e-9), best - float(truth[i])))
    out: dict[str, Any] = {"positions": len(decisions), "judge": "gnubg 2-ply cubeless (prune)",
                           **({"only": args.only} if args.only else {})}
    if args.raw:  # one line a decision: its class and each player's equity lost, to pair runs later
        with open(args.raw, "w") as f:
            for k, cls in enumerate(classes):
                f.write(json.dumps({"decision": k, "class": cls, **{n: r[k][1] for n, r in rows.items()}}) + "\n")
    for name, r in rows.items():
        out[name] = {"top_play_agrees": float(np.mean([a for a, _ in r])),
                     "equity_lost_per_decision": float(np.mean([e for _, e in r]))}
        for cls in CLASSES:  # where the errors are: contact, crashed positions, races
            part = [e for (_, e), c in zip(r, classes, strict=True) if c == cls]
            out[name][f"equity_lost_{cls}"] = float(np.mean(part)) if part else None
    out["positions_by_class"] = {cls: classes.count(cls) for cls in CLASSES}
    out["net 0-ply"]["median_ms"] = 1000 * statistics.median(t_net)
    if t_deep:
        out[f"net {args.ply}-ply"]["median_ms"] = 1000 * statistics.median(t_deep)
    return out


def _roll_state(pos: Position) -> Any:
    from backgammon_lab.engine import position_state

    return position_state(pos)


def _roll_state_play(pos: Position, dice: tuple[int, int]) -> Any:
    return advance(_roll_state(pos), RollDice(Roll(*dice)))[0]


# ---------------------------------------------------------------------------------------------
# speed


def _sample_positions(variant: Variant, n: int, seed: int = 0) -> list[Position]:
    return sample_positions(variant, n, HeuristicBot(), seed=seed)


def _train_for(args: tuple[str, float, int, float, float | None]) -> tuple[int, float]:
    from backgammon_lab.analysis.train import DEFAULT_ALPHA, Trainer

    name, seconds, seed, lam, alpha = args
    net = shipped_net(name) or Net.create(name, seed=seed)
    if net.hidden2:  # a distilled net of two layers: self-play trains its one-layer teacher's shape
        net = Net.create(name, hidden=net.hidden, seed=seed, encoding=net.encoding)
    t = Trainer(net.copy(), seed=seed, lam=lam, alpha=DEFAULT_ALPHA if alpha is None else alpha)
    t.train(1)  # the kernel loads (or compiles) outside the timing
    games = 0
    c0 = time.process_time()
    while time.process_time() - c0 < seconds:  # CPU time: the figure of one core, whatever the load
        games += t.train(20).games
    return games, time.process_time() - c0


def _cpu_ms(call: Any, items: list[Any]) -> dict[str, float]:
    """CPU time of ``call(item)`` for each item: median, p90 and max in milliseconds."""
    times = []
    for item in items:
        t0 = time.process_time()
        call(item)
        times.append(1000 * (time.process_time() - t0))
    ts = sorted(times)
    return {"n": len(ts), "median": round(statistics.median(ts), 3),
            "p90": round(ts[min(len(ts) - 1, int(0.9 * len(ts)))], 3), "max": round(ts[-1], 3)}


def hint_latency(positions: int, ply2: int, net: str | None = None) -> dict[str, Any]:
    """The public calls timed (CPU): ``hint()`` standard at ply 0, 1, 2 (the default) over
    ``positions`` decisions from gnubg 0-ply self-play (2-ply over the first ``ply2``); Mexican
    ``opening_hint`` (keep or re-roll, the 15 opening rolls) and ``hint()`` of a Mexican 1-2 with the
    naming looked up, at 0-ply and at Mexican's default ply, with the shipped nets (``net``: this
    standard net file in the options instead). The kernels and the bear-off databases load (or are
    built) before the timing."""
    from backgammon_lab.analysis.bearoff import get_database
    from backgammon_lab.analysis.hints import hint, opening_hint

    out: dict[str, Any] = {}
    std = load_net(net) if net else (shipped_net("standard") or Net.create("standard"))
    mex = shipped_net("mexican") or Net.create("mexican")
    decisions = gnubg_positions(positions, 0)
    for v in ("standard", "mexican"):
        get_database(v)
    # the call a user makes: the shipped net, chosen by default (a net given in the options is
    # read afresh by every call, about 0.1 ms more)
    given = None if std is shipped_net("standard") else std
    hint(*decisions[0], Options(evaluator=given))
    for ply, subset in ((0, decisions), (1, decisions), (2, decisions[:ply2])):
        opts = Options(ply=ply, evaluator=given)  # made once, as a caller keeps its options
        out[f"hint() standard {ply}-ply (ms CPU)"] = _cpu_ms(lambda d, o=opts: hint(d[0], d[1], o), subset)
    start = Position.start("mexican").with_turn(WHITE)
    openings = [(a, b) for a in range(2, 7) for b in range(1, a)]
    mexicans = [p for p in _sample_positions(find_variant("mexican"), 200, seed=3) if not p.is_over][:40]
    default = Options().ply_for(find_variant("mexican"))
    for ply in sorted({0, default}):
        opts = Options(ply=ply, evaluator=None if mex is shipped_net("mexican") else mex)
        opening_hint(start, openings[0], opts)
        out[f"opening_hint() Mexican keep/re-roll, {ply}-ply (ms CPU)"] = _cpu_ms(
            lambda d, o=opts: opening_hint(start, d, o), openings)
        out[f"hint() Mexican 1-2 with the naming, {ply}-ply (ms CPU)"] = _cpu_ms(
            lambda p, o=opts: hint(p, (2, 1), o), mexicans)
    return out


def eval_speed(rounds: int = 3) -> dict[str, int]:
    """Net evaluations a second of CPU, the public calls one position at a time
    (``Net.evaluate`` of one board, ``Net.evaluate_position``) and in batches of 20, beside gnubg's
    0-ply evaluation through its binding one position at a time, interleaved in ``rounds`` rounds,
    each over 2,000 positions of its own (gnubg caches the positions it has evaluated), the best
    round of each."""
    std = find_variant("standard")
    everything = _sample_positions(std, 2000 * rounds + 1)
    net = shipped_net(std) or Net.create(std)
    g = Gnubg(0)
    first = everything.pop()
    net.evaluate_position(first)  # the kernel loads (or compiles) outside the timing
    g.on_roll(first.board())

    def rate(call: Any, items: Any) -> float:
        c0 = time.process_time()
        for item in items:
            call(item)
        return len(items) / max(time.process_time() - c0, 1e-9)

    best: dict[str, float] = {}
    for r in range(rounds):
        positions = everything[2000 * r:2000 * (r + 1)]
        boards = np.array([p.board() for p in positions])
        offs = np.array([p.off[1 if p.turn == WHITE else 0] for p in positions])
        tuples = [tuple(int(x) for x in b) for b in boards]
        got = {"net batches of 20": 20 * rate(lambda i, b=boards, o=offs: net.evaluate(b[i:i + 20], o[i:i + 20]),
                                               range(0, len(boards), 20)),
               "net.evaluate one board at a time": rate(lambda i, b=boards, o=offs: net.evaluate(b[i:i + 1], o[i:i + 1]),
                                                        range(len(boards))),
               "net.evaluate_position one at a time": rate(net.evaluate_position, positions),
               "gnubg 0-ply one at a time": rate(g.on_roll, tuples)}
        for k, val in got.items():
            best[k] = max(best.get(k, 0.0), val)
    return {k: round(val) for k, val in best.items()}


def cmd_speed(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if args.hints_only:
        return hint_latency(args.hint_positions, args.ply2, args.net)
    if not args.train_only:
        out["evals_per_second"] = eval_speed()
    if args.evals_only:
        return out
    if not args.train_only:
        out.update(hint_latency(args.hint_positions, args.ply2, args.net))
    for vname in () if args.no_train else ("standard", "mexican", "minigam"):
        row: dict[str, float] = {}
        for lam in args.lambdas:
            tail = "" if lam == DEFAULT_LAMBDA else f", lambda {lam:g}"
            g1, s1 = _train_for((vname, args.seconds, 1, lam, args.alpha))
            with ProcessPoolExecutor(2) as ex:
                res = list(ex.map(_train_for, [(vname, args.seconds, 2, lam, args.alpha),
                                               (vname, args.seconds, 3, lam, args.alpha)]))
            row["one core" + tail] = round(g1 / s1, 2)
            row["two cores" + tail] = round(sum(g for g, _ in res) / max(s for _, s in res), 2)
        out[f"train {vname} games/s"] = row
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("minigam")
    m.add_argument("--net")
    m.add_argument("--positions", type=int, default=10000)
    m.add_argument("--games", type=int, default=4000)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--workers", type=int, default=1)
    m.set_defaults(func=cmd_minigam)
    ma = sub.add_parser("match")
    ma.add_argument("variant")
    ma.add_argument("--opponent", default="heuristic")
    ma.add_argument("--net")
    ma.add_argument("--games", type=int, default=2000)
    ma.add_argument("--workers", type=int, default=1)
    ma.add_argument("--first-pair", type=int, default=0,
                    help="number of the first pair of games, whose dice it plays (default 0): other dice for a second sample")
    ma.add_argument("--no-lookahead", action="store_true", help="value Mexican plays as the trainer does")
    ma.add_argument("--ply", type=int, default=0, choices=(0, 1, 2),
                    help="the net's bot looks this many rolls ahead (default 0)")
    ma.add_argument("--rollout", type=int, default=0, metavar="GAMES",
                    help="play by rollouts of the best 0-ply candidates, GAMES games each (RolloutBot; slow)")
    ma.add_argument("--truncate", type=int, default=None, metavar="TURNS",
                    help="with --rollout: cut each rollout game after TURNS turns (default: play to the end)")
    ma.add_argument("--luck", action="store_true",
                    help="with --rollout: take each roll's luck off the rollouts (far less noise, about 30x the CPU)")
    ma.set_defaults(func=cmd_match)
    j = sub.add_parser("judge")
    j.add_argument("--net")
    j.add_argument("--positions", type=int, default=200)
    j.add_argument("--seed", type=int, default=0)
    j.add_argument("--ply", type=int, default=0, choices=(0, 1, 2), help="also judge the net's plays at this ply")
    j.add_argument("--raw", help="write each decision's equity lost by each player to this file (JSON lines)")
    j.add_argument("--only", choices=CLASSES, help="judge decisions from positions of this class only")
    j.add_argument("--filters", type=json.loads, default=None,
                   help="the move filters of --ply as JSON pairs [[plays, equity], ...] (default: the library's)")
    j.set_defaults(func=cmd_judge)
    s = sub.add_parser("speed")
    s.add_argument("--seconds", type=float, default=20.0, help="seconds of self-play per training measurement")
    s.add_argument("--no-train", action="store_true", help="skip the training games/s rows")
    s.add_argument("--lambdas", type=float, nargs="+", default=[DEFAULT_LAMBDA, 0.0],
                   help="the trainer's lambdas timed (0: the trace-free TD(0) update)")
    s.add_argument("--alpha", type=float, default=None,
                   help="the trainer's step size (default the trainer's, 0.1; the shipped nets' runs use 0.001-0.01, "
                        "and a large step on a trained net makes its games longer)")
    s.add_argument("--hint-positions", type=int, default=200, help="gnubg self-play decisions for hint() latency")
    s.add_argument("--ply2", type=int, default=200, help="of which this many at 2-ply")
    s.add_argument("--hints-only", action="store_true", help="only the hint latency rows")
    s.add_argument("--evals-only", action="store_true", help="only the evaluations/s rows (with gnubg's)")
    s.add_argument("--train-only", action="store_true", help="only the training games/s rows")
    s.add_argument("--net", help="time the standard hints with this net file (default: the shipped net)")
    s.set_defaults(func=cmd_speed)
    args = p.parse_args(argv)
    print(json.dumps(args.func(args), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
