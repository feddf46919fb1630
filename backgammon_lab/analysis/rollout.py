"""Rollouts: play a position out many times with a bot and report the winning chance.

>>> from backgammon_lab import Position
>>> from backgammon_lab.analysis.rollout import rollout
>>> r = rollout(Position.start("minigam"), games=200, seed=1, progress=False)
>>> 0.0 < r.win < 1.0 and r.stderr > 0
True

Games run on the bare turn engine (:func:`backgammon_lab.engine.advance`): chance from a seeded
generator, decisions from the bots, no history.

Repeatable: game ``i`` of a rollout with seed ``s`` draws its dice from its own generator,
``random.Random(f"{s}:{i}")``, and bots with randomness of their own are re-seeded the same way
(:meth:`Bot.seeded <backgammon_lab.analysis.bots.Bot.seeded>`), so a rollout gives identical
numbers for the same seed however its games are spread. The games go in chunks to any
:class:`concurrent.futures.Executor` (``executor=``): a :class:`~concurrent.futures.ProcessPoolExecutor`
on one machine (``workers=2`` makes one), or Dask's ``distributed.Client(...).get_executor()`` across
machines; the chunks are put back in order.
"""

from __future__ import annotations

import math
import multiprocessing
import random
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..engine import OpeningRoll, Phase, RollDice, TurnState, advance, position_state
from ..errors import AnalysisError, GameError
from ..game import Game
from ..position import Player, Position, Roll, other
from .bots import Bot, HeuristicBot
from .table import Table, fmt_prob

__all__ = ["rollout", "RolloutResult", "play_out", "turn_state", "RolloutError"]

#: A game longer than this many actions is stopped and counted as a loss for both (never seen).
MAX_ACTIONS = 20000


class RolloutError(AnalysisError):
    """Bad arguments to a rollout (games, workers, start)."""


def play_out(state: TurnState, bots: dict[Player, Bot], rng: random.Random,
             max_actions: int = MAX_ACTIONS) -> TurnState:
    """Play ``state`` to the end on the bare engine: dice from ``rng`` (drawn as
    :meth:`Game.roll <backgammon_lab.game.Game.roll>` draws them), decisions from ``bots[player]``."""
    randint = rng.randint
    for _ in range(max_actions):
        ph = state.phase
        if ph is Phase.OVER:
            return state
        if ph is Phase.ROLL:
            state = advance(state, RollDice(Roll(randint(1, 6), randint(1, 6))))[0]
        elif ph is Phase.OPENING:
            state = advance(state, OpeningRoll(randint(1, 6), randint(1, 6)))[0]
        else:
            state = advance(state, bots[state.position.turn].choose(state))[0]
    raise GameError(f"a rollout game did not end within {max_actions} actions")


def turn_state(start: Position | Game | TurnState) -> TurnState:
    """The engine state a rollout starts from: a Position (its ``turn`` rolls next), a Game or a
    state at any point (steps clicked so far are taken back)."""
    if isinstance(start, Game):
        start = start.state
    if isinstance(start, Position):
        return position_state(start)
    if isinstance(start, TurnState):
        if start.phase is Phase.OVER:
            raise GameError(f"the game is already over in {start.position!r}")
        if start.steps:
            return TurnState(start.turn_start, Phase.PLAY, roll=start.roll, named=start.named, plays=start.plays)
        return start
    raise RolloutError(f"a rollout starts from a Position, a Game or a TurnState, not {start!r:.200}")


