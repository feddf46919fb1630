"""Label standard positions by luck-free truncated rollouts of the shipped net's 0-ply bot, in chunks.

    python scripts/rollout_labels.py selfplay FIRST_SEED CHUNKS [--size 1000] [--to-end] [--ply 1] [--dir artifacts/labels]
                                     [--workers N | --scheduler tcp://HOST:8786]
    python scripts/rollout_labels.py races FIRST_SEED CHUNKS [--size 1000] [--to-end]
    python scripts/rollout_labels.py candidates FIRST_SEED CHUNKS [--size 250] [--top 4]
    python scripts/rollout_labels.py race_candidates FIRST_SEED CHUNKS [--size 250] [--top 4] [--to-end]
    python scripts/rollout_labels.py merge KIND OUT.npz [--dir artifacts/labels] [--base FILE]
    python scripts/rollout_labels.py fit OUT.npz LABELS.npz[,MORE.npz] [--lr 0.0001] [--epochs 10] [--loss squared|entropy] [--race]

``selfplay``: chunk ``s`` is ``rollout_rows(sample_positions("standard", size, NetBot(net), seed=s,
explore=0.1), NetBot(net), games=36, truncate=7, seed=s, luck=True)``.

``races``: chunk ``s`` samples ``8 * size`` positions the same way and labels the races among them
(no contact) that the bear-off database does not value (a checker outside a home board), at most
``size``: about one in ten of the samples.

``candidates``: chunk ``s`` takes ``size`` positions the same way, rolls each one's dice with
``random.Random(s)`` (two ``randint(1, 6)``, in order), and labels the positions after the
``top`` best plays by the net at 0-ply (the opponent to roll) the same way; ``group`` holds the
decision (the index of its position in the chunk) of each row. ``race_candidates``: the same for the
races of a ``races`` chunk of that seed (the positions after the plays that the bear-off database
values left out): labels that teach a race net the differences between a roll's plays.

Each chunk goes to ``DIR/standard_{kind}_s{seed}.npz`` (``boards``, ``offs``, ``targets`` and for
candidates ``group``), written whole; a chunk already there is skipped, so a stopped run resumes.
``--to-end``: the rollouts are played to the end of the game (``truncate=None``; about 0.9 s a
position, four times the 7-turn labels), and the chunks are named ``standard_{kind}_end_s{seed}.npz``
(``merge --to-end`` joins them).

``--ply 1`` (or 2): the rollouts are played by the net's bot looking that many rolls ahead, a
stronger player than the net at 0-ply whose values it learns; the chunks are named
``standard_{kind}[_end]_ply1_s{seed}.npz`` (``merge --ply 1`` joins them).

``--workers N`` makes N chunks at once in fresh processes; ``--scheduler ADDRESS`` sends them to the
workers of a Dask cluster (``dask scheduler``, then ``dask worker ADDRESS`` on each machine, all with
backgammon_lab installed; 100,000 positions to the end are about 26 CPU hours). A chunk is the same
wherever it is made (its dice come from its seed); the files are written here.

``merge`` joins a kind's chunks, in seed order, into one compressed file with ``seeds`` (each row's
chunk), the form committed in ``training/labels/``; with ``--base`` the rows of a merged file come
first and the chunks it already holds are left out, so a committed file grows in place.

``fit``: the shipped net fitted to a merged file's targets (several files joined by commas: all
their rows) by ``refine.fit`` (squared error, or ``--loss entropy``; the step falling a hundredfold
from ``--lr``, a tenth held out, ``seed=1``), saved to OUT.npz; prints the held-out error before
and after. See training/LOG.md, "Luck taken off the labels". With ``--race``
the fitted copy (of races labels) becomes the shipped net's race net, the net the search values
races by (``Net.with_race``); OUT.npz is the shipped net with it.
"""

from __future__ import annotations

import argparse
import glob
import multiprocessing
import os
import random
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from typing import Any

import numpy as np

from backgammon_lab.analysis.bearoff import home_configs
from backgammon_lab.analysis.netbot import NetBot
from backgammon_lab.analysis.nets import Net, equity, shipped_net
from backgammon_lab.analysis.options import Options
from backgammon_lab.analysis.rollout import rollout_rows, sample_positions
from backgammon_lab.analysis.search import Evaluator
from backgammon_lab.analysis.strategy import contact
from backgammon_lab.engine import MakePlay, Phase, RollDice, advance, position_state
from backgammon_lab.position import Position, Roll


