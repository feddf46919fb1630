"""``backgammon-lab train``: the command line of the nets' trainer (:mod:`backgammon_lab.analysis.train`).

``backgammon-lab train VARIANT --games N [--resume] [--hidden H] [--encoding E] [--alpha A] [--lambda L]
[--exact-races | --no-exact-races] [--seed S] [--out PATH] [--checkpoint N] [--minutes M] [--average G]`` (:func:`add_train_arguments`).
The net file is checked before any training; the run trains in short calls of
:meth:`~backgammon_lab.analysis.train.Trainer.train`, so that Ctrl-C or SIGTERM stops it between
games with the games finished saved.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import time
from collections.abc import Callable
from glob import escape as glob_escape
from pathlib import Path
from typing import Any

from ..analysis.nets import ENCODINGS, Net, load_net, shipped_path
from ..analysis.train import DEFAULT_ALPHA, DEFAULT_LAMBDA, Trainer, TrainStats, average_path, default_out
from ..errors import AnalysisError
from ..variants import Variant, find_variant
from .common import (
    Terminated,
    add_progress_argument,
    check_output_path,
    number_type,
    positive_int,
    seed_int,
    show_progress,
)

__all__ = ["add_train_arguments", "train_command", "add_train_subcommand", "add_refine_arguments", "refine_command",
           "add_distil_arguments", "distil_command"]


def add_train_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``backgammon-lab train``."""
    positive = number_type(0, math.inf, what="a positive number", low_open=True, high_open=True)
    unit = number_type(0, 1, what="a number from 0 to 1")

    parser.add_argument("variant", metavar="VARIANT", help="the variant to train a net for (standard, mexican, minigam)")
    parser.add_argument("--games", type=positive_int, required=True, help="self-play games to play in this run")
    parser.add_argument("--resume", action="store_true",
                        help="continue from --out if it exists, else from the shipped net (games, weights and "
                             "dice state included)")
    parser.add_argument("--hidden", type=positive_int, default=None,
                        help="hidden units of a new net (default 80); with --resume, widen the net's hidden layer "
                             "to this many units (new units start with zero output weights: the values are "
                             "unchanged until training moves them)")
    parser.add_argument("--encoding", choices=sorted(ENCODINGS), default=None,
                        help="input encoding of a new net (default: the variant's); with --resume, grow the net "
                             "to an encoding that extends its own (the new inputs start at zero weight)")
    parser.add_argument("--alpha", type=positive, default=None, help=f"learning rate (default {DEFAULT_ALPHA}, or "
                                                                       "the checkpoint's)")
    parser.add_argument("--lambda", dest="lam", type=unit, default=None,
                        help=f"trace decay (default {DEFAULT_LAMBDA}, or the checkpoint's); 0 is TD(0), which "
                             "keeps no trace and trains standard about 1.6 times as many games a second "
                             "(give it about twice the --alpha)")
    parser.add_argument("--exact-races", action=argparse.BooleanOptionalAction, default=None,
                        help="learn the positions before a pure bear-off race from the bear-off database's "
                             "exact values, not the net's (standard and Mexican; default off, or the checkpoint's)")
    parser.add_argument("--seed", type=seed_int, default=0,
                        help="seed of a new net and its dice, or of the new units' weights when --resume "
                             "--hidden widens a net (default 0)")
    parser.add_argument("--out", help="the net file to write (default <cache>/backgammon_lab/nets/VARIANT.npz)")
    parser.add_argument("--checkpoint", type=positive_int, default=1000, help="games between checkpoints (default 1000)")
    parser.add_argument("--minutes", type=positive, default=None, help="stop (between games) after this many minutes")
    parser.add_argument("--checkers", type=positive_int, default=None, help="Mini-Gam only: checkers a side")
    parser.add_argument("--average", type=number_type(0, 2**62, whole=True, what="a whole number of games, at least 0"), default=None,
                        help="also keep a moving average of the weights over about this many games, written "
                             "to NAME.avg.npz beside --out (0: none; default 0, or the checkpoint's)")
    add_progress_argument(parser)


