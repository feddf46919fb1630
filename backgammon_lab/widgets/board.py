"""The board widget: the picture comes from :mod:`backgammon_lab.svg`, the browser reports clicks.

:class:`BoardWidget` is an anywidget with four synced traits:

``svg``
    The board picture, drawn in Python by :func:`backgammon_lab.svg.board` (the only renderer).
``clicked``
    Set by the browser on every click, e.g. ``{"kind": "point", "value": 13, "seq": 4}``:
    ``kind`` is ``"point"`` (``value``: White's point number 1..N), ``"bar"`` / ``"off"``
    (``value``: ``"white"`` or ``"black"``), ``"die"`` (``value``: the die's index, from 0) or
    ``"background"`` (a click on nothing clickable) or ``"key"`` (``value``: one of
    :data:`KEYS`, a key pressed while the board has the keyboard focus). ``seq`` is a counter, so
    two identical clicks in a row are still two changes of the trait. ``drag`` is true on the
    click that ends a drag and ``pickup`` on the click that starts it (the browser reports a drag
    from a checker to a point as a click on each). Anything else is ignored with a message.
``message``
    One line of feedback shown under the board (a selection, a rule's explanation, a refusal).
``info``
    Facts about the picture (position string, turn, phase, selection, targets, dice left) that the
    browser copies onto the widget element as ``data-*`` attributes, for tests and tools.

Attached to a :class:`~backgammon_lab.game.Game`, the board plays by clicks: click a checker (or
the bar) to select it and see its legal destinations, click a destination to play that step, click
anywhere else to clear the selection. A checker can be dragged to its destination as well. Keys:
``n`` shows the next legal step (the checker selected, an arrow to where it goes), Enter plays the
step shown (or the selected checker's only one), Escape clears; ``u``/``r`` (undo, roll) go to
the host (the game widget). Without a game it only shows a position and hands its clicks
to the callbacks registered with :meth:`BoardWidget.on_click` (the position editor works so).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..engine import Phase, TurnState
from ..errors import BackgammonError, whole_number
from ..game import Game
from ..position import OFF, Player, Position, Step, other
from ..variants import Variant

__all__ = ["BoardWidget", "normalize_click", "board_kwargs", "board_kwargs_for_game", "KEYS", "place_name"]

_HERE = Path(__file__).parent

#: Keys of :func:`backgammon_lab.svg.board` that a board widget passes through unchanged.
RENDER_OPTIONS = ("orientation", "size", "theme", "show_pips", "names", "caption", "highlight", "arrows",
                  "numbers", "dice")

ClickHandler = Callable[[dict[str, Any]], bool | None]

#: The keys the browser reports (``{"kind": "key", "value": ...}``): ``next`` (show the next
#: legal step), ``play`` (play the step shown), ``clear``, and the host's ``undo``, ``redo``
#: and ``roll``.
KEYS = ("next", "play", "clear", "undo", "redo", "roll")


def normalize_click(raw: Any, points: int) -> tuple[dict[str, Any] | None, str]:
    """Check a ``clicked`` value from the browser: ``(click, "")`` or ``(None, reason)``.

    The result has ``kind`` and ``value`` (an int point 1..N, a colour, a die number or None)
    and ``shift`` (bool). Nothing here raises: bad input gives a reason in plain words.
    """
    if not isinstance(raw, dict):
        return None, f"Ignored a click message that is not a dict: {str(raw)[:60]!r}."
    kind = raw.get("kind")
    value = raw.get("value")
    shift = bool(raw.get("shift", False))
    if kind == "background":
        return {"kind": kind, "value": None, "shift": shift}, ""
    if kind == "key":
        if value not in KEYS:
            return None, f"Ignored an unknown key {str(value)[:30]!r}; keys: {', '.join(KEYS)}."
        return {"kind": kind, "value": value, "shift": shift}, ""
    if kind in ("point", "die"):
        if isinstance(value, float) and value.is_integer():  # JSON from the browser: 3.0 is 3
            value = int(value)
        try:
            value = whole_number(value, kind)
        except BackgammonError:
            return None, f"Ignored a {kind} click without a whole number: {str(value)[:30]!r}."
        if kind == "point" and not 1 <= value <= points:
            return None, f"There is no point {value} on a {points}-point board."
        return {"kind": kind, "value": value, "shift": shift, "drag": raw.get("drag") is True,
                "pickup": raw.get("pickup") is True}, ""
    if kind in ("bar", "off"):
        if value not in ("white", "black"):
            return None, f"Ignored a {kind} click for {str(value)[:30]!r}: it names 'white' or 'black'."
        return {"kind": kind, "value": value, "shift": shift, "drag": raw.get("drag") is True,
                "pickup": raw.get("pickup") is True}, ""
    return None, f"Ignored a click of unknown kind {str(kind)[:30]!r}."


def place_name(point: int, mover: Player, variant: Variant) -> str:
    """A place in ``mover``'s numbering in words, naming whose numbering it is:
    ``"Black's point 13"``, ``"the bar"``, ``"off"``. The board writes both numberings, the
    mover's in bold, so the words agree with what is under the checker."""
    if point == variant.bar:
        return "the bar"
    if point == OFF:
        return "off"
    return f"{mover.capitalize()}'s point {point}"