def _candidates(net: Net, seed: int, size: int, top: int, race: bool = False) -> tuple[list[Position], list[int]]:
    ev = Evaluator(net)
    rng = random.Random(seed)
    after: list[Position] = []
    group: list[int] = []
    found = races(net, seed, size) if race else sample_positions("standard", size, NetBot(net), seed=seed, explore=0.1)
    for d, p in enumerate(found):
        st = advance(position_state(p), RollDice(Roll(rng.randint(1, 6), rng.randint(1, 6))))[0]
        if st.phase is not Phase.PLAY or not st.plays or len(st.plays) < 2:
            continue
        vals = equity(ev.play_values(st))
        for i in np.argsort(-vals, kind="stable")[:top]:
            nxt = advance(st, MakePlay(st.plays[int(i)]))[0]
            if nxt.phase is Phase.ROLL and not nxt.position.is_over and not (race and home_configs(nxt.position) is not None):
                after.append(nxt.position)
                group.append(d)
    return after, group


def races(net: Net, seed: int, size: int) -> list[Position]:
    """Up to ``size`` races from the net's self-play (seed ``seed``, 10% random actions), those the
    bear-off database does not value: no contact, a checker of either side still outside its home."""
    found = sample_positions("standard", 8 * size, NetBot(net), seed=seed, explore=0.1)
    return [p for p in found if not contact(p) and home_configs(p) is None][:size]


def chunk(kind: str, s: int, size: int, top: int, to_end: bool, ply: int = 0) -> dict[str, Any]:
    """The columns of chunk ``s`` (``boards``, ``offs``, ``targets``, for candidates ``group``) and
    ``cpu``, the seconds of CPU it took where it ran: the work of one chunk, for any executor."""
    net = shipped_net("standard")
    assert net is not None
    t = time.process_time()
    extra: dict[str, Any] = {}
    if kind == "selfplay":
        pos = sample_positions("standard", size, NetBot(net), seed=s, explore=0.1)
    elif kind == "races":
        pos = races(net, s, size)
    else:
        pos, group = _candidates(net, s, size, top, race=kind == "race_candidates")
        extra["group"] = np.array(group, np.int64)
    player = NetBot(net, Options(ply=ply)) if ply else NetBot(net)  # who plays the rollouts
    rows = rollout_rows(pos, player, games=36, truncate=None if to_end else 7, seed=s, luck=True)
    return {"boards": np.array([p.board() for p in pos], np.int8),
            "offs": np.array([p.opponent_off for p in pos], np.int64), "targets": rows, **extra,
            "cpu": time.process_time() - t}


def label(kind: str, first: int, chunks: int, size: int, top: int, folder: str, to_end: bool = False,
          executor: Executor | None = None, ply: int = 0) -> None:
    """Chunks ``first .. first + chunks - 1`` not yet in ``folder``, made here one after another
    or, with ``executor`` (a process pool, a Dask client's), spread over its workers; each is
    written here whole as it comes back, so a stopped run resumes."""
    os.makedirs(folder, exist_ok=True)

    def path(s: int) -> str:
        return os.path.join(folder, f"standard_{_name(kind, to_end, ply)}_s{s}.npz")

    todo = [s for s in range(first, first + chunks) if not os.path.exists(path(s))]

    def write(s: int, cols: dict[str, Any]) -> None:
        out = path(s)
        cpu = cols.pop("cpu")
        tmp = out + ".tmp.npz"
        np.savez(tmp, **cols)
        os.replace(tmp, out)
        print(f"{out}: {len(cols['targets'])} positions, {cpu:.0f} s CPU", flush=True)

    if executor is None:
        for s in todo:
            write(s, chunk(kind, s, size, top, to_end, ply))
        return
    futures = {executor.submit(chunk, kind, s, size, top, to_end, ply): s for s in todo}
    for f in as_completed(futures):
        write(futures[f], f.result())


def _executor(workers: int, scheduler: str | None) -> Executor | None:
    """A Dask client's executor for ``scheduler`` (``tcp://HOST:8786``), a pool of ``workers``
    fresh processes, or None (this process)."""
    if scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise SystemExit("--scheduler needs Dask: pip install 'dask[distributed]'") from None
        return Client(scheduler).get_executor()  # type: ignore[no-any-return]
    if workers > 1:
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    return None


def _name(kind: str, to_end: bool, ply: int = 0) -> str:
    """The chunks' name: the kind, ``_end`` for rollouts played to the end, ``_ply1`` (2) for
    rollouts played by the net's 1-ply (2-ply) bot."""
    return kind + ("_end" if to_end else "") + (f"_ply{ply}" if ply else "")


def merge(kind: str, out: str, folder: str, base: str | None = None) -> None:
    def seed_of(f: str) -> int:
        return int(f.rsplit("_s", 1)[1].split(".")[0])

    files = glob.glob(os.path.join(folder, f"standard_{kind}_s*.npz"))
    files = sorted((f for f in files if not f.endswith(".tmp.npz")), key=seed_of)
    old = dict(np.load(base)) if base else None
    if old is not None:
        files = [f for f in files if seed_of(f) not in set(old["seeds"].tolist())]
    if not files:
        raise SystemExit(f"no new {kind} chunks in {folder!r}")
    parts = [dict(np.load(f)) for f in files]
    for f, p in zip(files, parts, strict=True):
        p["seeds"] = np.full(len(p["targets"]), seed_of(f), np.int64)
    if old is not None:
        parts.insert(0, old)
    cols: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    seeds = cols["seeds"]
    np.savez_compressed(out, **cols)
    print(f"{out}: {len(seeds)} rows ({len(files)} new chunks)")