def _command_text(args: argparse.Namespace) -> str:
    parts = ["backgammon-lab", "train", args.variant, "--games", str(args.games)]
    if args.resume:
        parts.append("--resume")
    grew = getattr(args, "grew_hidden", None)
    fresh = not args.resume  # a resumed net keeps its seed, and its hidden size unless --hidden widens it
    for flag, val in (("--hidden", args.hidden if fresh else grew), ("--encoding", args.encoding),
                      ("--alpha", args.alpha), ("--lambda", args.lam),
                      ("--seed", args.seed if fresh or grew else None), ("--checkers", args.checkers),
                      ("--minutes", args.minutes), ("--average", args.average),
                      ("--checkpoint", args.checkpoint), ("--out", args.out)):
        if val is not None:
            parts += [flag, str(val)]
    if args.exact_races is not None:
        parts.append("--exact-races" if args.exact_races else "--no-exact-races")
    return " ".join(parts)


def _checked_out(args: argparse.Namespace, variant: Variant) -> Path:
    """The net file to write, checked before any training: a folder, a missing or unwritable folder
    are refused naming the path as the user wrote it (and nothing is written)."""
    if args.out is None:
        out = default_out(variant)
        check_output_path(str(out), "the default net file", f"{variant.name}.npz", make_folders=True)
        return out
    out = check_output_path(args.out, "--out", f"{variant.name}.npz", make_folders=True)
    avg = average_path(out)
    if avg.is_dir():
        raise AnalysisError(f"--out {args.out!r}: its averaged net would go to {str(avg)!r}, which is a folder")
    return out


def _temporary_files(out: Path) -> list[Path]:
    """The temporary files this process may have left while writing ``out`` and its averaged net."""
    found = []
    for target in (out, average_path(out)):
        found += list(target.parent.glob(f"{glob_escape(target.name)}.{os.getpid()}.tmp"))
    return found


def _remove_temporary(out: Path) -> None:
    for tmp in _temporary_files(out):
        try:
            tmp.unlink()
        except OSError:  # pragma: no cover - gone already, or not ours to remove
            pass