def board_kwargs(state: TurnState) -> dict[str, Any]:
    """The state-dependent keyword arguments of :func:`backgammon_lab.svg.board` for a game at
    ``state``: read from the engine's state alone (dice shown, dice left, named doubles, the roll
    again mark, the last play, the steps played so far this turn, the dice a turn just lost)."""
    kw: dict[str, Any] = {"reroll_due": state.phase is Phase.ROLL and state.reroll}
    ph = state.phase
    roll = state.roll
    if roll is not None and ph in (Phase.PLAY, Phase.CHOICE, Phase.NAME):
        if state.named and ph is Phase.PLAY:
            kw["dice"] = state.named_from.dice if state.named_from is not None else (1, 2)
            kw["named_double"] = roll.first
        else:
            kw["dice"] = roll.dice
        if ph is Phase.PLAY:
            kw["dice_left"] = list(state.dice_left)
    lp = state.last_play
    # The last play stays while the next player clicks its steps; inside one turn (a Mexican's
    # named doubles, a roll after doubles) the earlier play of the same player gives way to the
    # steps of this roll, so one set of numbered arrows shows at a time.
    own = lp is not None and lp.position.turn == state.player
    if lp is not None and lp.steps and not (own and state.steps):
        kw["lastmove"] = lp
    if state.steps:
        kw["played"] = list(state.steps)  # an arrow after each single step
    if ph is Phase.ROLL and state.lost:
        kw["lost_dice"] = list(state.lost)  # shown until the next roll
    return kw


def board_kwargs_for_game(game: Game) -> dict[str, Any]:
    """:func:`board_kwargs` of the game's current state."""
    return board_kwargs(game.state)


