"""What the tutorial notebooks show, so that no notebook cell carries helper code.

* :func:`show` / :class:`Picture`: board pictures side by side, as images (they show in a notebook
  that is not trusted too);
* :func:`plays_board`: the legal plays of a roll, printed and drawn as arrows;
* :func:`why_not`: the engine's words for a refused step, with the rule it rests on, and a picture;
* :func:`compare` / :func:`same`: one position under several rule sets;
* :func:`labelled_board`: the beginner's picture: points, bar, home board, tray, pips, blot, made point;
* :func:`narrate`: a turn played action by action, with the engine's words for what happened;
* :func:`lesson`: the exercises of some rule rows, as a course widget; :func:`course`: all of them;
* :func:`enters` (does a roll bring a checker in from the bar?) and :func:`head_to_head` (two bots,
  each moving first in half of the games);
* :func:`variant_table`: what each variant changes, as the variants declare it;
* :func:`turns`: short turns from given positions, told in the engine's words and drawn side by side;
* :func:`attempt`: one action tried on a game; a refusal is said in the game's words (what it waits
  for), not as an error;
* :func:`plain`: the text of an HTML message, for printing.

Everything printed is plain text, the same on every run.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..engine import Phase
from ..errors import BackgammonError, GameError
from ..game import Game
from ..position import Position, Step
from ..rules import legal_plays
from .exercises import LessonError, rule_note

__all__ = ["Picture", "show", "plays_board", "why_not", "compare", "same", "labelled_board", "narrate",
           "lesson", "course", "enters", "ROLLS_36", "head_to_head", "variant_table", "VARIANT_FACTS", "turns",
           "attempt", "plain"]


class Picture:
    """Board pictures shown as images side by side (an image also shows in a notebook that is not
    trusted, where JupyterLab does not draw SVG output)."""

    def __init__(self, *svgs: Any, width: int = 440) -> None:
        self.svgs, self.width = [str(s) for s in svgs], width

    def _repr_html_(self) -> str:
        return "<div>" + "".join(
            f'<img style="margin:0 8px 8px 0" width="{self.width}" alt="board" '
            f'src="data:image/svg+xml;base64,{base64.b64encode(s.encode()).decode()}">'
            for s in self.svgs) + "</div>"

    def __repr__(self) -> str:
        return f"<{len(self.svgs)} board picture{'s' if len(self.svgs) != 1 else ''}>"


def show(*pictures: Any, width: int = 440) -> Picture:
    """Show board pictures (SVG, or Pictures) side by side."""
    svgs = [s for p in pictures for s in (p.svgs if isinstance(p, Picture) else [p])]
    return Picture(*svgs, width=width)


def plays_board(pos: Position, dice: tuple[int, int], *, draw: int | list[str] = 3, caption: str | None = None,
                **options: Any) -> Picture:
    """Print the legal plays of ``dice`` and draw some as arrows: the first ``draw`` plays, or the
    plays named in a list (move text such as ``"13/9 8/5*"``)."""
    from ..svg import board

    plays = legal_plays(pos, dice)
    roll = f"{dice[0]}-{dice[1]}"
    if plays.length == 0:
        print(f"{roll}: no legal move")
        drawn: list[Any] = []
    else:
        drawn = [plays.find(t) for t in draw] if isinstance(draw, list) else list(plays[:draw])
        which = "" if len(drawn) == len(plays) else f"; drawn: {', '.join(map(str, drawn))}"
        print(f"{roll}: {len(plays)} legal play{'s' if len(plays) != 1 else ''}{which}")
        for play in plays[:12]:
            print("   ", play)
        if len(plays) > 12:
            print(f"    ... and {len(plays) - 12} more")
    size = options.pop("size", 440)
    return show(board(pos, dice=dice, arrows=drawn, caption=caption, size=size, **options))


def why_not(pos: Position, dice: tuple[int, int], step: str | Step, done: Sequence[str] = ()) -> Picture:
    """Ask the engine whether ``step`` may be played next (after the steps ``done``): print its
    answer in words, with the rule it rests on, and draw the checker (ringed) and the point it may
    not go to (tinted)."""
    from ..moves import parse_steps
    from ..svg import board

    n = pos.variant.points
    if isinstance(step, Step):
        text, start, end = f"{step.text(n)} with the {step.die}", step.start, step.end
    else:
        text = step
        ((start, end),) = parse_steps(step, n)
    node = legal_plays(pos, dice).after(list(done))
    why = node.explain(step)
    after = f" after {' '.join(done)}" if done else ""
    print(f"{text}{after}: {'allowed' if why.legal else 'not allowed'}")
    print(f"    {rule_note(why)}")
    now = node.position
    return show(board(now, dice=dice, selected=start, highlight=[end], size=440,
                      caption=f"{'Allowed' if why.legal else 'Not allowed'}: {text}{after}. {why.message}"))


def compare(texts: Iterable[str], dice: tuple[int, int], *, draw: int = 2, width: int = 360) -> Picture:
    """Print the legal plays of ``dice`` in each position (one per variant) and draw them side by side."""
    pictures = []
    for text in texts:
        pos = Position.from_string(text)
        print(f"{pos.variant.title} ({text})")
        pictures.append(plays_board(pos, dice, draw=draw, size=width,
                                    caption=f"{pos.variant.title}, {dice[0]}-{dice[1]}"))
    return show(*pictures, width=width)


def same(text: str, variants: Sequence[str] = ("standard", "mexican")) -> list[str]:
    """The same 24-point position string under each variant."""
    _, rest = text.split("/", 1)
    return [f"{v}/{rest}" for v in variants]


# -- the beginner's board ------------------------------------------------------------------------
LABELLED = "standard/w/24x2,13x5,8x3,6x5/24x2,20,13x5,8x3,6x4"


def _rect(svg: str, attr: str) -> tuple[float, float, float, float]:
    m = re.search(r'<rect class="[^"]*" ' + attr + r'[^>]*height="([\d.]+)" width="([\d.]+)" x="([\d.]+)" '
                  r'y="([\d.]+)"', svg)
    if m is None:  # pragma: no cover - the renderer always draws these areas
        raise LessonError(f"the board picture has no area {attr}")
    h, w, x, y = (float(v) for v in m.groups())
    return x, y, w, h


def labelled_board(width: int = 720) -> Picture:
    """The standard start (with one Black blot) with its parts named: points, home board, bar,
    tray, pip count, a blot and a made point."""
    from ..svg import board

    pos = Position.from_string(LABELLED)
    probe = str(board(pos, size=None, id_prefix="labelled"))
    vb = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', probe)
    assert vb is not None
    bw, bh = float(vb.group(1)), float(vb.group(2))
    inner = str(board(pos, size=round(bw), id_prefix="labelled"))  # drawn at the scale of its own units
    left, right, top, bottom = 170.0, 200.0, 40.0, 70.0
    inner = inner.replace("<svg ", f'<svg x="{left:.0f}" y="{top:.0f}" ', 1)

    def at(attr: str, fx: float = 0.5, fy: float = 0.5) -> tuple[float, float]:
        x, y, w, h = _rect(inner, attr)
        return left + x + fx * w, top + y + fy * h

    labels: list[tuple[str, str, tuple[float, float], tuple[float, float]]] = []
    p1 = at('data-point="1"', 0.5, 0.95)
    p6 = at('data-point="6"', 0.5, 0.95)
    labels.append(("point 1 (White's numbering;", "Black's number below it)", (left + bw + 12, top + bh - 120), p1))
    labels.append(("the bar: hit checkers", "wait here", (left - 160, top + bh / 2 - 10), at('data-bar="white"')))
    labels.append(("the tray: checkers", "borne off", (left + bw + 12, top + bh / 2), at('data-off="white"')))
    labels.append(("a blot: one Black", "checker alone", (left - 160, top + bh - 90), at('data-point="5"', 0.5, 0.9)))
    labels.append(("a made point: two or", "more White checkers", (left - 160, top + bh - 170),
                   at('data-point="8"', 0.5, 0.8)))
    labels.append(("White's 24-point: where", "its back checkers start", (left + bw + 12, top + 60),
                   at('data-point="24"', 0.5, 0.1)))
    pips = re.search(r'<text class="pips" data-player="white"[^>]*x="([\d.]+)" y="([\d.]+)"', inner)
    assert pips is not None
    labels.append(("pip count: how far White", "still has to go", (left + bw + 12, top + bh + 30),
                   (left + float(pips.group(1)) - 20, top + float(pips.group(2)) - 4)))
    parts = []
    for first, second, (tx, ty), (px, py) in labels:
        anchor_x = tx + 150 if tx < left else tx
        parts.append(f'<line x1="{anchor_x:.0f}" y1="{ty - 4:.0f}" x2="{px:.0f}" y2="{py:.0f}" stroke="#b3261e" '
                     'stroke-width="1.5" />')
        parts.append(f'<circle cx="{px:.0f}" cy="{py:.0f}" r="4" fill="#b3261e" />')
        parts.append(f'<text x="{tx:.0f}" y="{ty - 8:.0f}" font-size="13" fill="#2b2118">{first}</text>')
        parts.append(f'<text x="{tx:.0f}" y="{ty + 8:.0f}" font-size="13" fill="#2b2118">{second}</text>')
    hx0, hx1 = p6[0] - 18, p1[0] + 18
    hy = top + bh - 40
    parts.append(f'<path d="M {hx0:.0f} {hy + 50:.0f} v 8 H {hx1:.0f} v -8" fill="none" stroke="#1b5e9b" '
                 'stroke-width="2" />')
    parts.append(f'<text x="{(hx0 + hx1) / 2:.0f}" y="{hy + 76:.0f}" font-size="13" text-anchor="middle" '
                 'fill="#1b5e9b">White\'s home board: points 1-6</text>')
    tw, th = left + bw + right, top + bh + bottom + 20
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{tw:.0f}" height="{th:.0f}" '
           f'viewBox="0 0 {tw:.0f} {th:.0f}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">'
           f'<rect width="100%" height="100%" fill="#ffffff" />{inner}{"".join(parts)}</svg>')
    return Picture(svg, width=width)


def narrate(variant_or_position: str | Position, actions: Sequence[Any]) -> Game:
    """Play ``actions`` (dice, plays, ``"keep"``, a number for named doubles) from the start of a
    variant, or from a position, and print what the engine says after each one."""
    if isinstance(variant_or_position, Position):
        game = Game(position=variant_or_position)
    else:
        game = Game(variant_or_position)
    width = max((len(str(a)) for a in actions), default=0)
    for action in actions:
        before = len(game.entries)
        try:
            game.apply(action)
        except BackgammonError as e:
            print(f"{action!s:<{width}}  refused: {e}")
            continue
        said = [ev.text for entry in game.entries[before:] for ev in entry.events]
        print(f"{action!s:<{width}}  {' '.join(said)}")
    return game


def lesson(rows: str | Iterable[str], **kwargs: Any) -> Any:
    """The exercises of some rule rows (``"M4"``, ``["G3", "G4"]``) as a course widget."""
    from ..widgets.exercise import lesson as make

    return make(rows, **kwargs)


def course(variant: str | None = None, **kwargs: Any) -> Any:
    """The whole course (or one variant's stages) as a course widget that keeps the learner's stars
    by itself (``rule_course.json`` in the data folder, unless ``progress_file`` says otherwise;
    see :class:`~backgammon_lab.widgets.exercise.CourseWidget`)."""
    from ..widgets.exercise import CourseWidget
    from .catalog import STAGES, stages_of

    kwargs.setdefault("progress_file", None)
    return CourseWidget(STAGES if variant is None else stages_of(variant), **kwargs)


def enters(pos: Position, dice: tuple[int, int]) -> bool:
    """True when some legal play of ``dice`` brings a checker in from the bar."""
    bar = pos.variant.bar
    return any(step.start == bar for play in legal_plays(pos, dice) for step in play.steps)


#: The 36 ordered rolls of two dice.
ROLLS_36 = tuple((a, b) for a in range(1, 7) for b in range(1, 7))


def head_to_head(start: Position, a: Any, b: Any, *, games: int = 200, seed: int = 7) -> float:
    """How often bot ``a`` beats bot ``b`` from ``start``, each rolling first in half of the games
    (seeded rollouts: the same numbers on every run)."""
    from ..analysis.options import Options
    from ..analysis.rollout import rollout

    first = rollout(start, Options(games=games // 2, seed=seed, bot=a), opponent=b)
    second = rollout(start, Options(games=games // 2, seed=seed, bot=b), opponent=a)
    return float((first.win + (1 - second.win)) / 2)


#: The rows of :func:`variant_table`: a label and the variant attribute it shows.
VARIANT_FACTS: tuple[tuple[str, str], ...] = (
    ("points", "points"), ("checkers each", "checkers"), ("most checkers on a point", "stacking_cap"),
    ("lower die first", "low_die_first"), ("bar checkers enter first", "bar_first"),
    ("exact bear-off only", "exact_bear_off"), ("opening: keep or roll again", "opening_choice"),
    ("doubles roll again", "doubles_roll_again"), ("1-2 is a Mexican", "mexican"),
    ("gammons and backgammons", "gammons"))


def variant_table(names: Sequence[str] = ("standard", "mexican", "minigam")) -> str:
    """What each variant changes, as the variants declare it (every rule the engine applies comes
    from these facts), as a plain-text table: one column per variant, ``yes``/``no`` for a rule,
    ``no limit`` for no stacking cap."""
    from ..variants import find_variant

    variants = [find_variant(n) for n in names]

    def cell(x: Any) -> str:
        return "no limit" if x is None else "yes" if x is True else "no" if x is False else str(x)

    lines = [f"{'':<28}" + "".join(f"{v.title:>22}" for v in variants)]
    lines += [f"{label:<28}" + "".join(f"{cell(getattr(v, attr)):>22}" for v in variants)
              for label, attr in VARIANT_FACTS]
    return "\n".join(lines)


def turns(cases: Sequence[tuple[str, str, tuple[int, int], Sequence[Any]]], *, width: int = 330) -> Picture:
    """Short turns, each ``(title, position string, dice, actions)``: play the actions after the dice,
    print what the engine says (the next player's "to roll" left out) and draw each start with its
    first play as arrows."""
    from ..svg import board

    pictures = []
    for title, text, dice, actions in cases:
        pos = Position.from_string(text)
        played = [a for a in actions if isinstance(a, str)][:1]
        pictures.append(board(pos, dice=dice, arrows=played, size=width,
                              caption=f"{title}: {dice[0]}-{dice[1]}{', ' + played[0] if played else ''}"))
        game = Game(pos.variant, position=pos, dice=dice)
        for action in actions:
            game.apply(action)
        said = [e.text for entry in game.entries[1:] for e in entry.events if not e.text.endswith(" to roll.")]
        print(f"{title} ({dice[0]}-{dice[1]}):")
        for line in said:
            print("    ", line)
    return show(*pictures, width=width)


def attempt(game: Game, action: Any) -> None:
    """Try one action (a play, ``"keep"`` or ``"reroll"``, a number 1-6 for named doubles, ``"roll"``
    for random dice) and print what happened in the engine's words; when the game cannot take it
    now, say what the game waits for instead (not an error's name)."""
    before = len(game.entries)
    label = f"name {action}-{action}" if type(action) is int else action
    try:
        if action == "roll":
            game.roll()
        elif action in ("keep", "reroll"):
            game.choose(action)
        elif label != action:
            game.name_doubles(action)
        else:
            game.apply(action)
    except GameError:
        state = "is over" if game.phase is Phase.OVER else "waits for this"
        print(f"{label}: not now. The game {state}: {game.state.hint()}.")
        return
    except BackgammonError as e:
        print(f"{label}: refused. {e}")
        return
    print(" ".join(ev.text for entry in game.entries[before:] for ev in entry.events))


def plain(text: str) -> str:
    """The text of an HTML message (tags dropped, entities read), for printing."""
    return html.unescape(re.sub(r"<[^>]+>", "", str(text))).strip()