class _Stop:
    """A signal handler for Ctrl-C and SIGTERM during training: it notes the signal, and the
    training stops when the games being played are finished (a second Ctrl-C stops at once)."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def __call__(self, signum: int, frame: Any) -> None:
        if self.signum is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.signum = signum


#: Seconds of self-play per call of :meth:`Trainer.train` in the command (Ctrl-C waits at most about this).
_CALL_SECONDS = 0.25


def _run_training(trainer: Trainer, args: argparse.Namespace, out: Path,
                  note_games: Callable[[Trainer], None]) -> TrainStats:
    """Train ``args.games`` games (or ``args.minutes``) in short calls of :meth:`Trainer.train`,
    writing ``out`` every ``args.checkpoint`` games and at the end. Ctrl-C or SIGTERM stops the run
    between games: the games finished are saved, a note says so, and :class:`KeyboardInterrupt` (or
    :class:`~backgammon_lab.cli.common.Terminated`) is raised. The calls play the same games as one call."""
    total = TrainStats()
    stop = _Stop()
    previous: dict[int, Any] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[signum] = signal.signal(signum, stop)
        except ValueError:  # pragma: no cover - not the main thread: Ctrl-C stays as it is
            pass
    bar = None
    if show_progress(args):
        from tqdm.auto import tqdm

        bar = tqdm(total=args.games, desc=f"train {trainer.variant.name}", unit="game")
    seconds = args.minutes * 60 if args.minutes else None
    t0 = time.perf_counter()
    size = 1
    try:
        while total.games < args.games and stop.signum is None:
            if seconds is not None and time.perf_counter() - t0 >= seconds:
                break
            to_checkpoint = args.checkpoint - total.games % args.checkpoint
            n = max(1, min(size, args.games - total.games, to_checkpoint))
            t = time.perf_counter()
            part = trainer.train(n)
            took = time.perf_counter() - t
            total.games += part.games
            total.plies += part.plies
            total.white_wins += part.white_wins
            if bar is not None:
                bar.update(part.games)
            if total.games % args.checkpoint == 0 and total.games < args.games and stop.signum is None:
                note_games(trainer)
                trainer.checkpoint(out)
            size = max(1, int(n * min(4.0, _CALL_SECONDS / max(took, 1e-3))))
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if bar is not None:
            bar.close()
    total.seconds = time.perf_counter() - t0
    if stop.signum is not None and total.games == 0:
        print(f"backgammon-lab: note: stopped before a game of this run finished; {str(out)!r} is not written",
              file=sys.stderr)
    else:
        held = signal.signal(signal.SIGINT, signal.SIG_IGN)  # the checkpoint is written whole
        try:
            note_games(trainer)
            trainer.checkpoint(out)
        finally:
            signal.signal(signal.SIGINT, held)
    if stop.signum is not None:
        if total.games:
            print(f"backgammon-lab: note: stopped: saved the net after {trainer.games} games ({total.games} in "
                  f"this run) to {str(out)!r}; continue it with --resume", file=sys.stderr)
        raise KeyboardInterrupt if stop.signum == signal.SIGINT else Terminated()
    return total


def train_command(args: argparse.Namespace) -> int:
    """Run ``backgammon-lab train`` (see :func:`add_train_arguments`). The net file is checked before
    training; Ctrl-C or SIGTERM during training saves a checkpoint of the games finished, then
    stops (exit status 130 or 143)."""

    opts = {"checkers": args.checkers} if args.checkers is not None else {}
    variant = find_variant(args.variant, **opts)
    out = _checked_out(args, variant)
    if args.resume:
        src = out if out.is_file() else shipped_path(variant)
        if not src.is_file():
            raise AnalysisError(f"--resume: no net at {str(out)!r} and none shipped for {variant.name}; "
                                  "start without --resume")
        net = load_net(src)
        if net.variant != variant:
            raise AnalysisError(f"--resume: {str(src)!r} holds a net for {net.variant!r}, not {variant!r}")
        if args.encoding is not None and args.encoding != net.encoding:
            net = net.with_encoding(args.encoding)
            print(f"grew the net to encoding {args.encoding!r}", file=sys.stderr)
        if args.hidden is not None and args.hidden != net.hidden:
            if args.hidden < net.hidden:
                raise AnalysisError(f"--hidden {args.hidden}: the net in {str(src)!r} has {net.hidden} hidden "
                                    "units, and a hidden layer can only grow")
            print(f"grew the hidden layer from {net.hidden} to {args.hidden} units", file=sys.stderr)
            net = net.with_hidden(args.hidden, seed=args.seed)
            args.grew_hidden = args.hidden
        avg_file = average_path(src)
        averaged = load_net(avg_file) if avg_file.is_file() and src == out else None
        trainer = Trainer.resume(net, alpha=args.alpha, lam=args.lam, average=args.average, averaged=averaged,
                                 exact_races=args.exact_races)
        print(f"resuming {src} after {net.games} games", file=sys.stderr)
    else:
        if out.exists():
            raise AnalysisError(f"{str(out)!r} exists: add --resume to continue it, or choose another --out")
        if args.hidden is None:
            args.hidden = 80
        net = Net.create(variant, hidden=args.hidden, seed=args.seed, encoding=args.encoding)
        trainer = Trainer(net, alpha=args.alpha or DEFAULT_ALPHA,
                          lam=DEFAULT_LAMBDA if args.lam is None else args.lam, seed=args.seed,
                          average=args.average or 0, exact_races=bool(args.exact_races))
    net.meta.setdefault("commands", []).append(_command_text(args))
    history = net.meta.setdefault("history", [])
    run = {"command": _command_text(args), "from": net.games, "to": net.games, "alpha": trainer.alpha,
           "lambda": trainer.lam}
    if trainer.exact_races:
        run["exact_races"] = True
    history.append(run)

    def note_games(t: Trainer) -> None:
        run["to"] = t.games  # the games this run reached, for a reproduction with --games

    try:
        stats = _run_training(trainer, args, out, note_games)
    except OSError:  # the net could not be written after all: leave no temporary file behind
        _remove_temporary(out)
        raise
    summary = {"variant": variant.name, "games_run": stats.games, "games_total": trainer.games,
               "seconds": round(stats.seconds, 1), "games_per_second": round(stats.games_per_second, 2),
               "plies_per_game": round(stats.plies / max(stats.games, 1), 1), "out": str(out)}
    print(json.dumps(summary))
    return 0


def add_train_subcommand(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register ``train`` on the subcommands ``sub`` of the ``backgammon-lab`` parser."""
    tr = sub.add_parser("train", help="train a net by TD(lambda) self-play (resumable)")
    add_train_arguments(tr)
    tr.set_defaults(func=train_command)
    rf = sub.add_parser("refine", help="teach a net its own look-ahead values (supervised, in rounds)")
    add_refine_arguments(rf)
    rf.set_defaults(func=refine_command)
    ds = sub.add_parser("distil", help="fit a new net, one or two hidden layers, to a teacher net's look-ahead")
    add_distil_arguments(ds)
    ds.set_defaults(func=distil_command)


