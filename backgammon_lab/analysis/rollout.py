"""Rollouts: play a position out many times with a bot and report the winning chance.

>>> from backgammon_lab import Position
>>> from backgammon_lab.analysis.rollout import rollout
>>> from backgammon_lab.analysis.options import Options
>>> r = rollout(Position.start("minigam"), Options(games=200, seed=1))
>>> 0.0 < r.win < 1.0 and r.stderr > 0
True

Games run on the bare turn engine (:func:`backgammon_lab.engine.advance`, driven by
:func:`play_out`): chance from a seeded generator, decisions from the bots, no history.

Repeatable: game ``i`` of a rollout with seed ``s`` draws its dice from its own generator,
``random.Random(f"{s}:{i}")``, and bots with randomness of their own are re-seeded the same way
(:meth:`Bot.seeded <backgammon_lab.analysis.bots.Bot.seeded>`), so a rollout gives identical
numbers for the same seed however its games are spread. The games go in chunks to any
:class:`concurrent.futures.Executor` (the options' ``executor``): a
:class:`~concurrent.futures.ProcessPoolExecutor` on one machine (``workers=2`` makes one), or Dask's
``distributed.Client(...).get_executor()`` across machines; the chunks are put back in order.

Variance reduction (as GNU Backgammon does it; off by default, on in hints)
    ``stratify=True``: the first roll of the dice of game ``i`` is outcome ``i mod 36`` of the 36
    ordered outcomes (in an order shuffled by the seed), so every 36 games see each first roll
    exactly once; from 1,296 games on, the second roll is stratified too (game ``i`` gets second
    roll ``(i // 36) mod 36``), so every 1,296 games see each pair of first two rolls once. The rest
    of the dice come from the game's own generator. Rollouts of several plays with the same seed
    therefore get the same dice, game by game. The standard error is then estimated from the spread
    of the results *within* the 36 first-roll strata (the part of the spread the stratification
    does not remove).

    ``truncate=N`` (in the options): each game stops once ``N`` turns have been played (a turn is one
    player's roll and play, with the re-rolls of a Mexican chain) and the position reached is valued
    by the options' ``evaluator`` (a net of :mod:`backgammon_lab.analysis.nets`, a solved Mini-Gam
    table, ``"net"``, ``"exact"`` or an evaluator; by default the net of a
    :class:`~backgammon_lab.analysis.netbot.NetBot`, else the variant's shipped net): its winning
    chance and cubeless equity count in place of a result.

    ``Options(luck=True)``: each game's result less the luck of its rolls (:class:`Luck`): for every roll,
    the value of the best play with the dice rolled less the average of that over the 21 rolls, by
    the same evaluator at 0-ply. The luck averages exactly zero over the dice, so the expectation
    is the same; with a good net the spread is several times smaller (GNU Backgammon's variance
    reduction). ``win`` and ``points`` may then stray a little outside their ranges in small rollouts.

    ``RolloutResult.plain_stderr`` is the error a plain rollout of the same number of games would
    have at this winning chance (``sqrt(win (1 - win) / games)``), for comparison.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from ..engine import Phase, TurnState, play, position_state, start_state
from ..errors import AnalysisError, GameError, whole_number
from ..game import Game
from ..position import Player, Position, other
from ..variants import find_variant
from .bots import Bot, HeuristicBot
from .options import Options, as_options
from .table import Table, fmt_prob

__all__ = ["rollout", "RolloutResult", "play_out", "sample_positions", "turn_state", "RolloutError", "first_rolls",
           "hash_seed", "close_pool", "rollout_rows", "Luck"]

#: A game longer than this many actions is stopped and counted as a loss for both (never seen).
MAX_ACTIONS = 20000

#: The games of a rollout whose options give none.
DEFAULT_GAMES = 1000

#: The 36 ordered outcomes of two dice.
_OUTCOMES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, 7))


class RolloutError(AnalysisError):
    """Bad arguments to a rollout (games, workers, start, truncation)."""


def play_out(state: TurnState, bots: dict[Player, Bot], rng: random.Random,
             max_actions: int = MAX_ACTIONS, *, first: Sequence[tuple[int, int]] = (),
             turns: int | None = None, on_roll: Callable[[TurnState, tuple[int, int]], None] | None = None
             ) -> TurnState:
    """Play ``state`` to the end on the bare engine: dice from ``rng`` (drawn as
    :meth:`Game.roll <backgammon_lab.game.Game.roll>` draws them), decisions from ``bots[player]``.

    ``first``: the dice of the first rolls, in order (stratified rollouts), before ``rng`` takes over.
    ``turns``: stop at the start of a turn once that many turns have begun and ended, and return
    that state (phase ``roll``; a finished game returns phase ``over`` as always).
    ``on_roll(state, dice)``: called with each roll of a side about to roll (phase ``roll``, a
    Mexican chain's re-rolls among them; not the opening's) and the dice it gets (luck, below).
    """
    randint = rng.randint
    forced = list(first)
    begun = 0

    def dice(st: TurnState) -> tuple[int, int]:
        nonlocal begun
        a, b = forced.pop(0) if forced else (randint(1, 6), randint(1, 6))
        if st.phase is Phase.ROLL and not st.reroll or st.phase is Phase.OPENING and a != b:
            begun += 1
        if on_roll is not None and st.phase is Phase.ROLL:
            on_roll(st, (a, b))
        return a, b

    def until(st: TurnState) -> bool:
        return st.phase is Phase.ROLL and not st.reroll and begun >= turns  # type: ignore[operator]

    for new, _action, _events in play(state, lambda st: bots[st.position.turn].choose(st), dice,
                                      until=None if turns is None else until, max_actions=max_actions):
        state = new
    return state


def sample_positions(variant: Any, n: int, bot: Bot | None = None, *, seed: int = 0, explore: float = 0.0
                     ) -> list[Position]:
    """``n`` positions before a roll, from seeded games played from the start on the bare engine.

    Every decision is ``bot``'s (:meth:`Bot.choose <backgammon_lab.analysis.bots.Bot.choose>`),
    or a random legal action when there is no bot or, with ``explore``, at that rate. One
    :class:`random.Random` seeded with ``seed`` draws the dice (two ``randint(1, 6)`` a roll) and
    the random choices, so the same arguments give the same positions.

    >>> [p.turn for p in sample_positions("minigam", 3, seed=1)]
    ['white', 'black', 'white']
    """
    v = find_variant(variant)
    try:
        n = whole_number(n, "n", 0, error=RolloutError)
    except RolloutError:
        raise RolloutError(f"the number of positions is a whole number, at least 0, not {n!r}") from None
    if isinstance(explore, bool) or not isinstance(explore, (int, float)) or not 0.0 <= explore <= 1.0:
        raise RolloutError(f"explore is a rate from 0 to 1, not {explore!r}")
    rng = random.Random(seed)
    out: list[Position] = []

    def dice(st: TurnState) -> tuple[int, int]:
        if st.phase is Phase.ROLL:
            out.append(st.position)
        return rng.randint(1, 6), rng.randint(1, 6)

    def decide(st: TurnState) -> Any:
        if bot is None or (explore and rng.random() < explore):
            acts = st.legal_actions()
            return acts[rng.randrange(len(acts))]
        return bot.choose(st)

    while len(out) < n:
        for _ in play(start_state(v), decide, dice, until=lambda _st: len(out) >= n):
            pass
    return out


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
        return start.at_turn_start()
    raise RolloutError(f"a rollout starts from a Position, a Game or a TurnState, not {start!r:.200}")


@dataclass
class RolloutResult:
    """The outcome of a rollout, for ``player`` (the side to act at the start).

    ``win`` is the fraction of games ``player`` won (a truncated game counts with the evaluator's
    winning chance) and ``stderr`` its standard error: ``sqrt(win * (1 - win) / games)`` for a
    plain rollout, the within-strata estimate for a stratified one (see the module docstring);
    ``points`` the average points won (gammons count 2 and backgammons 3 in standard backgammon;
    1 elsewhere; a truncated game counts with its cubeless equity), with ``points_stderr``.
    ``plain_stderr`` is what a plain rollout of as many games would give at this winning chance.
    ``samples`` keeps ``(win, points)`` of every game in game order (for paired comparisons of
    plays rolled out with the same seed).
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
    stratified: bool = False
    truncate: int | None = None
    truncated: int = 0
    plain_stderr: float = 0.0
    samples: tuple[tuple[float, float], ...] = field(default=(), repr=False, compare=False)
    luck: bool = False

    @property
    def reduced(self) -> bool:
        """True when variance reduction (stratified dice, truncation or luck) was used."""
        return self.stratified or self.truncate is not None or self.luck

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
        if self.reduced:
            how = ", ".join(([f"first rolls stratified ({1296 if self.games >= 1296 else 36} outcomes)"]
                             if self.stratified else [])
                            + ([f"truncated after {self.truncate} turns ({self.truncated} games)"]
                               if self.truncate is not None else [])
                            + (["each roll's luck taken off"] if self.luck else []))
            rows += [["variance reduction", how], ["plain rollout's error", f"± {fmt_prob(self.plain_stderr, 2)}"]]
        return Table(["rollout", "value"], rows, title=f"Rollout for {self.player} ({self.bot}, seed {self.seed})")

    def __str__(self) -> str:
        return str(self.table())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out: dict[str, Any] = {"player": self.player, "games": self.games, "wins": self.wins, "win": self.win,
                               "stderr": self.stderr, "points": self.points, "points_stderr": self.points_stderr,
                               "seed": self.seed, "bot": self.bot}
        if self.reduced:
            out.update(stratified=self.stratified, truncate=self.truncate, truncated=self.truncated,
                       plain_stderr=self.plain_stderr, luck=self.luck)
        return out


