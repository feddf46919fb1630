"""Rollouts: play a position out many times with a bot and report the winning chance.

>>> from backgammon_lab import Position
>>> from backgammon_lab.analysis.rollout import rollout
>>> r = rollout(Position.start("minigam"), games=200, seed=1, progress=False)
>>> 0.0 < r.win < 1.0 and r.stderr > 0
True

Repeatable: game ``i`` of a rollout with seed ``s`` draws its dice from its own generator,
``random.Random(f"{s}:{i}")``, and bots with randomness of their own are re-seeded the same way
(:meth:`Bot.seeded <backgammon_lab.analysis.bots.Bot.seeded>`), so a rollout gives identical
numbers for the same seed whether it runs on one process or two. With ``workers=2`` the games are
split in chunks over a :mod:`multiprocessing` pool (a fork server where there is one, else spawned
processes) and put back in order.

Games are played by :class:`FastGame`, a light copy of the :class:`~backgammon_lab.game.Game`
state machine (same phases, same rules, same dice from the same generator) without history,
messages or undo; the tests check that both play identical games.
"""

from __future__ import annotations

import math
import multiprocessing
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import GameError
from ..game import Game
from ..position import BLACK, WHITE, Play, Player, Position, Roll, other
from ..rules import legal_plays
from ..variants import Variant
from .bots import Bot, HeuristicBot
from .table import Table, fmt_prob

__all__ = ["rollout", "RolloutResult", "FastGame", "play_game"]

#: A game longer than this many actions is stopped and counted as a loss for both (never seen).
MAX_ACTIONS = 20000


class FastGame:
    """The :class:`~backgammon_lab.game.Game` state machine without history: for simulations.

    It has the parts bots read (``phase``, ``position``, ``dice``, ``variant``,
    ``current_player``, ``legal_actions()``, ``is_chance()``) and ``roll()``, ``apply()``. The
    dice come from ``rng`` exactly as :meth:`Game.roll` draws them.
    """

    __slots__ = ("variant", "rng", "position", "phase", "dice", "named", "winner", "points", "_plays")

    def __init__(self, position: Position, phase: str = "roll", *, dice: Roll | None = None,
                 named: bool = False, rng: random.Random | None = None) -> None:
        self.variant: Variant = position.variant
        self.rng = rng if rng is not None else random.Random(0)
        self.position = position
        self.phase = phase
        self.dice = dice
        self.named = named
        self.winner: Player | None = None
        self.points = 0
        self._plays: list[Play] | None = None
        if phase == "play":
            assert dice is not None
            self._start_play(dice, named)

    @classmethod
    def from_game(cls, game: Game, rng: random.Random | None = None) -> FastGame:
        """The current point of a :class:`Game` (steps clicked so far are taken back)."""
        st = game.state
        if st.phase == "over":
            raise GameError("the game is already over")
        pos = game.position
        if st.phase == "play" and st.steps:
            pos = game.states[game.index - len(st.steps)].position
        return cls(pos, st.phase, dice=st.dice, named=st.named, rng=rng)

    def copy(self, rng: random.Random | None = None) -> FastGame:
        """An independent copy (sharing nothing mutable), with a new dice generator if given."""
        g = object.__new__(FastGame)
        g.variant, g.position, g.phase, g.dice, g.named = self.variant, self.position, self.phase, self.dice, self.named
        g.winner, g.points, g._plays = self.winner, self.points, self._plays
        g.rng = rng if rng is not None else self.rng
        return g

    # -- the parts bots read ------------------------------------------------------------------
    @property
    def current_player(self) -> Player:
        """Who acts next."""
        return self.position.turn

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.phase == "over"

    def is_chance(self) -> bool:
        """True at the opening roll and at rolls."""
        return self.phase in ("opening", "roll")

    def legal_actions(self) -> list[Any]:
        """Plays, ``"keep"``/``"reroll"`` or 1..6, as :meth:`Game.legal_actions`."""
        if self.phase == "play":
            assert self._plays is not None
            return self._plays
        if self.phase == "choice":
            return ["keep", "reroll"]
        if self.phase == "name":
            return [1, 2, 3, 4, 5, 6]
        return []

    # -- transitions (the same as Game's) -----------------------------------------------------
    def roll(self, dice: Any = None) -> FastGame:
        """Roll at a chance node (random from ``rng`` unless ``dice`` are given)."""
        if self.phase == "opening":
            if dice is None:
                w, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
            else:
                w, b = Roll.parse(dice).dice
            if w == b:
                return self
            winner = WHITE if w > b else BLACK
            self.position = self.position.with_turn(winner)
            self.dice = Roll(max(w, b), min(w, b))
            if self.variant.opening_choice:
                self.phase = "choice"
            else:
                self._start_play(self.dice, False)
            return self
        if self.phase != "roll":
            raise GameError(f"cannot roll in phase {self.phase!r}")
        r = Roll(self.rng.randint(1, 6), self.rng.randint(1, 6)) if dice is None else Roll.parse(dice)
        self._start_play(r, False)
        return self

    def apply(self, action: Any) -> FastGame:
        """Apply a chance outcome or a decision, as :meth:`Game.apply`."""
        ph = self.phase
        if ph in ("opening", "roll"):
            return self.roll(action)
        if ph == "choice":
            if action == "keep":
                assert self.dice is not None
                self._start_play(self.dice, False)
            elif action == "reroll":
                self.phase, self.dice = "roll", None
            else:
                raise GameError(f"the opening choice is 'keep' or 'reroll', not {action!r}")
            return self
        if ph == "name":
            if action not in (1, 2, 3, 4, 5, 6):
                raise GameError(f"named doubles are a number from 1 to 6, not {action!r}")
            self._start_play(Roll(action, action), True)
            return self
        if ph == "play":
            return self._finish(self._match(action))
        raise GameError("the game is over")

    def _match(self, action: Any) -> Play:
        assert self._plays is not None
        if isinstance(action, Play):
            target = action.position
        elif isinstance(action, Position):
            target = action
        elif isinstance(action, str):
            assert self.dice is not None
            return legal_plays(self.position, self.dice).find(action)
        else:
            raise GameError(f"not a play: {action!r}")
        for p in self._plays:
            if p.position == target:
                return p
        raise GameError(f"{action!r} is not a legal play of {self.dice} here")

    def _start_play(self, dice: Roll, named: bool) -> None:
        plays = legal_plays(self.position, dice)
        self.dice, self.named = dice, named
        if plays.length == 0:
            self._end_turn()
            return
        self.phase = "play"
        self._plays = list(plays)

    def _finish(self, play: Play) -> FastGame:
        v = self.variant
        dice = self.dice
        assert dice is not None
        pos = play.position
        used = len(play.steps)
        self.position = pos
        self._plays = None
        if pos.is_over:
            self.phase, self.winner, self.points = "over", pos.turn, pos.game_value()
            return self
        nxt = v.after_play(dice.dice, self.named, used)
        if nxt == "name":
            self.phase = "name"
            return self
        if nxt == "roll_again":
            self.phase, self.dice, self.named = "roll", None, False
            return self
        self._end_turn()
        return self

    def _end_turn(self) -> None:
        self.position = self.position.with_turn(other(self.position.turn))
        self.phase, self.dice, self.named, self._plays = "roll", None, False, None


