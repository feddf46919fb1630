"""Exact one-sided bear-off databases: how many turns a side needs to bear off from its home board.

What it holds
    For every way to place at most ``checkers`` checkers on the home board's ``home`` points (the
    variant's stacking cap respected: at most 5 a point in Mexican), the exact probability
    distribution of the number of turns the side needs to bear off all its checkers, playing each
    roll to make that number smallest on average. Standard has 54,264 such configurations
    (15 checkers on 6 points), Mexican 25,494 (at most five a point). For configurations with no checker
    off yet it also holds the distribution of the turns until the first checker is off (played to
    make that smallest), which decides gammons.

Why it is exact
    Once the two sides have no contact, neither side's plays change what the other can do, so each
    side's race is a one-person game of chance that the database solves by dynamic programming over
    the configurations (every play lowers the pip count, so the successors of a configuration are
    solved before it). The legal plays are the engine's own: the compiled whole-turn search
    (:func:`backgammon_lab.kernels.movegen`) on the variant's rule table, so standard's bear-off
    with a larger die from the highest point, Mexican's exact bear-off, the lower die first and the
    cap all come from the one rule table. What follows a play (a doubles chain, naming doubles
    after a Mexican, the end of the turn) is :meth:`Variant.after_play`'s answer, so a Mexican
    turn's chain counts as one turn.

    The winning chance of a race between two such sides, the mover on roll, is
    ``sum_t P_mover(t) * P_opponent(needs >= t turns)``; the gammon chances combine one side's turns
    to finish with the other's turns to its first checker off. Each side's policy minimises its own
    expected turns (as GNU Backgammon's one-sided database does), so the race values are exact for
    those policies and a close bound on perfect play.

Use
    :func:`get_database` builds a variant's database on first use (seconds) and keeps it in
    the cache directory; :func:`race_values` returns the values of a :class:`Position` in the nets'
    output order (:data:`~backgammon_lab.analysis.nets.OUTPUTS_5` or ``OUTPUTS_1``), or ``None``
    when the position is not a pure bear-off race.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from backgammon_lab.errors import AnalysisError, whole_number
from backgammon_lab.kernels import move_kernel
from backgammon_lab.position import Position
from backgammon_lab.variants import Variant, find_variant

__all__ = ["BearoffDatabase", "BearoffError", "build_database", "default_database_path", "get_database",
           "has_database", "kernel_database", "race_values"]

FORMAT_VERSION = 1
#: The most turns a distribution may need while building (exact bear-off has long tails: a last
#: checker on point 1 waits for a 1); the stored arrays are cut after the last turn with any chance.
MAX_TURNS = 400
_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
_PROB = np.array([1 / 36 if a == b else 2 / 36 for a, b in _ROLLS])


class BearoffError(AnalysisError):
    """A bear-off database cannot be built, read or used as asked."""


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "backgammon_lab"


def default_database_path(variant: str | Variant) -> Path:
    """Where :func:`get_database` keeps the database of ``variant``."""
    v = find_variant(variant)
    return _cache_dir() / f"bearoff-{v.name}.npz"


def _configs(checkers: int, points: int, cap: int | None) -> np.ndarray:
    """All placements of at most ``checkers`` checkers on ``points`` points (at most ``cap`` a
    point), sorted by pip count, then lexicographically."""
    top = checkers if cap is None else min(cap, checkers)

    def place(left: int, k: int) -> list[tuple[int, ...]]:
        if k == 0:
            return [()]
        return [(x, *rest) for x in range(min(top, left) + 1) for rest in place(left - x, k - 1)]

    rows = place(checkers, points)
    rows.sort(key=lambda c: (sum((i + 1) * x for i, x in enumerate(c)), c))
    return np.array(rows, dtype=np.int8)


@dataclass(frozen=True)
class BearoffDatabase:
    """One variant's one-sided bear-off database (see the module docstring).

    ``configs[i]`` is a placement (checkers on points 1..home in the side's own numbering);
    ``turns[i, t]`` the chance that the side needs exactly ``t`` turns to bear off every checker;
    ``first_off[i, t]`` (gammon variants, configurations with every checker on the board; zeros
    elsewhere) the chance that its first checker comes off in turn ``t``.
    """

    variant: str
    checkers: int
    home: int
    configs: np.ndarray
    turns: np.ndarray
    first_off: np.ndarray

    def __post_init__(self) -> None:
        keys = self._keys(self.configs)
        order = np.argsort(keys, kind="stable")
        object.__setattr__(self, "_sorted_keys", keys[order])
        object.__setattr__(self, "_order", order)

    def __repr__(self) -> str:
        return f"BearoffDatabase({self.variant!r}, {len(self.configs):,} positions)"

    def __len__(self) -> int:
        return len(self.configs)

    def _keys(self, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.home)
        return rows @ (16 ** np.arange(self.home, dtype=np.int64))

    def index(self, config: Any) -> int:
        """The row of a placement (a sequence of ``home`` counts, point 1 first)."""
        row = np.asarray(config, dtype=np.int64)
        if row.shape != (self.home,) or (row < 0).any() or row.sum() > self.checkers:
            raise BearoffError(f"{list(np.asarray(config).tolist())!r} is not a placement of at most "
                               f"{self.checkers} checkers on {self.home} points")
        key = self._keys(row)[0]
        sk: np.ndarray = self._sorted_keys  # type: ignore[attr-defined]
        j = int(np.searchsorted(sk, key))
        if j >= len(sk) or sk[j] != key:
            raise BearoffError(f"{row.tolist()!r} is not in the {self.variant} database (the cap?)")
        return int(self._order[j])  # type: ignore[attr-defined]

    def mean_turns(self, config: Any) -> float:
        """The expected number of turns the side needs to bear off every checker of ``config``."""
        d = self.turns[self.index(config)]
        return float(d @ np.arange(len(d)))

    def race(self, mover: Any, opponent: Any) -> np.ndarray:
        """Values for the side on roll with ``mover`` against ``opponent`` (both placements in their
        own numbering): ``[win, win_gammon, win_backgammon, lose_gammon, lose_backgammon]`` when
        the variant has gammons, else ``[win]``."""
        i, j = self.index(mover), self.index(opponent)
        p, q = self.turns[i], self.turns[j]
        q_ge = np.maximum(1.0 - np.concatenate(([0.0], np.cumsum(q)[:-1])), 0.0)  # opponent needs >= t turns
        win = float(p @ q_ge)
        if not find_variant(self.variant).gammons:
            return np.array([win])
        wg = lg = 0.0
        if int(np.sum(self.configs[j])) == self.checkers:  # the opponent has no checker off yet
            f = self.first_off[j]
            f_ge = np.maximum(1.0 - np.concatenate(([0.0], np.cumsum(f)[:-1])), 0.0)
            wg = float(p @ f_ge)
        if int(np.sum(self.configs[i])) == self.checkers:
            f = self.first_off[i]
            f_gt = np.maximum(1.0 - np.cumsum(f), 0.0)  # the mover has none off after t turns
            lg = float(q @ f_gt)
        return np.clip(np.array([win, wg, 0.0, lg, 0.0]), 0.0, 1.0)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the database to a ``.npz`` file."""
        np.savez_compressed(path, format=np.array(FORMAT_VERSION), variant=np.array(self.variant),
                            checkers=np.array(self.checkers), home=np.array(self.home),
                            configs=self.configs, turns=self.turns, first_off=self.first_off)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BearoffDatabase:
        """Read a database written by :meth:`save`."""
        try:
            with np.load(path) as z:
                if int(z["format"]) != FORMAT_VERSION:
                    raise BearoffError(f"{str(path)!r} has format {int(z['format'])}, not {FORMAT_VERSION}")
                return cls(str(z["variant"]), int(z["checkers"]), int(z["home"]), z["configs"],
                           z["turns"], z["first_off"])
        except (OSError, KeyError, ValueError, zipfile.BadZipFile) as e:
            if isinstance(e, BearoffError):
                raise
            raise BearoffError(f"{str(path)!r} is not a bear-off database: {e}") from None


def build_database(variant: str | Variant, *, checkers: int | None = None) -> BearoffDatabase:
    """Solve the one-sided bear-off database of ``variant`` (see the module docstring).

    ``checkers`` (default: the variant's count) builds a smaller one, for tests. Takes a few
    seconds once the kernel is compiled; :func:`get_database` keeps the result on disk.
    """
    v = find_variant(variant)
    n = v.checkers if checkers is None else whole_number(checkers, "checkers", 1, v.checkers, error=BearoffError)
    if not has_database(v):
        raise BearoffError(f"{v.name} has no room for a race between two home boards")
    home = v.home
    configs = _configs(n, home, v.stacking_cap)
    db0 = BearoffDatabase(v.name, n, home, configs, np.zeros((1, 1)), np.zeros((1, 1)))
    from .bearoff_kernels import solve
    from .selfplay import after_table

    mk = move_kernel(v)
    ws = mk.workspace()
    keys, order = db0._sorted_keys, db0._order  # type: ignore[attr-defined]
    args = (mk.rules, np.array(after_table(v), dtype=np.int64), configs, keys, order, n)
    turns = np.zeros((len(configs), MAX_TURNS))
    solve(*args, 0, MAX_TURNS, turns, np.zeros(len(configs)), np.zeros((len(configs), 3)), ws)
    first = np.zeros((len(configs), MAX_TURNS if v.gammons else 1))
    if v.gammons:
        solve(*args, 1, MAX_TURNS, first, np.zeros(len(configs)), np.zeros((len(configs), 3)), ws)
    tail = float(np.max(np.abs(1.0 - turns.sum(axis=1))))
    if tail > 1e-12:
        raise BearoffError(f"{v.name}: {tail:.3g} of a distribution is beyond {MAX_TURNS} turns")
    width = int(np.nonzero((turns > 1e-17).any(axis=0))[0][-1]) + 1
    if v.gammons:
        width = max(width, int(np.nonzero((first > 1e-17).any(axis=0))[0][-1]) + 1)
        first = first[:, :width].copy()
    return BearoffDatabase(v.name, n, home, configs, turns[:, :width].copy(), first)


_LOADED: dict[str, BearoffDatabase] = {}


def has_database(variant: Variant) -> bool:
    """Whether ``variant`` has a bear-off database: room for a race between two home boards (not
    Mini-Gam, whose exact table covers its races)."""
    return variant.points >= 2 * variant.home


def get_database(variant: str | Variant, *, build: bool = True) -> BearoffDatabase | None:
    """The bear-off database of ``variant``: from memory, else from :func:`default_database_path`,
    else built (and saved there) when ``build``; ``None`` when it is not there and not built."""
    v = find_variant(variant)
    db = _LOADED.get(v.name)
    if db is not None:
        return db
    path = default_database_path(v)
    if path.exists():
        try:
            db = BearoffDatabase.load(path)
        except BearoffError:
            db = None
    if db is None or db.checkers != v.checkers:
        if not build:
            return None
        db = build_database(v)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        db.save(tmp)
        os.replace(tmp, path)
    _LOADED[v.name] = db
    return db


def kernel_database(variant: str | Variant, *, exact: bool = True) -> tuple[np.ndarray, ...]:
    """The bear-off database of ``variant`` as the compiled kernels read it (``race_row`` in
    :mod:`~backgammon_lab.analysis.selfplay_template`): its sorted keys, their rows, the turns, the
    first checker off and the checkers on the board of each row. Without ``exact``, or for a variant
    with no database (Mini-Gam), one-row arrays of the same types that no kernel reads."""
    from .selfplay import no_database

    v = find_variant(variant)
    db = get_database(v) if exact and has_database(v) else None
    if db is None:
        return no_database()
    return (db._sorted_keys, db._order.astype(np.int64), db.turns, db.first_off,  # type: ignore[attr-defined]
            db.configs.sum(1).astype(np.int64))


def home_configs(position: Position) -> tuple[np.ndarray, np.ndarray] | None:
    """The two sides' home-board placements (mover first, each in its own numbering) when
    ``position`` is a pure bear-off race (every checker of both sides in its home board or off),
    else ``None``."""
    v = position.variant
    b = np.asarray(position.board(), dtype=np.int64)
    n, home = v.points, v.home
    pts = b[1:v.bar]
    if b[v.bar] or b[v.bar + 1]:  # a checker on either bar (Position.board ends with both)
        return None
    mine = np.where(pts > 0, pts, 0)
    theirs = np.where(pts < 0, -pts, 0)
    if mine[home:].any() or theirs[:n - home].any():
        return None
    return mine[:home].copy(), theirs[n - home:][::-1].copy()


def race_values(position: Position, db: BearoffDatabase | None = None) -> np.ndarray | None:
    """The exact race values of ``position`` for the side to move before it rolls, in the nets'
    output order, or ``None`` when the position is not a pure bear-off race (or the variant has
    no database: Mini-Gam is solved whole by :mod:`backgammon_lab.analysis.solve`)."""
    cfgs = home_configs(position)
    if cfgs is None or not has_database(position.variant):
        return None
    if db is None:
        db = get_database(position.variant)
    if db is None:
        return None
    if db.variant != position.variant.name or db.checkers != position.variant.checkers:
        raise BearoffError(f"{db!r} holds {db.checkers}-checker {db.variant} positions, not "
                           f"{position.variant.checkers}-checker {position.variant.name} ones")
    return db.race(*cfgs)


def _flip(row: np.ndarray) -> np.ndarray:
    return np.array([1.0 - row[0], row[3], row[4], row[1], row[2]]) if len(row) == 5 else 1.0 - row


def _over_row(state: Any, gammons: bool) -> np.ndarray:
    """The result of a finished game for its winner (no backgammon in a race: nothing is left in
    the winner's home board or on the bar)."""
    if not gammons:
        return np.array([1.0])
    return np.array([1.0, float(state.points >= 2), float(state.points >= 3), 0.0, 0.0])


def state_values(state: Any, db: BearoffDatabase | None = None) -> np.ndarray | None:
    """Exact values for the side to act at an engine :class:`~backgammon_lab.engine.TurnState` of
    a pure bear-off race, in the nets' output order, or ``None`` when it is not one.

    Before a roll they are :func:`race_values`; once rolled, the best play's (each play followed
    through the engine, so a Mexican doubles chain or naming after a Mexican is valued as the
    mover's own next decision, not the opponent's). Plays are ranked by equity (gammons count 2),
    or by winning chance in a variant without gammons.
    """
    from backgammon_lab.engine import MakePlay, NameDoubles, Phase, advance

    pos = state.position
    if home_configs(pos) is None or not has_database(pos.variant):
        return None
    if db is None:
        db = get_database(pos.variant)
        if db is None:
            return None
    gammons = bool(pos.variant.gammons)

    def score(row: np.ndarray) -> float:
        return float(2 * row[0] - 1 + row[1] - row[3]) if gammons else float(row[0])

    def value(s: Any) -> np.ndarray:
        ph = s.phase
        if ph is Phase.OVER:
            row = _over_row(s, gammons)
            return row if s.winner == s.player else _flip(row)
        if ph is Phase.ROLL:
            got = race_values(s.position, db)
            assert got is not None  # a race stays a race
            return got
        if ph is Phase.PLAY:
            actions: list[Any] = [MakePlay(p) for p in s.plays]
        elif ph is Phase.NAME:
            actions = [NameDoubles(k) for k in range(1, 7)]
        else:
            raise BearoffError(f"no race value in phase {ph!s}")
        best: np.ndarray | None = None
        for a in actions:
            nxt = advance(s, a)[0]
            row = value(nxt)
            if nxt.player != s.player:
                row = _flip(row)
            if best is None or score(row) > score(best) + 1e-15:
                best = row
        assert best is not None
        return best

    return value(state)


def play_values(state: Any, db: BearoffDatabase | None = None) -> np.ndarray | None:
    """Exact values for the mover of every play of a rolled race ``state`` (rows, in the order of
    ``state.plays``), or ``None`` when it is not a pure bear-off race."""
    from backgammon_lab.engine import MakePlay, advance

    if state.plays is None or home_configs(state.turn_start) is None:
        return None
    rows = []
    for p in state.plays:
        nxt = advance(state, MakePlay(p))[0]
        row = state_values(nxt, db)
        if row is None:
            return None
        rows.append(row if nxt.player == state.player else _flip(row))
    return np.array(rows)
