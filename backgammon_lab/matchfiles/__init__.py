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
from .model import (
    FORMAT_TITLES,
    CubeAction,
    GameResult,
    Match,
    MatchFileError,
    MatchGame,
    decode_match_bytes,
    detect_format,
    looks_like_match_file,
)
from .sgf import read_sgf, write_sgf
from .varianttext import read_variant_text, write_variant_text
from .xgid import Xgid, position_from_xgid, read_xgid, xgid

__all__ = ["Match", "MatchGame", "CubeAction", "GameResult", "MatchFileError", "load_match", "read_match",
           "detect_format", "looks_like_match_file", "decode_match_bytes", "read_mat", "write_mat", "read_sgf", "write_sgf",
           "read_variant_text", "write_variant_text", "Xgid", "read_xgid", "position_from_xgid", "xgid"]


def read_match(text: str, format: str | None = None, *, keep_games: bool = False) -> Match:
    """Read a game file's text (format told from the text unless ``format`` is given)."""
    return Match.read(text, format, keep_games=keep_games)


def load_match(path: str | Path, format: str | None = None, *, keep_games: bool = False) -> Match:
    """Read the game file at ``path`` (UTF-8, UTF-16 with its byte-order mark, or Latin-1 when it is
    neither); a fault raises :class:`MatchFileError` naming the file and the format it was read as."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise MatchFileError(f"cannot read the file {str(path)!r}: {e.strerror or e}") from None
    text = decode_match_bytes(data)
    fmt = format if format is not None else detect_format(text)
    try:
        return Match.read(text, fmt, keep_games=keep_games)
    except MatchFileError as e:
        e.args = (f"{str(path)!r}, read as {FORMAT_TITLES.get(fmt, fmt)}: {e}",)
        raise