def add_refine_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``backgammon-lab refine`` (:func:`backgammon_lab.analysis.refine.refine`)."""
    positive = number_type(0, math.inf, what="a positive number", low_open=True, high_open=True)
    unit = number_type(0, 1, what="a number from 0 to 1")
    parser.add_argument("net", metavar="NET", help="the net file to start from (.npz)")
    parser.add_argument("--out", required=True, help="the refined net's file (.npz)")
    parser.add_argument("--rounds", type=positive_int, default=1, help="rounds of sampling, labelling, fitting (default 1)")
    parser.add_argument("--positions", type=positive_int, default=200_000,
                        help="positions sampled by self-play each round (default 200000)")
    parser.add_argument("--ply", type=int, choices=(1, 2), default=1, help="the look-ahead of the targets (default 1)")
    parser.add_argument("--epochs", type=positive_int, default=10, help="passes over each round's positions (default 10)")
    parser.add_argument("--lr", type=positive, default=1e-3, help="Adam's step size (default 0.001)")
    parser.add_argument("--explore", type=unit, default=0.1, help="share of random actions in the sampling games (default 0.1)")
    parser.add_argument("--seed", type=seed_int, default=0, help="seed of the first round's games and minibatches (default 0)")
    _add_fit_arguments(parser, positive)


def _add_fit_arguments(parser: argparse.ArgumentParser, positive: Any) -> None:
    """``--lr-end`` and ``--loss``, the fit's options shared by ``refine`` and ``distil``."""
    parser.add_argument("--lr-end", type=positive, default=None,
                        help="let the step size fall to this along half a cosine over the passes")
    parser.add_argument("--loss", choices=("squared", "entropy"), default="squared",
                        help="what the fit minimises: the squared error (default) or the cross-entropy")


def _fit_words(args: argparse.Namespace) -> list[str]:
    """The words of ``--lr-end`` and ``--loss`` for the command recorded in the net."""
    return ((["--lr-end", str(args.lr_end)] if args.lr_end is not None else [])
            + (["--loss", args.loss] if args.loss != "squared" else []))


