"""The options of a search: one frozen object for every analysis call, as python-chess's ``Limit``.

>>> from backgammon_lab.analysis.options import Options
>>> Options()
Options()
>>> Options(ply=0, games=200, seed=3)
Options(ply=0, games=200, seed=3)
>>> Options(ply=3)
Traceback (most recent call last):
  ...
backgammon_lab.errors.AnalysisError: ply: 3 is too large: at most 2

:func:`~backgammon_lab.analysis.hints.hint`, :func:`~backgammon_lab.analysis.hints.opening_hint`,
:func:`~backgammon_lab.analysis.hints.doubles_hint`, :func:`~backgammon_lab.analysis.rollout.rollout`,
the tutor (:func:`~backgammon_lab.analysis.tutor.judge`), game analysis
(:func:`~backgammon_lab.analysis.analyse.analyse`) and :class:`~backgammon_lab.analysis.netbot.NetBot`
take an :class:`Options` (None: the defaults). It is checked once, when it is made: a bad field
raises :class:`~backgammon_lab.errors.AnalysisError` quoting it. ``dataclasses.replace(options,
ply=0)`` gives a changed copy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ..errors import AnalysisError, whole_number
from .bots import Bot

__all__ = ["Options", "as_options", "FILTERS", "DEFAULT_PLY", "VARIANT_PLY", "check_ply"]

#: GNU Backgammon's "normal" move filter for a search two rolls deep (``MOVEFILTER_NORMAL``, its
#: second row): at most 8 plays within 0.16 equity of the best at 0-ply go deeper, and all of them
#: are valued at 2-ply (gnubg skips 1-ply there; here their 1-ply values are computed on the way
#: and only shown). Its 0.04 step belongs to a 3-ply search.
FILTERS: tuple[tuple[int, float], ...] = ((8, 0.16), (8, math.inf))

#: The look-ahead of a hint, the tutor and game analysis when the options give none: 2 rolls, with
#: GNU Backgammon's move filter (about 130-150 ms a standard play; docs/nets.md gives the
#: figures), except in the variants of :data:`VARIANT_PLY`. A :class:`NetBot
#: <backgammon_lab.analysis.netbot.NetBot>` plays at 0-ply unless its options say otherwise.
DEFAULT_PLY = 2

#: The default look-ahead where :data:`DEFAULT_PLY` costs too much: Mexican Backgammon's chains and
#: naming make 2-ply about 350 ms an ordinary play (gnubg's filter) and 4 s an opening choice, 1-ply
#: 30 and 160 ms.
VARIANT_PLY: dict[str, int] = {"mexican": 1}

#: The evaluator choices given by name.
_NAMED = ("exact", "net")


def _whole(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as a whole number (an ``int``, not text: options come from code) from ``lo`` to
    ``hi``, else :class:`~backgammon_lab.errors.AnalysisError` quoting it."""
    if isinstance(value, (str, bytes)):
        raise AnalysisError(f"{what}: expected a whole number (an int), not {value!r:.200}")
    return whole_number(value, what, lo, hi, error=AnalysisError)


_MAX_PLY: list[int] = []  # selfplay.MAX_PLY, read at the first check (it loads numpy)


def check_ply(ply: Any) -> int:
    """``ply`` when it is a look-ahead the search has (0 to
    :data:`~backgammon_lab.analysis.selfplay.MAX_PLY`), else
    :class:`~backgammon_lab.errors.AnalysisError` quoting it."""
    if not _MAX_PLY:
        from .selfplay import MAX_PLY  # the kernel's deepest level

        _MAX_PLY.append(MAX_PLY)
    if type(ply) is int and 0 <= ply <= _MAX_PLY[0]:  # the search's own calls: nothing to say
        return ply
    return _whole(ply, "ply", 0, _MAX_PLY[0])


