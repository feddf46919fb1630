"""Game files players exchange: Jellyfish .mat, GNU Backgammon SGF, XGID, and a .mat-style text
for Mexican Backgammon and Mini-Gam.

>>> from backgammon_lab.matchfiles import Match
>>> m = Match.from_mat(open(path).read())          # doctest: +SKIP
>>> m.game(1)                                       # doctest: +SKIP

See ``docs/files.md``.
"""

from __future__ import annotations

from pathlib import Path

from .jellyfish import read_mat, write_mat
from .model import CubeAction, GameResult, Match, MatchFileError, MatchGame, detect_format, looks_like_match_file
from .sgf import read_sgf, write_sgf
from .varianttext import read_variant_text, write_variant_text
from .xgid import Xgid, position_from_xgid, read_xgid, xgid

__all__ = ["Match", "MatchGame", "CubeAction", "GameResult", "MatchFileError", "load_match", "read_match",
           "detect_format", "looks_like_match_file", "read_mat", "write_mat", "read_sgf", "write_sgf",
           "read_variant_text", "write_variant_text", "Xgid", "read_xgid", "position_from_xgid", "xgid"]


def read_match(text: str, format: str | None = None, *, keep_games: bool = False) -> Match:
    """Read a game file's text (format told from the text unless ``format`` is given)."""
    return Match.read(text, format, keep_games=keep_games)


def load_match(path: str | Path, format: str | None = None, *, keep_games: bool = False) -> Match:
    """Read the game file at ``path`` (UTF-8, or Latin-1 when it is not UTF-8)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise MatchFileError(f"cannot read the file {str(path)!r}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        return Match.read(text, format, keep_games=keep_games)
    except MatchFileError as e:
        e.args = (f"{str(path)!r}: {e}",)
        raise
