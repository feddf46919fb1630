"""Analysis: odds, bots, evaluation, hints, rollouts, game analysis and Mini-Gam solved exactly.

Built on the core (positions, rules, games) and never imported by it. The public API is here, the
way :mod:`chess.engine` gives its own: ``from backgammon_lab.analysis import hint, Options``. Each
name is imported from its module on first use, so importing this package costs nothing.

========================  ======================================================================
names                     module
========================  ======================================================================
``hint`` ``opening_hint`` ``doubles_hint`` ``Hint`` ``RankedPlay`` ``Decision`` ``DecisionHint``:
                          :mod:`.hints`, every legal play ranked, Mexican's decisions
``Options``               :mod:`.options`, how a search is made (ply, filters, rollouts)
``Evaluator``             :mod:`.search`, the one search under a hint
``RolloutResult``         :mod:`.rollout`, a position played out many times, seeded
``Analysis`` ``mark``     :mod:`.analyse`, every decision of a game or match marked
``judge`` ``Verdict``     :mod:`.tutor`, one decision judged as it is made
``Net`` ``load_net``      :mod:`.nets`, the neural evaluators and the shipped ones
``NetBot`` ``Bot`` ...    :mod:`.netbot`, :mod:`.bots`: players for games and rollouts
``get_table``             :mod:`.solve`, Mini-Gam solved exactly
``get_database``          :mod:`.bearoff`, the one-sided bear-off databases
``pip_counts`` ...        :mod:`.odds`, chances exact over the 36 rolls
``Trainer``               :mod:`.train`, self-play training
========================  ======================================================================

Three functions share their module's name, so they are imported from the module:
``from backgammon_lab.analysis.rollout import rollout`` (and ``.analyse.analyse``, ``.solve.solve``):
once a module of the package is imported, Python binds its name here to the module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Each public name and the module that defines it.
_WHERE = {
    **dict.fromkeys(("hint", "opening_hint", "doubles_hint", "Hint", "RankedPlay", "Decision", "DecisionHint"), "hints"),
    "Options": "options",
    "Evaluator": "search",
    **dict.fromkeys(("RolloutResult", "RolloutError"), "rollout"),
    **dict.fromkeys(("Analysis", "DecisionAnalysis", "PlayerSummary", "mark", "THRESHOLDS"), "analyse"),
    **dict.fromkeys(("judge", "Verdict"), "tutor"),
    **dict.fromkeys(("Net", "NetError", "load_net", "shipped_net"), "nets"),
    "NetBot": "netbot",
    **dict.fromkeys(("Bot", "RandomBot", "HeuristicBot", "PerfectMiniGamBot"), "bots"),
    **dict.fromkeys(("get_table", "load_table", "MiniGamTable"), "solve"),
    **dict.fromkeys(("get_database", "BearoffDatabase", "BearoffError"), "bearoff"),
    **dict.fromkeys(("pip_counts", "enter_probability", "hit_probability", "shots", "bear_off_in_one",
                     "odds_table"), "odds"),
    "Trainer": "train",
    "Table": "table",
}

__all__ = [
    "Analysis", "BearoffDatabase", "BearoffError", "Bot", "Decision", "DecisionAnalysis", "DecisionHint",
    "Evaluator", "HeuristicBot", "Hint", "MiniGamTable", "Net", "NetBot", "NetError", "Options",
    "PerfectMiniGamBot", "PlayerSummary", "RandomBot", "RankedPlay", "RolloutError", "RolloutResult",
    "THRESHOLDS", "Table", "Trainer", "Verdict", "bear_off_in_one", "doubles_hint",
    "enter_probability", "get_database", "get_table", "hint", "hit_probability", "judge", "load_net",
    "load_table", "mark", "odds_table", "opening_hint", "pip_counts", "shipped_net", "shots",
]  # the names of _WHERE (tests/test_analysis_api.py checks that the two agree)

if TYPE_CHECKING:  # pragma: no cover - for type checkers: the names as the modules define them
    from .analyse import THRESHOLDS, Analysis, DecisionAnalysis, PlayerSummary, mark
    from .bearoff import BearoffDatabase, BearoffError, get_database
    from .bots import Bot, HeuristicBot, PerfectMiniGamBot, RandomBot
    from .hints import Decision, DecisionHint, Hint, RankedPlay, doubles_hint, hint, opening_hint
    from .netbot import NetBot
    from .nets import Net, NetError, load_net, shipped_net
    from .odds import bear_off_in_one, enter_probability, hit_probability, odds_table, pip_counts, shots
    from .options import Options
    from .rollout import RolloutError, RolloutResult
    from .search import Evaluator
    from .solve import MiniGamTable, get_table, load_table
    from .table import Table
    from .train import Trainer
    from .tutor import Verdict, judge


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value  # the next read finds it at once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