def fit_labels(out: str, labels: str, lr: float, epochs: int, race: bool = False, loss: str = "squared") -> None:
    """The shipped net fitted to ``labels`` and saved to ``out``; with ``race``, a copy of it fitted
    to race labels becomes the shipped net's race net instead (``Net.with_race``)."""
    from backgammon_lab.analysis.nets import encode
    from backgammon_lab.analysis.refine import fit

    net = shipped_net("standard")
    assert net is not None
    parts = [np.load(f) for f in labels.split(",")]  # several files: their rows, one after another
    d = {k: np.concatenate([p[k] for p in parts]) for k in ("boards", "offs", "targets")}
    x = encode(net.variant, d["boards"], d["offs"], net.encoding)
    t = time.process_time()
    start = net.with_race(None).with_crashed(None)  # a race net has no race or crashed net of its own
    fitted, before, after = fit(start, x, d["targets"], epochs=epochs, lr=lr, lr_end=lr / 100, seed=1, loss=loss)
    if race:
        fitted.meta["race_fit"] = {"labels": os.path.basename(labels), "positions": len(x), "lr": lr,
                                   "epochs": epochs, "loss": loss, "held_out_before": round(before, 6),
                                   "held_out_after": round(after, 6)}
        fitted = net.with_race(fitted)
    else:  # the net's race and crashed nets stay its own
        fitted = fitted.with_race(net.race).with_crashed(net.crashed)
    fitted.save(out)
    print(f"{out}: {len(x)} positions, held-out error {before:.5f} -> {after:.5f}, "
          f"{time.process_time() - t:.0f} s CPU")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=("selfplay", "races", "candidates", "race_candidates", "merge", "fit"))
    ap.add_argument("args", nargs=2, metavar="ARG",
                    help="FIRST_SEED CHUNKS; for merge KIND OUT.npz; for fit OUT.npz LABELS.npz")
    ap.add_argument("--size", type=int, default=None, help="positions a chunk (default 1000; candidates 250)")
    ap.add_argument("--top", type=int, default=4, help="candidates: the best plays labelled a decision")
    ap.add_argument("--dir", default="artifacts/labels")
    ap.add_argument("--base", default=None, help="merge: a merged file whose rows come first")
    ap.add_argument("--lr", type=float, default=0.0001, help="fit: the first step size (default 0.0001)")
    ap.add_argument("--epochs", type=int, default=10, help="fit: passes over the positions (default 10)")
    ap.add_argument("--to-end", action="store_true",
                    help="roll out to the end of the game, not 7 turns (chunks named KIND_end)")
    ap.add_argument("--workers", type=int, default=1,
                    help="selfplay, races, candidates: make this many chunks at once, in fresh processes")
    ap.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="selfplay, races, candidates: spread the chunks over a Dask cluster (tcp://HOST:8786)")
    ap.add_argument("--ply", type=int, choices=(0, 1, 2), default=0,
                    help="the rollouts are played by the net's bot at this ply (default 0; 1: about 1.2 s a "
                         "position for 7 turns; chunks named KIND_ply1)")
    ap.add_argument("--loss", choices=("squared", "entropy"), default="squared",
                    help="fit: squared error (default) or cross-entropy of the outputs")
    ap.add_argument("--race", action="store_true",
                    help="fit: make the fitted copy the shipped net's race net (fit it to races labels)")
    a = ap.parse_args(argv)
    if a.kind == "merge":
        if a.args[0] not in ("selfplay", "races", "candidates", "race_candidates"):
            ap.error(f"merge takes the kind selfplay, races, candidates or race_candidates, not {a.args[0]!r}")
        merge(_name(a.args[0], a.to_end, a.ply), a.args[1], a.dir, a.base)
        return 0
    if a.kind == "fit":
        fit_labels(a.args[0], a.args[1], a.lr, a.epochs, a.race, a.loss)
        return 0
    try:
        first, chunks = int(a.args[0]), int(a.args[1])
    except ValueError:
        ap.error(f"FIRST_SEED and CHUNKS are whole numbers, not {a.args[0]!r} and {a.args[1]!r}")
    size = a.size or (250 if a.kind.endswith("candidates") else 1000)
    if a.workers < 1:
        ap.error(f"--workers is a whole number, at least 1, not {a.workers}")
    executor = _executor(a.workers, a.scheduler)
    try:
        label(a.kind, first, chunks, size, a.top, a.dir, a.to_end, executor, a.ply)
    finally:
        if isinstance(executor, ProcessPoolExecutor):
            executor.shutdown(wait=False, cancel_futures=True)
        elif executor is not None:
            executor.shutdown(wait=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
