"""The colours of a picture: :class:`Theme` and the built-in :data:`THEMES`."""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..errors import RenderError
from ..position import WHITE, Player
from ._xml import XML_BAD


@dataclass(frozen=True)
class Theme:
    """The colours of a picture. The two players' checkers differ strongly in lightness, and the
    accent colours come from the Okabe-Ito palette, so colour-blind readers can tell them apart.

    Every field is text (a CSS colour, and the theme's name); a field that is not text, or holds
    characters XML cannot carry, raises :class:`~backgammon_lab.errors.RenderError`."""

    name: str
    background: str
    text: str
    muted: str
    frame: str
    felt: str
    tray: str
    point_a: str
    point_b: str
    white_fill: str
    white_stroke: str
    white_text: str
    black_fill: str
    black_stroke: str
    black_text: str
    select: str
    target: str
    highlight: str
    arrow: str
    lastmove: str
    casing: str

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, str) or XML_BAD.search(value):
                raise RenderError(f"Theme {f.name} must be text that XML can hold, not {value!r}")


THEMES: dict[str, Theme] = {
    "light": Theme(
        name="light", background="#fbf8f1", text="#2b2118", muted="#8a7c6a",
        frame="#6f4e31", felt="#eadcbf", tray="#d8c6a0",
        point_a="#3e6f9e", point_b="#d9a25f",
        white_fill="#fdfcf7", white_stroke="#2b2b2b", white_text="#1f1f1f",
        black_fill="#262626", black_stroke="#000000", black_text="#f2f2f2",
        select="#d55e00", target="#d55e00", highlight="#f0e442",
        arrow="#b0186f", lastmove="#5e5e5e", casing="#ffffff",
    ),
    "dark": Theme(
        name="dark", background="#1e1f22", text="#d6d6d6", muted="#8d8d8d",
        frame="#4b3a2a", felt="#3d434b", tray="#30353c",
        point_a="#3f6a99", point_b="#c89a5c",
        white_fill="#ededea", white_stroke="#111111", white_text="#111111",
        black_fill="#141414", black_stroke="#c9c9c9", black_text="#f0f0f0",
        select="#ffe066", target="#ffe066", highlight="#f0e442",
        arrow="#ff79c6", lastmove="#b0b0b0", casing="#000000",
    ),
}


def checker_colours(th: Theme, who: Player) -> tuple[str, str, str]:
    """Fill, outline and text colour of ``who``'s checkers (and dice)."""
    if who == WHITE:
        return th.white_fill, th.white_stroke, th.white_text
    return th.black_fill, th.black_stroke, th.black_text