def _template(start: Any) -> tuple[TurnState, Player]:
    state = turn_state(start)
    return state, ("white" if state.phase is Phase.OPENING else state.player)


def _game_rng(seed: int, i: int) -> random.Random:
    return random.Random(f"{seed}:{i}")


def first_rolls(seed: int, i: int, games: int) -> tuple[tuple[int, int], ...]:
    """The stratified first rolls of game ``i`` of a rollout of ``games`` games seeded ``seed``:
    one roll (outcome ``i mod 36``), or two from 1,296 games on (the second ``(i // 36) mod 36``),
    each through an order of the 36 outcomes shuffled by the seed."""
    order = list(_OUTCOMES)
    random.Random(f"{seed}:strata:1").shuffle(order)
    out = [order[i % 36]]
    if games >= 1296:
        order2 = list(_OUTCOMES)
        random.Random(f"{seed}:strata:2").shuffle(order2)
        out.append(order2[(i // 36) % 36])
    return tuple(out)


def _values_of(evaluator: Any, state: TurnState, player: Player) -> tuple[float, float]:
    """(winning chance, cubeless equity) of ``player`` at a truncated game's state."""
    pos = state.position
    if hasattr(evaluator, "evaluate_position"):  # a net
        from .nets import equity, flip

        v = evaluator.evaluate_position(pos)
        if pos.turn != player:
            v = flip(v)
        return float(v[0]), float(equity(v))
    w = float(evaluator.value(pos))  # a solved table: the side to roll's chance
    if pos.turn != player:
        w = 1.0 - w
    return w, 2.0 * w - 1.0


Job = tuple[TurnState, Bot, Bot, Player, int, int, int, bool, int | None, Any, int, Any]

#: The 21 rolls as (low die, high die), and how often each comes in 36.
_ROLLS21: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
_WEIGHTS21: tuple[float, ...] = tuple((1.0 if a == b else 2.0) / 36.0 for a, b in _ROLLS21)


class Luck:
    """The luck of the rolls of a game for ``player``, as an evaluator measures it, summed.

    The luck of a roll is the value (a row of the evaluator's outputs, for ``player``) of the best
    play with the dice rolled, less the average of that over the 21 rolls, each as often as it comes
    in 36: the search's :meth:`~backgammon_lab.analysis.search.Evaluator.dice_value` at 0-ply. Its
    expectation over the dice is exactly zero whatever the evaluator, so a game's result less the
    luck of its rolls has the same expectation and, with a good evaluator, much less spread: GNU
    Backgammon's variance reduction. Made with a net or a solved table (a search ``Evaluator`` is
    built from it once per process).
    """

    def __init__(self, evaluator: Any, player: Player) -> None:
        import numpy as np

        self.evaluator = _search_evaluator(evaluator)
        self.player = player
        self.total: Any = np.zeros(len(self.evaluator.outputs))

    def roll(self, state: TurnState, dice: tuple[int, int]) -> None:
        """Add the luck of ``dice`` rolled at ``state`` (a side about to roll)."""
        import numpy as np

        from .nets import flip

        pos = state.position
        rows = [self.evaluator.dice_value(pos, k, 0) for k in _ROLLS21]
        if pos.turn != self.player:
            rows = [flip(r) for r in rows]
        got = rows[_ROLLS21.index((min(dice), max(dice)))]
        self.total = self.total + (got - np.asarray(_WEIGHTS21) @ np.asarray(rows))

    @property
    def win(self) -> float:
        """The luck in winning chance."""
        return float(self.total[0])

    @property
    def equity(self) -> float:
        """The luck in cubeless equity (points per game)."""
        return _equity_difference(self.total)


def _search_evaluator(evaluator: Any) -> Any:
    """A search :class:`~backgammon_lab.analysis.search.Evaluator` of a net or a solved table (an
    Evaluator itself as it is), built once and shared by the games' :class:`Luck` tallies."""
    from .search import Evaluator

    if hasattr(evaluator, "dice_value"):
        return evaluator
    return Evaluator(table=evaluator) if hasattr(evaluator, "value_board_after") else Evaluator(evaluator)


def _engine_game(template: TurnState, bot: Bot, opp_bot: Bot, player: Player, seed: int, i: int, stratify: bool,
                 truncate: int | None, games: int, luck: Luck | None = None) -> TurnState:
    """Game ``i`` of a rollout on the engine, played to its end (or truncation): its dice, its bots'
    seeds and its stratified first rolls as the rollout seeded ``seed`` gives them. ``luck`` adds up
    the luck of its rolls."""
    bots = {player: bot.seeded(hash_seed(seed, i, 1)), other(player): opp_bot.seeded(hash_seed(seed, i, 2))}
    first = first_rolls(seed, i, games) if stratify else ()
    return play_out(template, bots, _game_rng(seed, i), first=first, turns=truncate,
                    on_roll=None if luck is None else luck.roll)


def _run_games(args: Job) -> list[tuple[float, float, int]]:
    """(win, points, outcome) of ``player`` for games ``lo..hi-1``; ``outcome`` is the points won
    (negative when lost) of a finished game, 0 for a truncated one. Games of the net's 0-ply
    :class:`~backgammon_lab.analysis.netbot.NetBot` run in the compiled kernel (:func:`_kernel_games`)."""
    template, bot, opp_bot, player, seed, lo, hi, stratify, truncate, evaluator, games, luck_by = args
    fast = _kernel_games(args)
    if fast is not None:
        return fast
    out = []
    by = None if luck_by is None else _search_evaluator(luck_by)  # one search evaluator for the games
    for i in range(lo, hi):
        luck = None if by is None else Luck(by, player)
        end = _engine_game(template, bot, opp_bot, player, seed, i, stratify, truncate, games, luck)
        if end.phase is Phase.OVER:
            pts = end.points if end.winner == player else -end.points
            w, e = (1.0 if pts > 0 else 0.0), float(pts)
        else:
            w, e = _values_of(evaluator, end, player)
            pts = 0
        if luck is not None:
            w, e = w - luck.win, e - luck.equity
        out.append((w, e, pts))
    return out


#: Rollouts with the net's 0-ply NetBot on both sides run whole games in the compiled selfplay
#: kernel (the same games as the engine path; False forces the engine path, for comparisons).
KERNEL_ROLLOUTS = True

_PHASE_CODES = {Phase.ROLL: 0, Phase.PLAY: 1, Phase.NAME: 2, Phase.CHOICE: 3, Phase.OPENING: 4}


def _net_bot(bot: Any) -> bool:
    """True for a :class:`~backgammon_lab.analysis.netbot.NetBot` itself (not a subclass, whose
    decisions may differ); netbot imports this module, so the class is known by its name."""
    t = type(bot)
    return t.__module__ == "backgammon_lab.analysis.netbot" and t.__qualname__ == "NetBot"


_MEMOS: dict[tuple[Any, ...], Any] = {}


def _opening_memo(variant: Any, board: Any, off: int, bot: Any, weights: tuple[Any, ...]) -> Any:
    """The kernel's table of keep/re-roll decisions at the start's opening choice (rollout_games'
    memo), shared by every chunk of games from the same start with the same net and settings in
    this process: the key holds a digest of the weights, so a net trained in between gets a fresh
    table. At most 16 tables are kept."""
    import hashlib

    import numpy as np

    h = hashlib.sha1()
    for w in weights:
        h.update(np.ascontiguousarray(w).tobytes())
    key = (variant, board.tobytes(), off, bool(bot.lookahead), bot.shortlist or 0, h.hexdigest())
    memo = _MEMOS.get(key)
    if memo is None:
        if len(_MEMOS) >= 16:
            _MEMOS.pop(next(iter(_MEMOS)))
        memo = _MEMOS[key] = np.full((2, 7, 7), -1, np.int64)
    return memo


def _kernel_games(args: Job) -> list[tuple[float, float, int]] | None:
    """:func:`_run_games` in the compiled kernel (``rollout_games`` of
    :mod:`backgammon_lab.analysis.selfplay_template`): the same dice (each game's
    ``random.Random`` state handed over), the same decisions as :class:`NetBot` at 0-ply (the
    analysis search, and the exact bear-off values in a race; the net's race and crashed nets
    where the search takes them, :meth:`~backgammon_lab.analysis.nets.Net.with_race`,
    :meth:`~backgammon_lab.analysis.nets.Net.with_crashed`), hence the same results; or None
    when the rollout is not one it plays (another bot, a deeper ply, different bots on the two
    sides, truncated games valued by another evaluator than the bot's net, or numba missing or
    disabled)."""
    template, a_bot, b_bot, player, seed, lo, hi, stratify, truncate, evaluator, games, luck_by = args
    bot: Any = a_bot  # a NetBot, once checked
    opp_bot: Any = b_bot
    if not KERNEL_ROLLOUTS or not _net_bot(bot) or bot.options.ply != 0:
        return None
    if truncate is not None and evaluator is not bot.net_for(template.variant):
        return None
    if luck_by is not None and not _kernel_luck(bot, luck_by, template):
        return None
    if opp_bot is not bot and (not _net_bot(opp_bot) or opp_bot.options.ply != 0 or opp_bot.net is not bot.net
                               or opp_bot.lookahead != bot.lookahead or opp_bot.shortlist != bot.shortlist):
        return None
    from ..kernels import compiled

    if not compiled() or template.phase not in _PHASE_CODES:
        return None
    if template.phase is Phase.OPENING and template.position.turn != "white":
        return None
    out, vals, who, mover, lucks = _kernel_run(template, bot, seed, lo, hi, stratify, truncate, games,
                                               luck_by is not None)
    from .nets import equity, flip

    res: list[tuple[float, float, int]] = []
    for g, p in enumerate(out.tolist()):
        if p:
            p = p if mover == player else -p
            w, e = (1.0 if p > 0 else 0.0), float(p)
        else:  # truncated: valued as _values_of values it, for the side to roll there
            row = vals[g] if (mover == player) == (who[g] == 0) else flip(vals[g])
            w, e = float(row[0]), float(equity(row))
        if luck_by is not None:  # the kernel's luck is the mover's; Luck's, player's
            d = lucks[g] if mover == player else _other_side(lucks[g])
            w, e = w - float(d[0]), e - _equity_difference(d)
        res.append((w, e, p))
    return res


def _other_side(d: Any) -> Any:
    """A difference of two rows of values (a luck) in the other side's eye: flip's linear part."""
    from .nets import flip

    return flip(d) - flip(0.0 * d)


def _equity_difference(d: Any) -> float:
    """The cubeless equity of a difference of two rows of values (equity's constant cancels)."""
    from .nets import equity

    return float(equity(d)) + 1.0


def _kernel_luck(bot: Any, luck_by: Any, template: TurnState) -> bool:
    """True when the kernel measures the luck as :class:`Luck` does: by the bot's own net, with the
    search's default Mexican look-up (the Luck's evaluator's)."""
    from .search import SHORTLIST

    return luck_by is bot.net_for(template.variant) and bool(bot.lookahead) and bot.shortlist == SHORTLIST


def _class_nets(net: Any) -> tuple[int, Any, Any]:
    """``(classes, crashed, race)``: the class nets the kernel of ``net`` plays by, as
    ``rollout_games`` takes them (``classes`` bit 1 a crashed net, bit 2 a race net; the net
    itself in the place of one it lacks). Class nets share the net's encoding, and the kernel
    reads each net's size from its weights, so it runs every class net."""
    classes = 0
    nets = []
    for bit, sub in ((1, net.crashed), (2, net.race)):
        if sub is None:
            nets.append(net)
            continue
        classes |= bit
        nets.append(sub)
    return classes, nets[0], nets[1]


def _kernel_run(template: TurnState, bot: Any, seed: int, lo: int, hi: int, stratify: bool, truncate: int | None,
                games: int, luck: bool = False) -> tuple[Any, Any, Any, Player, Any]:
    """Games ``lo..hi-1`` of a rollout of ``bot`` (a NetBot at 0-ply on both sides) in the kernel:
    ``(out, vals, who, mover, lucks)`` as ``rollout_games`` leaves them (points won by ``mover``,
    the side to act at the start; the truncated games' value rows and whose they are; with
    ``luck``, each game's luck for ``mover`` by the bot's net, as :class:`Luck` sums it)."""
    import numpy as np

    from . import bearoff
    from .search import _buffers
    from .selfplay import kernel

    v = template.variant
    net = bot.net_for(v)
    ph = template.phase
    pos = template.turn_start if ph is Phase.PLAY else template.position
    mover = "white" if ph is Phase.OPENING else template.player
    roll = template.roll
    k = kernel(v, net.encoding)
    ws, sc, nout = _buffers(net)
    weights = net.search_weights()
    classes, cnet, rnet = _class_nets(net)
    cw, rw = cnet.search_weights(), rnet.search_weights()
    dbt = bearoff.kernel_database(v)
    mts = np.array([_game_rng(seed, i).getstate()[1] for i in range(lo, hi)], dtype=np.int64)
    firsts = [first_rolls(seed, i, games) if stratify else () for i in range(lo, hi)]
    nforced = len(firsts[0]) if firsts else 0
    forced = np.zeros((hi - lo, max(nforced, 1), 2), np.int64)
    for g, f in enumerate(firsts):
        for j, (d1, d2) in enumerate(f):
            forced[g, j] = (d1, d2)
    out = np.zeros(hi - lo, np.int64)
    vals = np.zeros((hi - lo, nout))
    lucks = np.zeros((hi - lo, nout))
    who = np.zeros(hi - lo, np.int64)
    board = np.array(pos.board(), np.int8)
    off = int(pos.off[1 if pos.turn == "white" else 0])
    memo = _opening_memo(v, board, off, bot, (*weights, *cw, *rw))
    fresh = ph is Phase.ROLL and not template.reroll  # the first roll begins a turn (play_out's count)
    k.rollout_games(board, off, _PHASE_CODES[ph], roll.first if roll is not None else 0,
                    roll.second if roll is not None else 0, bool(template.named), fresh, mts, forced, nforced,
                    bot.lookahead, bot.shortlist or 0, weights, ws, sc, nout, dbt, memo, truncate or 0, out, vals, who,
                    luck, lucks, classes, cw, _buffers(cnet)[1], rw, _buffers(rnet)[1])
    return out, vals, who, mover, lucks


def rollout_rows(positions: Sequence[Position], bot: Bot, *, games: int = 36, truncate: int | None = None,
                 seed: int = 0, luck: bool = False) -> Any:
    """What rollouts by ``bot``, a :class:`~backgammon_lab.analysis.netbot.NetBot` on both sides,
    measure of each position before a roll, as rows of its net's outputs: the mean over ``games``
    games of the outcome row of the side to roll (win, and with five outputs win gammon, win
    backgammon, lose gammon, lose backgammon); a game stopped after ``truncate`` turns counts the
    net's values there. First rolls stratified (every 36 games see each roll once), the games of
    position ``j`` seeded ``hash_seed(seed, j, 3)``: :func:`rollout` with those options plays the
    same games. An ``(n, outputs)`` array; supervised targets (:mod:`backgammon_lab.analysis.refine`).
    A bot at 0-ply plays in the compiled kernel, a deeper one (a stronger policy to learn from) on
    the engine. ``luck``: each game's row less the luck of its rolls by the bot's net
    (:class:`Luck`; several times less noise, the same expectation).

    >>> from backgammon_lab.analysis.nets import shipped_net
    >>> from backgammon_lab.analysis.netbot import NetBot
    >>> bot = NetBot(shipped_net("minigam"))
    >>> rows = rollout_rows(sample_positions("minigam", 2, seed=1), bot, games=36, truncate=2)
    >>> rows.shape, bool(((rows >= 0) & (rows <= 1)).all())
    ((2, 1), True)
    """
    import numpy as np

    from ..kernels import compiled
    from .nets import flip

    try:
        games = whole_number(games, "games", 1, error=RolloutError)
        if truncate is not None:
            truncate = whole_number(truncate, "truncate", 1, error=RolloutError)
    except RolloutError as e:
        raise RolloutError(f"rollout_rows: {e}") from None
    if not _net_bot(bot):
        raise RolloutError(f"rollout_rows rolls out with a NetBot, not {bot!r}")
    nb: Any = bot
    fast = KERNEL_ROLLOUTS and nb.options.ply == 0 and compiled()
    rows = []
    for j, pos in enumerate(positions):
        if pos.is_over:
            raise RolloutError(f"rollout_rows values positions before a roll, not a finished game: {pos}")
        net = nb.net_for(pos.variant)
        template = position_state(pos)
        s = hash_seed(seed, j, 3)
        acc = np.zeros(len(net.outputs))
        if fast and (not luck or _kernel_luck(nb, net, template)):
            out, vals, who, _mover, lucks = _kernel_run(template, bot, s, 0, games, True, truncate, games, luck)
            ends = [(p, vals[g] if who[g] == 0 else flip(vals[g])) for g, p in enumerate(out.tolist())]
            acc -= lucks.sum(0)
        else:
            by = _search_evaluator(net) if luck else None
            ends = []
            for i in range(games):
                tally = None if by is None else Luck(by, pos.turn)
                end = _engine_game(template, bot, bot, pos.turn, s, i, True, truncate, games, tally)
                if end.phase is Phase.OVER:
                    ends.append((end.points if end.winner == pos.turn else -end.points, None))
                else:
                    v = net.evaluate_position(end.position)
                    ends.append((0, v if end.position.turn == pos.turn else flip(v)))
                if tally is not None:
                    acc -= tally.total
        for p, v in ends:
            if p:
                acc[0] += p > 0
                if len(acc) == 5:
                    acc[1:] += (p >= 2, p >= 3, p <= -2, p <= -3)
            else:
                acc += v
        rows.append(acc / games)
    if not rows:
        net = getattr(bot, "net", None)
        return np.zeros((0, len(net.outputs) if net is not None else 1))
    return np.array(rows)


def hash_seed(seed: int, i: int, k: int) -> int:
    """A deterministic 63-bit seed for game ``i`` and stream ``k`` of a rollout seeded ``seed``."""
    return random.Random(f"{seed}:{i}:{k}").getrandbits(63)


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for lo in range(0, games, size):
        yield lo, min(games, lo + size)


def _default_evaluator(bot: Bot, state: TurnState) -> Any:
    net_for = getattr(bot, "net_for", None)
    if net_for is not None:
        return net_for(state.variant)
    from .nets import shipped_net

    net = shipped_net(state.variant)
    if net is None:
        raise RolloutError(f"truncate needs an evaluator for {state.variant!r}: give the options one "
                           "(Options(evaluator=net), a net or a solved table) or roll out with a NetBot")
    return net


def _truncation_evaluator(choice: Any, bot: Bot, state: TurnState) -> Any:
    """What values a truncated game: the options' ``evaluator`` as a net or a solved table (the
    bot's net, else the shipped net, when it names none)."""
    if choice is None:
        return _default_evaluator(bot, state)
    from .search import evaluator_for

    ev = evaluator_for(state.position, choice)
    return ev.net if ev.net is not None else ev.table


def rollout(start: Position | Game | TurnState, options: Options | None = None, *, opponent: Bot | None = None,
            player: Player | None = None, stratify: bool = False, chunk: int | None = None) -> RolloutResult:
    """Play ``start`` out and return the winning chance of the side to act.

    ``start`` is a Position (its ``turn`` rolls next), a Game or an engine state at any point; a
    game still at the opening is rolled out for White. ``player`` chooses the side the result is
    for instead. ``options`` (an :class:`~backgammon_lab.analysis.options.Options`; None: the
    defaults) give the ``games`` (default 1,000), the ``seed`` that makes the rollout repeatable,
    the ``bot`` that plays that side and the other (default :class:`HeuristicBot`) unless
    ``opponent`` plays the other one, the ``executor`` (any :class:`concurrent.futures.Executor`)
    or ``workers`` (a process pool made for the call) that spread the games, with the same numbers,
    and ``progress`` (a tqdm bar: ``tqdm.auto``, a widget in notebooks, text in terminals).
    ``chunk``: games a job (default: about 8 jobs a worker, at most 100 games each).

    Variance reduction (module docstring): ``stratify`` the first rolls over the 36 (from 1,296
    games, 1,296) outcomes; the options' ``truncate`` stops each game after that many turns, valued
    by their ``evaluator``; their ``luck`` takes each roll's luck, as that evaluator measures it,
    off each game's result (:class:`Luck`; in the kernel too when the bot's net measures it).
    """
    options = as_options(options)
    games = options.games if options.games is not None else DEFAULT_GAMES
    seed, workers, executor, truncate = options.seed, options.workers, options.executor, options.truncate
    luck = options.luck
    if chunk is not None:
        try:
            chunk = whole_number(chunk, "chunk", 1, error=RolloutError)
        except RolloutError:
            raise RolloutError(f"chunk is a whole number of games, at least 1, not {chunk!r}") from None
    template, first = _template(start)
    player = first if player is None else player
    bot = options.bot if options.bot is not None else HeuristicBot()
    opp_bot = opponent if opponent is not None else bot
    # what values truncated games also measures the luck
    evaluator = _truncation_evaluator(options.evaluator, bot, template) if truncate is not None or luck else None
    spread = executor is not None or workers > 1
    size = chunk or max(1, min(100, games // (8 * (workers if executor is None else 2)) or 1))
    luck_by = evaluator if luck else None
    jobs: list[Job] = [(template, bot, opp_bot, player, seed, lo, hi, bool(stratify), truncate, evaluator, games,
                        luck_by)
                       for lo, hi in _chunks(games, size)]
    from tqdm.auto import tqdm

    bar = tqdm(total=games, desc="rollout", unit="game", disable=not options.progress, leave=False)
    results: list[tuple[float, float, int]] = []
    try:
        if not spread or len(jobs) == 1:
            for job in jobs:
                part = _run_games(job)
                results.extend(part)
                bar.update(len(part))
        elif executor is not None:  # a caller's executor keeps every job in flight, as its map would
            for part in ordered_results(executor, _run_games, jobs, len(jobs)):
                results.extend(part)
                bar.update(len(part))
        else:
            pool = process_pool(workers)
            done = False
            try:
                for part in ordered_results(pool, _run_games, jobs, 2 * workers):
                    results.extend(part)
                    bar.update(len(part))
                done = True
            finally:
                close_pool(pool, finished=done)
    finally:
        bar.close()
    return _summarise(results, player, seed, bot, bool(stratify), truncate, bool(luck))


def _submit(pool: Executor, fn: Any, job: Any) -> Future[Any]:
    """``pool.submit(fn, job)`` with Ctrl-C and SIGTERM held back until it returns: raised inside
    the pool's own bookkeeping (its locks, its wake-up pipe, a worker being started and not yet
    recorded), they could leave the pool unable to shut down, or a worker it never learnt of
    running on. A signal that comes meanwhile is noted and raised again once the submit is done,
    to the handler the program had. (Blocking the signals in this thread would not do: another
    thread of the process can take the signal, and Python then runs the handler in this one at
    once.) Only the main thread can change handlers; elsewhere the submit is plain."""
    if threading.current_thread() is not threading.main_thread():
        return pool.submit(fn, job)
    caught: list[int] = []

    def note(signum: int, frame: Any) -> None:
        caught.append(signum)

    old: dict[int, Any] = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is not None:  # None: a handler not set from Python, left alone
            old[sig] = signal.signal(sig, note)
    try:
        return pool.submit(fn, job)
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)
        if caught:
            signal.raise_signal(caught[0])


def ordered_results(pool: Executor, fn: Any, jobs: Sequence[Any], window: int) -> Iterator[Any]:
    """``fn(job)`` for each of ``jobs`` in ``pool``, in order (as ``pool.map``), with at most
    ``window`` jobs submitted and not yet collected: a pool of our own (two jobs a worker) never
    holds the whole run's jobs, so the program waits for results (where a signal is safe) rather
    than submitting them, and a stopped run leaves little to cancel. Signals are held back while a
    job is submitted (:func:`_submit`)."""
    it = iter(jobs)
    pending: deque[Future[Any]] = deque(_submit(pool, fn, job) for job in islice(it, max(1, window)))
    while pending:
        part = pending.popleft().result()
        for job in islice(it, 1):
            pending.append(_submit(pool, fn, job))
        yield part


def close_pool(pool: ProcessPoolExecutor, *, finished: bool) -> None:
    """Shut a process pool down on every exit path: after its work is ``finished``, waiting for it;
    otherwise (an error, Ctrl-C, SIGTERM turned into an exception) at once, cancelling the work not
    started and ending the worker processes, so that none is left running the rest of a rollout."""
    if finished:
        pool.shutdown(wait=True)
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())  # before shutdown forgets them
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=5)
    # the pool's own thread sees its workers gone and ends; waited for, it is not woken at exit
    # through a pipe it has closed already (a message of the interpreter's, "Bad file descriptor")
    if manager is not None:
        manager.join(timeout=5)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes for the package's parallel work (a rollout's games, game
    analysis, the rollouts of a hint), made in a process context that does not fork this (maybe
    threaded) process: a fork server that has already imported this module where there is one
    (POSIX), else spawn.

    The fork server (which imports the package, about half a second) is started here rather than
    inside the first submit, where Ctrl-C and SIGTERM wait until the submit is done
    (:func:`_submit`): so a stopped run stops at once."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        from multiprocessing import forkserver

        ctx: Any = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["backgammon_lab.analysis.rollout"])
        forkserver.ensure_running()
    else:
        ctx = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(workers, mp_context=ctx)


