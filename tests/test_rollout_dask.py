"""Rollouts on a Dask cluster (``distributed.Client(...).get_executor()``) give the numbers of one
process for the same seed. The LocalCluster has 2 worker processes (``processes=True``, one thread
each), so the jobs really travel pickled to other processes; starting them takes about 2 s here."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nethelpers import small_net

from backgammon_lab import Position
from backgammon_lab.analysis.analyse import analyse
from backgammon_lab.analysis.bots import HeuristicBot
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.options import Options
from backgammon_lab.analysis.rollout import rollout
from backgammon_lab.game import Game

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_rollout_on_dask_equals_one_process(client) -> None:
    pos = Position.start("mexican")
    one = rollout(pos, Options(games=24, seed=3, bot=HeuristicBot()), chunk=5)
    dask = rollout(pos, Options(games=24, seed=3, executor=client.get_executor(), bot=HeuristicBot()), chunk=5)
    assert dask.to_json() == one.to_json() and dask.outcomes == one.outcomes


def test_reduced_rollout_with_a_net_on_dask(client) -> None:
    net = small_net("standard", 8, seed=1)
    pos = Position.start("standard")
    opts = Options(games=36, seed=2, truncate=3, bot=NetBot(net))
    one = rollout(pos, opts, stratify=True, chunk=9)
    dask = rollout(pos, replace(opts, executor=client.get_executor()), stratify=True, chunk=9)
    assert dask.to_json() == one.to_json() and dask.samples == one.samples


def test_game_analysis_on_dask(client) -> None:
    net = small_net("minigam", 8, seed=1)
    g = Game("minigam", seed=4)
    while not g.is_over:
        if g.is_chance():
            g.roll()
        else:
            g.apply(HeuristicBot().choose(g))
    one = analyse(g, Options(evaluator=net))
    assert analyse(g, Options(evaluator=net, executor=client.get_executor()), chunk=5).to_json() == one.to_json()
