"""Analysis: odds, bots, rollouts, hints and the exact solution of Mini-Gam.

Built on the core (positions, rules, games) and never imported by it. The modules:

* :mod:`.odds` -- pip counts, entering, hitting and bearing-off chances, exact over the 36 rolls;
* :mod:`.bots` -- one :class:`~.bots.Bot` interface for every decision, random and heuristic bots,
  and the perfect Mini-Gam bot;
* :mod:`.rollout` -- play a position out many times, seeded, on one or two cores;
* :mod:`.options` -- :class:`~.options.Options`, how a search is made (ply, filters, rollouts);
* :mod:`.hints` -- every legal play ranked, the error of a chosen play, Mexican decisions;
* :mod:`.solve` -- Mini-Gam solved exactly;
* :mod:`.table` -- the small tables these return in notebooks.
"""

from __future__ import annotations