def play_game(game: FastGame, bots: dict[Player, Bot], max_actions: int = MAX_ACTIONS) -> FastGame:
    """Play ``game`` to the end: chance from its generator, decisions from ``bots[player]``."""
    for _ in range(max_actions):
        ph = game.phase
        if ph == "over":
            return game
        if ph in ("opening", "roll"):
            game.roll()
        else:
            game.apply(bots[game.position.turn].choose(game))
    raise GameError(f"a rollout game did not end within {max_actions} actions")


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
        rows = [["games", self.games], ["wins", self.wins],
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


def _template(start: Any) -> tuple[FastGame, Player]:
    if isinstance(start, Position):
        if start.is_over:
            raise GameError(f"the game is already over in {start!r}")
        return FastGame(start, "roll"), start.turn
    if isinstance(start, FastGame):
        return start.copy(), start.current_player
    if isinstance(start, Game):
        g = FastGame.from_game(start)
        return g, (WHITE if start.phase == "opening" else start.current_player)
    raise TypeError(f"rollout needs a Position or a Game, not {start!r}")


def _game_rng(seed: int, i: int) -> random.Random:
    return random.Random(f"{seed}:{i}")


def _run_games(args: tuple[FastGame, Bot, Bot, Player, int, int, int]) -> list[int]:
    """Points of ``player`` (negative when lost) for games ``lo..hi-1``."""
    template, bot, opp_bot, player, seed, lo, hi = args
    out = []
    for i in range(lo, hi):
        g = template.copy(_game_rng(seed, i))
        bots = {player: bot.seeded(hash_seed(seed, i, 1)), other(player): opp_bot.seeded(hash_seed(seed, i, 2))}
        play_game(g, bots)
        out.append(g.points if g.winner == player else -g.points)
    return out


def hash_seed(seed: int, i: int, k: int) -> int:
    """A deterministic 63-bit seed for game ``i`` and stream ``k`` of a rollout seeded ``seed``."""
    return random.Random(f"{seed}:{i}:{k}").getrandbits(63)


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for lo in range(0, games, size):
        yield lo, min(games, lo + size)


def rollout(start: Position | Game | FastGame, bot: Bot | None = None, *, games: int = 1000, seed: int = 0,
            workers: int = 1, progress: bool = True, opponent: Bot | None = None,
            player: Player | None = None, chunk: int | None = None) -> RolloutResult:
    """Play ``start`` out ``games`` times and return the winning chance of the side to act.

    ``start`` is a Position (its ``turn`` rolls next) or a Game (or :class:`FastGame`) at any
    point; a game still at the opening is rolled out for White. ``player`` chooses the side the
    result is for instead. ``bot`` plays that side and the other (default :class:`HeuristicBot`)
    unless ``opponent`` plays the other one. ``seed`` makes the rollout repeatable; ``workers=2``
    uses two processes and gives the same numbers. ``progress`` shows a tqdm bar (``tqdm.auto``:
    a widget in notebooks, text in terminals).
    """
    if games < 1:
        raise ValueError(f"a rollout needs at least one game, not {games!r}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers!r}")
    template, first = _template(start)
    player = first if player is None else player
    bot = bot if bot is not None else HeuristicBot()
    opp_bot = opponent if opponent is not None else bot
    size = chunk or max(1, min(100, games // (8 * workers) or 1))
    jobs = [(template, bot, opp_bot, player, seed, lo, hi) for lo, hi in _chunks(games, size)]
    from tqdm.auto import tqdm

    bar = tqdm(total=games, desc="rollout", unit="game", disable=not progress, leave=False)
    results: list[int] = []
    try:
        if workers == 1 or len(jobs) == 1:
            for job in jobs:
                part = _run_games(job)
                results.extend(part)
                bar.update(len(part))
        else:
            with _context().Pool(workers) as pool:
                for part in pool.imap(_run_games, jobs):
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