def stratified_stderr(values: Sequence[float], strata: int = 36) -> float:
    """The standard error of the mean of ``values`` when value ``i`` belongs to stratum
    ``i mod strata`` (equal-probability strata, as many games in each as the count allows): the
    pooled spread within the strata over ``sqrt(n)``. With too few games for a spread within
    strata (``n <= strata``) it is the plain ``sd / sqrt(n)``."""
    n = len(values)
    if n < 2:
        return 0.0
    if n <= strata:
        mean = sum(values) / n
        return math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1) / n)
    groups: dict[int, list[float]] = {}
    for i, x in enumerate(values):
        groups.setdefault(i % strata, []).append(x)
    ss = 0.0
    for g in groups.values():
        m = sum(g) / len(g)
        ss += sum((x - m) ** 2 for x in g)
    dof = n - len(groups)
    return math.sqrt(ss / dof / n) if dof > 0 else 0.0


def _summarise(results: Sequence[tuple[float, float, int]], player: Player, seed: int, bot: Bot,
               stratify: bool, truncate: int | None, luck: bool = False) -> RolloutResult:
    n = len(results)
    wins = sum(1 for _, _, o in results if o > 0)
    wvals = [w for w, _, _ in results]
    pvals = [p for _, p, _ in results]
    win = sum(wvals) / n
    mean = sum(pvals) / n
    outcomes: dict[int, int] = {}
    truncated = 0
    for _, _, o in results:
        if o == 0:
            truncated += 1
        else:
            outcomes[o] = outcomes.get(o, 0) + 1
    name = getattr(bot, "name", type(bot).__name__)
    plain = math.sqrt(max(win * (1 - win), 0.0) / n)
    if stratify:
        stderr, pstderr = stratified_stderr(wvals), stratified_stderr(pvals)
    elif truncate is not None or luck:
        stderr, pstderr = stratified_stderr(wvals, 1), stratified_stderr(pvals, 1)
    else:
        var = sum((x - mean) ** 2 for x in pvals) / (n - 1) if n > 1 else 0.0
        stderr, pstderr = plain, math.sqrt(var / n)
    return RolloutResult(player, n, wins, win, stderr, mean, pstderr, seed, name, dict(sorted(outcomes.items())),
                         stratify, truncate, truncated, plain, tuple((w, p) for w, p, _ in results), luck)