@dataclass
class RolloutResult:
    """The outcome of a rollout, for ``player`` (the side to act at the start).

    ``win`` is the fraction of games ``player`` won and ``stderr`` its standard error
    (``sqrt(win * (1 - win) / games)``); ``points`` the average points won (gammons count 2 and
    backgammons 3 in standard backgammon; 1 elsewhere), with ``points_stderr``.
    """

    player: Player
    games: int
    wins: int
    win: float
    stderr: float
    points: float
    points_stderr: float
    seed: int
    bot: str
    outcomes: dict[int, int] = field(default_factory=dict)

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The normal-approximation confidence interval of ``win`` (95% by default)."""
        return (max(0.0, self.win - z * self.stderr), min(1.0, self.win + z * self.stderr))

    def table(self) -> Table:
        """The result as a small table."""
        lo, hi = self.interval()
        rows: list[list[Any]] = [["games", self.games], ["wins", self.wins],
                ["winning chance", f"{fmt_prob(self.win, 2)} ± {fmt_prob(self.stderr, 2)}"],
                ["95% interval", f"{fmt_prob(lo, 2)} to {fmt_prob(hi, 2)}"],
                ["points per game", f"{self.points:+.4f} ± {self.points_stderr:.4f}"]]
        return Table(["rollout", "value"], rows, title=f"Rollout for {self.player} ({self.bot}, seed {self.seed})")

    def __str__(self) -> str:
        return str(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"player": self.player, "games": self.games, "wins": self.wins, "win": self.win,
                "stderr": self.stderr, "points": self.points, "points_stderr": self.points_stderr,
                "seed": self.seed, "bot": self.bot}


def _template(start: Any) -> tuple[TurnState, Player]:
    state = turn_state(start)
    return state, ("white" if state.phase is Phase.OPENING else state.player)


def _game_rng(seed: int, i: int) -> random.Random:
    return random.Random(f"{seed}:{i}")


def _run_games(args: tuple[TurnState, Bot, Bot, Player, int, int, int]) -> list[int]:
    """Points of ``player`` (negative when lost) for games ``lo..hi-1``."""
    template, bot, opp_bot, player, seed, lo, hi = args
    out = []
    for i in range(lo, hi):
        bots = {player: bot.seeded(hash_seed(seed, i, 1)), other(player): opp_bot.seeded(hash_seed(seed, i, 2))}
        end = play_out(template, bots, _game_rng(seed, i))
        out.append(end.points if end.winner == player else -end.points)
    return out


def hash_seed(seed: int, i: int, k: int) -> int:
    """A deterministic 63-bit seed for game ``i`` and stream ``k`` of a rollout seeded ``seed``."""
    return random.Random(f"{seed}:{i}:{k}").getrandbits(63)


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for lo in range(0, games, size):
        yield lo, min(games, lo + size)


def rollout(start: Position | Game | TurnState, bot: Bot | None = None, *, games: int = 1000, seed: int = 0,
            workers: int = 1, executor: Executor | None = None, progress: bool = True,
            opponent: Bot | None = None, player: Player | None = None, chunk: int | None = None) -> RolloutResult:
    """Play ``start`` out ``games`` times and return the winning chance of the side to act.

    ``start`` is a Position (its ``turn`` rolls next), a Game or an engine state at any point; a
    game still at the opening is rolled out for White. ``player`` chooses the side the result is
    for instead. ``bot`` plays that side and the other (default :class:`HeuristicBot`) unless
    ``opponent`` plays the other one. ``seed`` makes the rollout repeatable; ``executor`` (any
    :class:`concurrent.futures.Executor`) or ``workers=2`` (a process pool made for the call)
    spread the games and give the same numbers. ``progress`` shows a tqdm bar (``tqdm.auto``: a
    widget in notebooks, text in terminals).
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise RolloutError(f"a rollout needs a whole number of games, at least 1, not {games!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RolloutError(f"workers must be a whole number, at least 1, not {workers!r}")
    template, first = _template(start)
    player = first if player is None else player
    bot = bot if bot is not None else HeuristicBot()
    opp_bot = opponent if opponent is not None else bot
    spread = executor is not None or workers > 1
    size = chunk or max(1, min(100, games // (8 * (workers if executor is None else 2)) or 1))
    jobs = [(template, bot, opp_bot, player, seed, lo, hi) for lo, hi in _chunks(games, size)]
    from tqdm.auto import tqdm

    bar = tqdm(total=games, desc="rollout", unit="game", disable=not progress, leave=False)
    results: list[int] = []
    try:
        if not spread or len(jobs) == 1:
            for job in jobs:
                part = _run_games(job)
                results.extend(part)
                bar.update(len(part))
        elif executor is not None:
            for part in executor.map(_run_games, jobs):
                results.extend(part)
                bar.update(len(part))
        else:
            with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
                for part in pool.map(_run_games, jobs):
                    results.extend(part)
                    bar.update(len(part))
    finally:
        bar.close()
    return _summarise(results, player, seed, bot)


def _context() -> Any:
    """A process context that does not fork this (maybe threaded) process: a fork server that
    has already imported this module where there is one (POSIX), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["backgammon_lab.analysis.rollout"])
        return ctx
    return multiprocessing.get_context("spawn")


def _summarise(points: Sequence[int], player: Player, seed: int, bot: Bot) -> RolloutResult:
    n = len(points)
    wins = sum(1 for x in points if x > 0)
    win = wins / n
    mean = sum(points) / n
    var = sum((x - mean) ** 2 for x in points) / (n - 1) if n > 1 else 0.0
    outcomes: dict[int, int] = {}
    for x in points:
        outcomes[x] = outcomes.get(x, 0) + 1
    name = getattr(bot, "name", type(bot).__name__)
    return RolloutResult(player, n, wins, win, math.sqrt(win * (1 - win) / n), mean, math.sqrt(var / n),
                         seed, name, dict(sorted(outcomes.items())))
