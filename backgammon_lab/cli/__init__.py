"""The ``backgammon-lab`` command line (also ``python -m backgammon_lab``); see ``docs/cli.md``.

Subcommands: ``plays``, ``show``, ``render`` (pictures), the analysis commands ``value``, ``hint``,
``analyse`` and ``solve``, and ``train``; the top-level ``--help`` lists them all.

Every error is one line on stderr, ``backgammon-lab: error: ...``, naming the input; never a
traceback. Exit status: 0 done, 2 bad usage or bad input (the argument parser's convention), 1 a
failure (a file that cannot be written, an internal error), 130 interrupted, 143 terminated. ``--batch``
modes write one output line per input line, in order; a bad line gets ``{"error": ..., "line": N}``
and the run goes on; the status is then that of the worst line.

The package sits on top of the others and nothing imports it: :mod:`~backgammon_lab.cli.app` (the
parser, :func:`main`, ``plays`` and ``show``), :mod:`~backgammon_lab.cli.common` (what the commands
share: reading positions, dice and ``--batch`` lines, argument types, messages),
:mod:`~backgammon_lab.cli.render`, :mod:`~backgammon_lab.cli.analysis` and
:mod:`~backgammon_lab.cli.train`.
"""

from __future__ import annotations

from .app import build_parser, main, plays_json, version
from .common import (
    Terminated,
    add_progress_argument,
    batch_position,
    check_output_path,
    describe_error,
    load_json_line,
    note,
    positive_int,
    quote,
    read_dice,
    read_position,
    run_batch,
    seed_int,
    show_progress,
)

__all__ = [
    "main", "build_parser", "plays_json", "read_position", "read_dice", "batch_position", "run_batch",
    "load_json_line", "positive_int", "seed_int", "describe_error", "show_progress", "add_progress_argument",
    "note", "quote", "version", "check_output_path", "Terminated",
]
