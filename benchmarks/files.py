"""Reading and writing game files: MB/s of backgammon_lab's .mat and SGF readers and writers, beside
GNU Backgammon's ``import mat`` of the same files (the PyPI package ``gnubg``), CPU time, in one run.

Usage: ``.venv/bin/python benchmarks/files.py [--games N] [--repeat R]``

The files are matches of ``N`` random games (seeded; every play replayed by both readers), written
here as .mat and SGF. The sizes double from a quarter of ``N`` to ``N`` games, so the MB/s show
whether the time stays linear in the file's size. gnubg runs in a child process (its module prints
boards and keeps one match in memory); its CPU time is measured there, around the import command
alone. Its Python module cannot load an SGF file (``load match`` ends the process with a
segmentation fault, gnubg 1.1.0a16), so the SGF figures stand beside gnubg's .mat import of the
same match.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from backgammon_lab.game import Game
from backgammon_lab.matchfiles import Match, load_match

GNUBG_CHILD = r"""
import os, sys, time
devnull = os.open(os.devnull, os.O_WRONLY)
out = os.dup(1)
os.dup2(devnull, 1)  # gnubg prints a board after the import
import gnubg
best = None
for _ in range(int(sys.argv[2])):
    t = time.process_time()
    gnubg.command("import mat " + sys.argv[1])
    dt = time.process_time() - t
    best = dt if best is None else min(best, dt)
games = len(gnubg.match()["games"])
os.write(out, f"{best} {games}\n".encode())
"""


def _gnubg_import(path: Path, repeat: int) -> tuple[float, int] | None:
    """gnubg's CPU time to import ``path`` (the best of ``repeat``) and the games it read, or None."""
    try:
        r = subprocess.run([sys.executable, "-c", GNUBG_CHILD, str(path), str(repeat)], capture_output=True,
                           text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0 or not r.stdout.strip():
        return None
    seconds, games = r.stdout.split()
    return float(seconds), int(games)


def _best(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def _real_files(root: Path, repeat: int) -> None:
    """MB/s over every .mat and .sgf file under ``root`` that reads, beside gnubg's import of the .mat ones."""
    from backgammon_lab.matchfiles import MatchFileError

    for suffix in (".mat", ".sgf"):
        paths = sorted(p for p in root.rglob(f"*{suffix}") if p.is_file())
        size = ours = theirs = 0.0
        read = 0
        for p in paths:
            try:
                load_match(p)
            except MatchFileError:
                continue
            read += 1
            mb = p.stat().st_size / 1e6
            size += mb
            ours += _best(lambda q=p: load_match(q), repeat)
            if suffix == ".mat":
                g = _gnubg_import(p, repeat)
                theirs += g[0] if g else float("nan")
        peer = f"{size / theirs:.2f}" if suffix == ".mat" and theirs else "(gnubg cannot load SGF)"
        print(f"{root}: {read} {suffix} files, {size:.3f} MB: read {size / max(ours, 1e-9):.3f} MB/s; "
              f"gnubg import mat {peer} MB/s", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games in the largest file (default 200)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each timing; the best is kept (default 3)")
    ap.add_argument("--files", metavar="DIR", default=None,
                    help="also time the .mat and .sgf files under DIR (real files; gnubg imports the .mat ones)")
    args = ap.parse_args()
    if args.files:
        _real_files(Path(args.files), args.repeat)
    sizes = sorted({max(1, args.games // 4), max(1, args.games // 2), args.games})
    games = [Game("standard", seed=1000 + i).play_random() for i in range(args.games)]
    print(f"CPU time, best of {args.repeat}; random games of standard backgammon, money play")
    print(f"{'games':>6} {'format':>6} {'MB':>7} {'read MB/s':>10} {'write MB/s':>11} {'gnubg import mat MB/s':>22}")
    with tempfile.TemporaryDirectory() as d:
        for n in sizes:
            match = Match.from_games(games[:n], players=("alice", "bob"), length=0)
            mat_path = Path(d) / f"m{n}.mat"
            mat_path.write_text(match.to_mat())
            gnubg = _gnubg_import(mat_path, args.repeat)
            for fmt in ("mat", "sgf"):
                path = Path(d) / f"m{n}.{fmt}"
                text = match.write(fmt)
                path.write_text(text)
                mb = os.path.getsize(path) / 1e6
                read = _best(lambda p=path: load_match(p), args.repeat)
                write = _best(lambda f=fmt, m=match: m.write(f), args.repeat)
                if gnubg is None:
                    peer = "(gnubg not run)"
                else:
                    mat_mb = os.path.getsize(mat_path) / 1e6
                    peer = f"{mat_mb / max(gnubg[0], 1e-9):.2f} ({gnubg[1]} games)"
                print(f"{n:>6} {fmt:>6} {mb:>7.3f} {mb / read:>10.3f} {mb / write:>11.3f} {peer:>22}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