def refine_command(args: argparse.Namespace) -> int:
    """Run ``backgammon-lab refine``: read the net, refine it round by round (a line of JSON each),
    write it to ``--out`` (checked before any work)."""
    from ..analysis.refine import refine

    src = Path(args.net)
    if not src.is_file():
        raise AnalysisError(f"no net file at {args.net!r}")
    net = load_net(src)
    out = check_output_path(args.out, "--out", f"{net.variant.name}.npz", make_folders=True)
    command = " ".join(["backgammon-lab", "refine", args.net, "--out", args.out, "--rounds", str(args.rounds),
                        "--positions", str(args.positions), "--ply", str(args.ply), "--epochs", str(args.epochs),
                        "--lr", str(args.lr), "--explore", str(args.explore), "--seed", str(args.seed)]
                       + _fit_words(args))

    def report(i: int, r: Any) -> None:
        print(json.dumps({"round": i + 1, **r.to_json()}), flush=True)

    refined, _ = refine(net, rounds=args.rounds, positions=args.positions, ply=args.ply, epochs=args.epochs,
                        lr=args.lr, explore=args.explore, seed=args.seed, report=report, lr_end=args.lr_end,
                        loss=args.loss)
    refined.meta.setdefault("commands", []).append(command)
    refined.save(out)
    print(json.dumps({"variant": net.variant.name, "rounds": args.rounds, "out": str(out)}))
    return 0


def add_distil_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``backgammon-lab distil`` (:func:`backgammon_lab.analysis.refine.distil`)."""
    positive = number_type(0, math.inf, what="a positive number", low_open=True, high_open=True)
    unit = number_type(0, 1, what="a number from 0 to 1")
    parser.add_argument("teacher", metavar="TEACHER", help="the teacher net's file (.npz)")
    parser.add_argument("--out", required=True, help="the new net's file (.npz)")
    parser.add_argument("--hidden", type=positive_int, required=True, help="units of the first hidden layer")
    parser.add_argument("--hidden2", type=int, default=0,
                        help="units of a second hidden layer, at most --hidden (default 0: none)")
    parser.add_argument("--positions", type=positive_int, default=200_000,
                        help="positions sampled by the teacher's self-play (default 200000)")
    parser.add_argument("--ply", type=int, choices=(0, 1, 2), default=1,
                        help="the look-ahead of the teacher's values (default 1; 0: the teacher's net)")
    parser.add_argument("--epochs", type=positive_int, default=10, help="passes over the positions (default 10)")
    parser.add_argument("--lr", type=positive, default=1e-3, help="Adam's step size (default 0.001)")
    parser.add_argument("--explore", type=unit, default=0.1, help="share of random actions in the sampling games (default 0.1)")
    parser.add_argument("--seed", type=seed_int, default=0,
                        help="seed of the games, the new net's first weights and the minibatches (default 0)")
    _add_fit_arguments(parser, positive)


def distil_command(args: argparse.Namespace) -> int:
    """Run ``backgammon-lab distil``: read the teacher, fit a new net to its look-ahead, write it to
    ``--out`` (checked before any work) and print a line of JSON."""
    from ..analysis.refine import distil

    src = Path(args.teacher)
    if not src.is_file():
        raise AnalysisError(f"no net file at {args.teacher!r}")
    teacher = load_net(src)
    out = check_output_path(args.out, "--out", f"{teacher.variant.name}.npz", make_folders=True)
    words = ["backgammon-lab", "distil", args.teacher, "--out", args.out, "--hidden", str(args.hidden),
             "--hidden2", str(args.hidden2), "--positions", str(args.positions), "--ply", str(args.ply),
             "--epochs", str(args.epochs), "--lr", str(args.lr), "--explore", str(args.explore), "--seed", str(args.seed),
             *_fit_words(args)]
    student, one = distil(teacher, hidden=args.hidden, hidden2=args.hidden2, positions=args.positions, ply=args.ply,
                          epochs=args.epochs, lr=args.lr, lr_end=args.lr_end, explore=args.explore, seed=args.seed,
                          loss=args.loss)
    student.meta.setdefault("commands", []).append(" ".join(words))
    student.save(out)
    print(json.dumps({"variant": teacher.variant.name, "net": repr(student), **one.to_json(), "out": str(out)}))
    return 0