class BoardWidget(anywidget.AnyWidget):
    """A board in the notebook: shows a position (or a game's current state) and reports clicks.

    >>> from backgammon_lab import Position
    >>> BoardWidget(Position.start("minigam"))
    <BoardWidget minigam/w/barx8/barx8 selected=none>

    Render options (``orientation``, ``size``, ``theme``, ``show_pips``, ``names``, ``caption``,
    ``highlight``, ``arrows``, ``numbers``, and ``dice`` for a board without a game) go to
    :func:`backgammon_lab.svg.board`; change them later with :meth:`set_options`.
    ``orientation="mover"`` turns the board to the side to move (its home board at the bottom
    right, its numbering nearest the points).
    """

    _esm = _HERE / "board.js"
    _css = _HERE / "board.css"

    svg = traitlets.Unicode("").tag(sync=True)
    clicked = traitlets.Any({}).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    #: Facts about what is shown, mirrored by the browser as ``data-*`` attributes of the widget.
    info = traitlets.Dict({}).tag(sync=True)

    def __init__(self, position: Position | None = None, *, game: Game | None = None,
                 **options: Any) -> None:
        unknown = set(options) - set(RENDER_OPTIONS)
        if unknown:
            raise TypeError(f"BoardWidget got unknown option(s) {sorted(unknown)}; "
                            f"known: {', '.join(RENDER_OPTIONS)}")
        super().__init__()
        if position is None and game is None:
            position = Position.start("standard")
        self._position: Position = position if position is not None else game.position  # type: ignore[union-attr]
        self._game: Game | None = game
        self._options: dict[str, Any] = {k: v for k, v in options.items() if v is not None}
        self._click_handlers: list[ClickHandler] = []
        self._move_handlers: list[Callable[[], None]] = []
        self._selected: int | None = None
        self._selected_at: int = -1
        self._preview: Step | None = None  # the step the "next" key shows
        self._drawn: Any = None  # what the picture shows now (redraw skips an unchanged picture)
        #: Pictures rendered so far (a test counts one per click).
        self.renders = 0
        self.last_error: str | None = None
        self.observe(self._on_clicked, names="clicked")
        self.redraw()

    # -- what is shown -------------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The game played on this board (None for a board that only shows a position)."""
        return self._game

    @game.setter
    def game(self, game: Game | None) -> None:
        self._game = game
        self._selected = None
        if game is not None:
            self._position = game.position
        self.redraw()

    @property
    def position(self) -> Position:
        """The position shown (the game's current one when a game is attached)."""
        return self._game.position if self._game is not None else self._position

    @position.setter
    def position(self, position: Position) -> None:
        if self._game is not None:
            raise AttributeError("this board shows a game; change the game, not the position")
        self._position = position
        self._selected = None
        self.redraw()

    @property
    def options(self) -> dict[str, Any]:
        """The render options in use."""
        return dict(self._options)

    def set_options(self, **options: Any) -> None:
        """Change render options (``None`` removes one) and redraw."""
        self.show(None, **options)

    def show(self, position: Position | None = None, **options: Any) -> None:
        """Show ``position`` (when given; not on a game's board) with changed options, in one redraw.

        A refused change (an unknown option, or one the picture cannot be drawn with) raises and
        leaves the position, the selection and the options as they were."""
        if position is not None and self._game is not None:
            raise AttributeError("this board shows a game; change the game, not the position")
        unknown = set(options) - set(RENDER_OPTIONS)
        if unknown:
            raise TypeError(f"unknown board option(s) {sorted(unknown)}")
        before = (self._position, self._selected, self._options)
        new_options = dict(self._options)
        for k, v in options.items():
            if v is None:
                new_options.pop(k, None)
            else:
                new_options[k] = v
        if position is not None:
            self._position = position
            self._selected = None
        self._options = new_options
        try:
            self.redraw()  # draws before it assigns anything: a failure leaves the picture as it was
        except BaseException:
            self._position, self._selected, self._options = before
            raise

    @property
    def selected(self) -> int | None:
        """The selected start point in the mover's numbering (N+1 = the bar), or None."""
        if self._game is None or self._game.phase is not Phase.PLAY or self._selected_at != self._game.index:
            return None
        return self._selected

    def targets(self) -> list[int]:
        """Legal destinations of the selected checker, in the mover's numbering (0 = off)."""
        sel = self.selected
        if sel is None or self._game is None:
            return []
        return sorted({s.end for s in self._legal_steps() if s.start == sel}, reverse=True)

    @property
    def preview(self) -> Step | None:
        """The legal step the ``next`` key shows (its checker selected, an arrow to its end), or None."""
        if self.selected is None or self._preview is None or self._preview.start != self._selected:
            return None
        return self._preview

    def _legal_steps(self) -> list[Step]:
        assert self._game is not None
        return self._game.state.next_steps()

    def redraw(self, **extra: Any) -> None:
        """Render the picture from the current state (``extra``: one-off svg options).

        The picture is drawn once per change: a call that would draw the same state, selection and
        options again does nothing (a click that plays a step renders once, however many parts of
        the game widget ask for the board to be up to date).
        """
        from .. import svg as svgmod

        pos = self.position
        kw: dict[str, Any] = dict(self._options)
        phase = None
        sel = self.selected
        targets = self.targets() if sel is not None else []
        state = self._game.state if self._game is not None else None
        preview = self.preview
        if self._game is not None:
            assert state is not None
            kw.pop("dice", None)  # a game's board shows the game's dice
            kw.update(board_kwargs(state))
            phase = state.phase.value
            if sel is not None:
                kw["selected"] = sel
                kw["targets"] = targets
            if preview is not None:
                kw["arrows"] = [preview]
        kw.update(extra)
        if kw.get("orientation") == "mover":  # the board turns to the side to move
            kw["orientation"] = pos.turn
        key = (pos, state, id(state), sel, tuple(targets), preview,
               repr(sorted(kw.items(), key=lambda kv: kv[0])))
        if key == self._drawn and not extra:
            return
        picture = str(svgmod.board(pos, **kw))
        self.renders += 1
        self._drawn = key
        self.svg = picture
        self.info = {
            "position": pos.to_string(),
            "turn": pos.turn,
            "phase": phase,
            "selected": sel,
            "targets": targets,
            "dice_left": list(self._game.dice_left) if self._game is not None else [],
        }

    # -- clicks --------------------------------------------------------------------------------
    def on_click(self, handler: ClickHandler, remove: bool = False) -> None:
        """Call ``handler(click)`` first on every well-formed click; a true result consumes it."""
        if remove:
            self._click_handlers.remove(handler)
        else:
            self._click_handlers.append(handler)

    def on_move(self, handler: Callable[[], None], remove: bool = False) -> None:
        """Call ``handler()`` after a click played a step on the attached game."""
        if remove:
            self._move_handlers.remove(handler)
        else:
            self._move_handlers.append(handler)

    def click(self, kind: str, value: Any = None, *, shift: bool = False) -> None:
        """Click as the browser does (sets ``clicked`` with the next ``seq``)."""
        seq = (self.clicked.get("seq", 0) if isinstance(self.clicked, dict) else 0)
        if not isinstance(seq, int):
            seq = 0
        self.clicked = {"kind": kind, "value": value, "seq": seq + 1, "shift": shift}

    def clear_selection(self) -> None:
        """Forget the selected checker and redraw."""
        if self._selected is not None:
            self._selected = None
            self._preview = None
            self.redraw()

    def _on_clicked(self, change: dict[str, Any]) -> None:
        played = False
        try:
            # One message to the browser for the picture, its facts and the feedback line.
            with self.hold_sync():
                click, why = normalize_click(change["new"], self.position.variant.points)
                if click is None:
                    self.message = why
                    return
                for handler in list(self._click_handlers):
                    if handler(click):
                        return
                if self._game is not None:
                    played = self._key(click["value"]) if click["kind"] == "key" else self._play_click(click)
                elif click["kind"] == "key":
                    self.message = "Keys play a game; this board only shows a position."
            if played and self._move_handlers:  # the board is sent first; then the host catches up
                for after in list(self._move_handlers):
                    after()
        except Exception as e:  # noqa: BLE001 - a click must never raise in the kernel
            self.last_error = f"{type(e).__name__}: {e}"
            self.message = f"That click could not be handled ({type(e).__name__}: {e})."

    def _key(self, key: str) -> bool:
        """A key on a game's board: ``next`` shows the next legal step, ``play`` plays the step
        shown (or the selected checker's only step), ``clear`` clears. True if a step was played."""
        game = self._game
        assert game is not None
        if key in ("undo", "redo", "roll"):
            self.message = f"The {key} key belongs to the game widget around this board."
            return False
        if key == "clear":
            self._selected, self._preview = None, None
            self.message = ""
            self.redraw()
            return False
        if game.phase is not Phase.PLAY:
            self.message = self._not_now(game)
            return False
        n = game.variant.points
        mover = game.position.turn
        steps = sorted(set(self._legal_steps()), key=lambda s: (-s.start, -s.end, s.die))
        if key == "next":
            cur = self.preview
            i = steps.index(cur) + 1 if cur in steps else 0
            step = steps[i % len(steps)]
            self._selected, self._selected_at, self._preview = step.start, game.index, step
            self.message = (f"Step {i % len(steps) + 1} of {len(steps)}: {step.text(n)} "
                            f"({place_name(step.start, mover, game.variant)} to "
                            f"{place_name(step.end, mover, game.variant)}); "
                            "Enter plays it, n shows the next.")
            self.redraw()
            return False
        # play
        step_ = self.preview
        if step_ is None and self.selected is not None:
            mine = [s for s in steps if s.start == self.selected]
            if len({s.end for s in mine}) == 1:
                step_ = min(mine, key=lambda s: s.die)
        if step_ is None:
            self.message = "Press n to show a legal step (or select a checker with one destination), then Enter."
            return False
        self._play(step_)
        return True

    def _not_now(self, game: Game) -> str:
        """Why nothing on the board can be played now (a roll, a choice or naming is due, or the end)."""
        ph = game.phase
        return {
            "opening": "Roll the dice first: each player rolls one die to decide who starts.",
            "roll": f"{game.current_player.capitalize()} rolls first.",
            "choice": "First choose: keep the opening dice or roll both again.",
            "name": "First name the doubles to play.",
            "over": f"The game is over: {str(game.winner).capitalize()} has won.",
        }.get(ph, f"Nothing to click now (phase {ph}).")

    def _play_click(self, click: dict[str, Any]) -> bool:
        """Interpret a click on a game: select, play a step, clear, or explain. True if a step was played."""
        game = self._game
        assert game is not None
        ph = game.phase
        self._preview = None
        if click.get("drag") and self.selected is None:
            return False  # a drag whose checker could not be selected: its reason stays shown
        if ph is not Phase.PLAY:
            self._selected = None
            self.message = self._not_now(game)
            return False
        pos = game.position
        mover = pos.turn
        v = pos.variant
        kind, value = click["kind"], click["value"]
        if kind == "background":
            self._selected = None
            self.message = ""
            self.redraw()
            return False
        if kind == "die":
            self.message = (f"Dice left: {', '.join(map(str, game.dice_left))}. Click a checker, "
                            "then where it goes.")
            return False
        if kind == "point":
            target = v.renumber(value, mover)
        elif kind == "bar":
            if value != mover:
                self._selected = None
                self.message = f"That is {value.capitalize()}'s bar; it is {mover.capitalize()}'s turn."
                self.redraw()
                return False
            target = v.bar
        else:  # off
            if value != mover:
                self._selected = None
                self.message = f"That is {value.capitalize()}'s tray; {mover.capitalize()} bears off into its own."
                self.redraw()
                return False
            target = OFF
        steps = self._legal_steps()
        sel = self.selected
        if sel is not None:
            # A checker picked up for a drag is selected, never played onto.
            chosen = [] if click.get("pickup") else sorted(
                (s for s in steps if s.start == sel and s.end == target), key=lambda s: s.die)
            if chosen:
                self._play(chosen[0])
                return True
            if target == sel:
                if click.get("drag") or click.get("pickup"):  # a drag keeps its checker selected
                    return False
                self._selected = None
                self.message = ""
                self.redraw()
                return False
        if target != OFF and any(s.start == target for s in steps):
            self._selected = target
            self._selected_at = game.index
            ends = self.targets()
            where = ", ".join("off" if e == OFF else str(e) for e in ends)
            name = "The bar" if target == v.bar else f"Point {target}"
            self.message = f"{name} selected: it can go to {where}."
            self.redraw()
            return False
        self.message = self._explain(target, sel)
        self._selected = None
        self.redraw()
        return False

    def _play(self, step: Step) -> None:
        game = self._game
        assert game is not None
        n = game.variant.points
        game.step(step)
        self._selected, self._preview = None, None
        self.message = f"Played {step.text(n)}."
        self.redraw()

    def _explain(self, target: int, sel: int | None) -> str:
        """Why a click at ``target`` (mover's numbering) neither selects nor plays."""
        game = self._game
        assert game is not None
        st = game.state
        pos = game.position
        v = pos.variant
        if sel is not None:
            return st.explain((sel, target)).message
        if target == OFF:
            return "Select a checker first, then click the tray to bear it off."
        if pos.count(pos.turn, target) == 0:
            them = other(pos.turn)
            if target <= v.points and pos.count(them, v.flip(target)):
                return f"That point holds {them.capitalize()}'s checkers; it is {pos.turn.capitalize()}'s turn."
            name = "on the bar" if target == v.bar else f"on point {target}"
            return f"You have no checker {name}."
        for die in dict.fromkeys(game.dice_left):
            try:
                why = st.explain(Step(target, max(target - die, OFF), die))
            except BackgammonError:
                continue
            if not why.legal:
                return why.message
        return "That checker has no legal move now."

    def __repr__(self) -> str:
        sel = self.selected
        extra = ""
        if self._game is not None:
            extra = f" {self._game.phase.value}"
        return f"<BoardWidget {self.position.to_string()}{extra} selected={'none' if sel is None else sel}>"