def _filters(value: Any) -> tuple[tuple[int, float], ...]:
    """``value`` as move filters: pairs (at most this many plays, within this equity of the best)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise AnalysisError(f"filters: expected pairs (plays, equity) such as {FILTERS}, not {value!r:.200}")
    out = []
    for pair in value:
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise AnalysisError(f"filters: each filter is a pair (plays, equity), not {pair!r:.200}")
        count = _whole(pair[0], "filters: plays", 1)
        within = pair[1]
        if isinstance(within, bool) or not isinstance(within, (int, float)) or math.isnan(within) or within < 0:
            raise AnalysisError(f"filters: the equity of a filter is a number, at least 0 (math.inf: no limit), "
                                f"not {within!r:.200}")
        out.append((count, float(within)))
    return tuple(out)


@dataclass(frozen=True)
class Options:
    """How a search is made; every field has a default, so ``Options()`` is the usual hint.

    What values the positions:

    * ``evaluator``: ``None`` (the exact table for Mini-Gam when one is solved and at hand, boards
      of up to 4 checkers solved on the spot; else the variant's shipped net), ``"exact"`` (the
      solved table, or :class:`~backgammon_lab.errors.TableMissingError`), ``"net"`` (the shipped
      net, never the table), a :class:`~backgammon_lab.analysis.nets.Net`, a solved
      :class:`~backgammon_lab.analysis.solve.MiniGamTable`, or an
      :class:`~backgammon_lab.analysis.search.Evaluator` (reused across calls, with the weights it
      read). A rollout's truncated games are valued by it too (``None``: the bot's net, else the
      shipped net).

    How deep:

    * ``ply``: the net's look-ahead in rolls, 0 to 2; ``None`` (the default): :data:`DEFAULT_PLY`
      (2), or the variant's own in :data:`VARIANT_PLY` (Mexican: 1); see :meth:`ply_for`.
    * ``filters``: the move filter of each deeper ply, pairs (at most this many plays, within this
      equity of the best at the ply before; ``math.inf``: any equity); default GNU Backgammon's
      :data:`FILTERS`; ``()``: no filter, every play goes as deep as ``ply``. The first filter also
      chooses the plays a hint rolls out.

    Rollouts (off unless ``games`` is given):

    * ``games``: the games a hint rolls out for each candidate play (``None``: no rollout, the
      search's values), or the games of :func:`~backgammon_lab.analysis.rollout.rollout`
      (``None``: 1,000).
    * ``truncate``: stop each game after that many turns and count the evaluator's values there
      (``None``: play to the end). ``seed``: the dice (the same seed, the same games).
    * ``luck``: take each roll's luck, as the evaluator measures it at 0-ply, off each game's
      result (:class:`~backgammon_lab.analysis.rollout.Luck`): the same expectation, much less
      spread with a good net (GNU Backgammon's variance reduction), each game dearer.
    * ``bot``: who plays the games (``None``: the net's bot, :class:`NetBot
      <backgammon_lab.analysis.netbot.NetBot>`, in hints; :class:`HeuristicBot
      <backgammon_lab.analysis.bots.HeuristicBot>` in ``rollout()``).
    * ``workers``: processes for the games (or for game analysis's decisions), a pool made for the
      call; ``executor``: any :class:`concurrent.futures.Executor` to use instead (a Dask client's
      ``get_executor()`` for many machines). The numbers are the same however they are spread.
    * ``progress``: show a progress bar (``tqdm.auto``).
    """

    ply: int | None = None
    filters: tuple[tuple[int, float], ...] = FILTERS
    evaluator: Any = None
    games: int | None = None
    truncate: int | None = None
    luck: bool = False
    seed: int = 0
    bot: Bot | None = None
    workers: int = 1
    executor: Any = field(default=None, compare=False)
    progress: bool = False

    def __post_init__(self) -> None:
        put = object.__setattr__  # frozen: the checked values replace the given ones once, here
        if self.ply is not None:
            put(self, "ply", check_ply(self.ply))
        if self.filters is not FILTERS:  # the default is known good
            put(self, "filters", _filters(self.filters))
        self._check_evaluator(self.evaluator)
        if self.games is not None:
            put(self, "games", _whole(self.games, "games", 1))
        if self.truncate is not None:
            put(self, "truncate", _whole(self.truncate, "truncate", 1))
        if not isinstance(self.luck, bool):
            raise AnalysisError(f"luck: expected True or False, not {self.luck!r:.200}")
        put(self, "seed", _whole(self.seed, "seed"))
        if self.bot is not None and not isinstance(self.bot, Bot):
            raise AnalysisError(f"bot: expected a Bot (such as HeuristicBot() or NetBot()), not {self.bot!r:.200}")
        put(self, "workers", _whole(self.workers, "workers", 1))
        if self.executor is not None and not callable(getattr(self.executor, "map", None)):
            raise AnalysisError(f"executor: expected a concurrent.futures.Executor (with a map method), "
                                f"not {self.executor!r:.200}")
        if not isinstance(self.progress, bool):
            raise AnalysisError(f"progress: expected True or False, not {self.progress!r:.200}")

    @staticmethod
    def _check_evaluator(value: Any) -> None:
        if value is None:
            return
        if isinstance(value, str):
            if value not in _NAMED:
                raise AnalysisError(f"evaluator: expected 'exact', 'net', a Net, a solved table or an Evaluator, "
                                    f"not {value!r:.200}")
            return
        from .nets import Net  # numpy loads with the first search, not with this module
        from .solve import MiniGamTable

        # an analysis.search.Evaluator is known by its search (that module imports this one)
        if not isinstance(value, (Net, MiniGamTable)) and not callable(getattr(value, "rank_plays", None)):
            raise AnalysisError(f"evaluator: expected 'exact', 'net', a Net, a solved table or an Evaluator, "
                                f"not {value!r:.200}")

    def ply_for(self, variant: Any) -> int:
        """The look-ahead for a decision of ``variant`` (a :class:`~backgammon_lab.variants.Variant`):
        ``ply``, or the default for the variant when it is None."""
        if self.ply is not None:
            return self.ply
        return VARIANT_PLY.get(variant.name, DEFAULT_PLY)

    def __repr__(self) -> str:
        """Only the fields that differ from the defaults, in order (``Options()`` for none)."""
        changed = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not f.default and value != f.default:
                changed.append(f"{f.name}={value!r}")
        return f"Options({', '.join(changed)})"


_DEFAULT: list[Options] = []  # Options(), made once (checking it loads the search)


def as_options(options: Options | None) -> Options:
    """``options``, or the defaults (``Options()``) for None; anything else is refused quoting it."""
    if options is None:
        if not _DEFAULT:
            _DEFAULT.append(Options())
        return _DEFAULT[0]
    if not isinstance(options, Options):
        raise AnalysisError(f"options: expected an Options (backgammon_lab.analysis.options.Options), not {options!r:.200}")
    return options
