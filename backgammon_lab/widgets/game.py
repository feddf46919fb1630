"""The game widget: a whole game of any variant, played by clicks, drags, keys or from the list of
legal plays.

``backgammon_lab.play("mexican", seed=7)`` returns a :class:`GameWidget`. It holds a
:class:`~backgammon_lab.game.Game` (``widget.game``) and shows:

* a toolbar: the variant, the opponent (a human, the random bot, or any object with a
  ``choose(game)`` method), New game, Undo and Redo, and "Play forced moves" (a roll with one
  legal play is played at once);
* the board (:class:`~backgammon_lab.widgets.board.BoardWidget`), played by clicking or dragging
  checkers, or by keys when it has the focus (``u`` undo, ``r`` roll, ``n`` the next legal step,
  Enter to play it);
* the controls of the current decision: Roll (with a field for dice set by hand), the Mexican
  opening choice (keep or roll again), the six buttons naming doubles after a Mexican (each says
  whether those doubles can be played in full), and the legal plays as a list with a Play button;
* the tutor (the "Tutor" box, ``tutor=True``): each play, opening choice and naming of doubles
  judged as it is made by :func:`backgammon_lab.analysis.tutor.judge` (the loss against the best,
  in words, with the best play and yours drawn as arrows), and a Hint button;
* what the rules did, in plain words; the game record by turn ("3. White 5-2: 24/22 13/8"), the
  newest line in view and the shown point marked; a slider and buttons to step through the
  history. Looking at an earlier point is read-only until "Play from here" is pressed (the later
  actions are then replaced by what is played); Undo takes back and plays on at once.

Every fact shown is read from the engine's state and events (:mod:`backgammon_lab.engine`), and
rolls, plays and lost turns are in the engine's words (``event.text``, ``engine.play_text``,
``TurnLost.brief``): the widget writes none of its own.
"""

from __future__ import annotations

import html
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as w

from ..analysis.bots import Bot, RandomBot
from ..analysis.levels import LevelBot, find_level, level_names, levels_for
from ..engine import (
    DiceLost,
    DiceRerolled,
    DoublesNamed,
    GameOver,
    OpeningRolled,
    Phase,
    Played,
    Rolled,
    StepPlayed,
    TurnLost,
    TurnPassed,
    TurnState,
    after_play,
    play_text,
    player_name,
    roll_text,
)
from ..errors import BackgammonError, GameError
from ..game import Game, HistoryEntry
from ..position import BLACK, WHITE, Play, Player, Position, Roll, other
from ..rules import PlayList, legal_plays
from ..variants import VARIANTS
from .board import BoardWidget

__all__ = ["GameWidget", "RandomBot", "Bot", "LevelBot", "record_lines", "RecordLine"]


def _variant_options() -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for cls in VARIANTS.values():
        seen.setdefault(cls.name, cls.title)
    order = ["mexican", "minigam", "standard"]
    names = sorted(seen, key=lambda n: (order.index(n) if n in order else len(order), n))
    return [(seen[n], n) for n in names]


def _button(description: str, tooltip: str = "", width: str = "auto") -> w.Button:
    # flex "0 0 auto": a button keeps its label's width when space is short (two games side by side)
    return w.Button(description=description, tooltip=tooltip or description,
                    layout=w.Layout(width=width, flex="0 0 auto" if width == "auto" else None))


def _show(widget: w.Widget, visible: bool) -> None:
    widget.layout.display = None if visible else "none"


_MAX_BOT_ACTIONS = 2000


# The words for the engine's facts are the engine's: ``Event.text`` (the rules panel), and for the
# record ``roll_text``, ``Played.steps_text`` and the ``brief`` of the opening, a lost turn and the
# result; ``play_text`` writes a legal play.


@dataclass
class RecordLine:
    """One line of the record: a turn (``number`` 1, 2, ...) or the opening (``number`` None).

    ``first`` and ``last`` are the history points (``Game.index`` values) the line covers."""

    number: int | None
    player: Player
    first: int
    last: int
    segments: list[list[str]] = field(default_factory=list)  # [label, text] per roll of the turn
    pending: list[str] = field(default_factory=list)  # steps clicked, play not yet complete
    open: bool = True

    @property
    def text(self) -> str:
        """The line as players write it: ``3. White 5-2: 24/22 13/8``."""
        if self.number is None:
            return "; ".join(t for _l, t in self.segments)
        parts = []
        for i, (label, text) in enumerate(self.segments):
            if i == len(self.segments) - 1 and self.pending and not text:
                text = " ".join(self.pending) + " …"
            parts.append(f"{label}: {text}" if text else label)
        return f"{self.number}. {player_name(self.player)} " + "; ".join(parts)


def record_lines(entries: Sequence[HistoryEntry], points: int, start: int = 1) -> list[RecordLine]:
    """The record by turn, read from the events of ``entries`` (``entries[i]`` is history point
    ``start + i``): one line per turn with its rolls, plays, named doubles and re-rolls, and an
    opening line."""
    lines: list[RecordLine] = []
    turn: RecordLine | None = None
    count = 0

    def new_turn(player: Player, label: str, i: int) -> RecordLine:
        nonlocal count
        count += 1
        t = RecordLine(count, player, i, i, [[label, ""]])
        lines.append(t)
        return t

    for k, e in enumerate(entries):
        i = start + k
        if turn is not None and turn.open:
            turn.last = i
        for ev in e.events:
            if isinstance(ev, OpeningRolled):
                lines.append(RecordLine(None, ev.player, i, i, [["", ev.brief]], open=False))
                if ev.tie:
                    continue
                r = Roll(max(ev.white, ev.black), min(ev.white, ev.black))
                turn = new_turn(ev.player, roll_text(r) + (" (Mexican)" if r.is_mexican and
                                                           e.state.variant.mexican else ""), i)
            elif isinstance(ev, DiceRerolled) and turn is not None:
                turn.segments[-1][1] = "rolled again"
            elif isinstance(ev, Rolled):
                label = roll_text(ev.roll) + (" (Mexican)" if ev.mexican else "")
                if turn is not None and turn.open and turn.player == ev.player:
                    turn.segments.append([label, ""])
                else:
                    turn = new_turn(ev.player, label, i)
            elif turn is None:
                continue
            elif isinstance(ev, StepPlayed):
                turn.pending.append(ev.step.text(points))
            elif isinstance(ev, Played):
                turn.segments[-1][1] = ev.steps_text
                turn.pending = []
            elif isinstance(ev, DoublesNamed):
                turn.segments.append([f"named {ev.number}-{ev.number}", ""])
            elif isinstance(ev, TurnLost):
                turn.segments[-1][1] = ev.brief
            elif isinstance(ev, DiceLost):
                lost = ", ".join(map(str, e.state.lost))
                turn.segments[-1][1] += f" ({lost} lost)" if lost else ""
            elif isinstance(ev, GameOver):
                turn.segments.append([ev.brief, ""])
                turn.open = False
            elif isinstance(ev, TurnPassed):
                turn.open = False
    return lines


class GameWidget(w.VBox):
    """Play a game of any variant in the notebook.

    >>> gw = GameWidget("mexican", seed=7)
    >>> gw
    <GameWidget mexican opening white move 0/0 vs human>
    >>> gw.dice_text.value = "5-3"; gw.roll_button.click(); gw
    <GameWidget mexican choice white dice=5-3 move 1/1 vs human>

    ``opponent`` is ``"human"`` (both sides at this screen), ``"random"`` (:class:`RandomBot`), a
    level of :data:`~backgammon_lab.analysis.levels.LEVELS` (``"beginner"`` to ``"champion"``, a
    :class:`~backgammon_lab.analysis.levels.LevelBot` seeded from ``seed``) or any object with a
    ``choose(game)`` method; it plays ``bot_player``. ``position`` and ``dice``
    start from a given position instead of the opening. ``auto_forced`` plays a roll that has
    only one legal play at once (the "Play forced moves" box). ``review_options`` (an
    :class:`~backgammon_lab.analysis.options.Options`; None: the analysis's defaults) say how the
    Review button analyses the game. Board options (``orientation``, ``theme``, ``size``,
    ``show_pips``, ``names``) go to the renderer.
    """

    def __init__(self, variant: str = "mexican", seed: int | None = 0, *, opponent: Any = "human",
                 bot_player: Player = BLACK, position: Position | None = None, dice: Any = None,
                 auto_forced: bool = False, tutor: bool = False, review_options: Any = None,
                 **board_options: Any) -> None:
        super().__init__()
        if bot_player not in (WHITE, BLACK):
            raise ValueError(f"bot_player is 'white' or 'black', not {bot_player!r}")
        self.seed = seed
        self._seeds = random.Random(seed)
        self.bot_player: Player = bot_player
        self.bot: Any = None
        self._custom_bot: Any = None
        self._msg_from = 0
        self._busy = False
        self._busy_menu = False  # the opponent menu is being refilled (for another variant's levels)
        self._viewing = False  # looking at an earlier point: read-only until "Play from here"
        self._from_here = False  # "Play from here" was pressed: the next action starts a new line of play
        self._name_plays: tuple[Position | None, list[PlayList]] = (None, [])  # the plays of each named doubles
        self._len_before = 0
        self.game = Game(variant if position is None else position.variant, seed=seed, position=position,
                         dice=dice)
        board_options.setdefault("orientation", other(bot_player))
        self.board = BoardWidget(game=self.game, **board_options)
        self.board.on_click(self._board_click)
        self.board.on_move(self._after_human_move)

        # toolbar
        wide = {"description_width": "72px"}
        self.variant_choice = w.Dropdown(options=_variant_options(), value=self.game.variant.name,
                                         description="Variant", style=wide,
                                         layout=w.Layout(width="295px", flex="0 0 auto"))
        opp_options = _opponent_options(self.game.variant)
        if opponent is None or isinstance(opponent, bool):
            raise GameError(f"opponent is 'human', 'random', a level ({', '.join(level_names())}) or a bot "
                            f"object, not {opponent!r}")
        if not isinstance(opponent, str):
            if not callable(getattr(opponent, "choose", None)):
                raise TypeError(f"opponent must be 'human', 'random', a level or have a choose(game) method: "
                                f"{opponent!r}")
            self._custom_bot = opponent
            opp_options.append((_bot_label(opponent), "custom"))
            opponent = "custom"
        elif opponent not in ("human", "random"):
            try:
                opponent = find_level(opponent).name
            except ValueError:
                raise GameError(f"opponent is 'human', 'random', a level ({', '.join(level_names())}) or a bot "
                                f"object, not {opponent!r}") from None
            if opponent not in level_names(self.game.variant):
                raise GameError(f"{self.game.variant.title} has no level {opponent!r}: its levels are "
                                f"{', '.join(level_names(self.game.variant))}")
        self.opponent_choice = w.Dropdown(options=opp_options, value=opponent, description="Opponent",
                                          style=wide, layout=w.Layout(width="260px", flex="0 0 auto"))
        self.new_button = _button("New game", "Start a new game of the chosen variant")
        self.undo_button = _button("Undo", "Take back the last action (your last decision against a bot); key u")
        self.redo_button = _button("Redo", "Replay an action taken back")
        self.forced_check = w.Checkbox(value=bool(auto_forced), description="Play forced moves", indent=False,
                                       tooltip="A roll with only one legal play is played at once",
                                       layout=w.Layout(width="auto", flex="0 0 auto"))
        self.tutor_check = w.Checkbox(value=bool(tutor), description="Tutor", indent=False,
                                      tooltip="Judge each decision as it is made (exact for Mini-Gam, else the net)",
                                      layout=w.Layout(width="auto", flex="0 0 auto"))
        self.review_button = _button("Review", "Analyse the game so far: each decision's loss, the chart of the "
                                     "winning chance, the mistakes to look at again")
        self.review_button.add_class("bgl-review-button")
        toolbar = w.HBox([self.variant_choice, self.opponent_choice, self.new_button, self.undo_button,
                          self.redo_button, self.forced_check, self.tutor_check, self.review_button],
                         layout=w.Layout(flex_flow="row wrap"))

        # decisions
        self.status = w.HTML()
        self.roll_button = _button("Roll", "Roll the dice (seeded), or the dice typed beside; key r")
        self.dice_text = w.Text(value="", placeholder="dice by hand, e.g. 3-1",
                                layout=w.Layout(width="170px", flex="0 0 auto"))
        self.roll_box = w.HBox([self.roll_button, self.dice_text])
        self.keep_button = _button("Keep", "Play the two opening dice")
        self.reroll_button = _button("Roll again", "Roll both dice again (Mexican opening choice)")
        self.choice_box = w.HBox([self.keep_button, self.reroll_button], layout=w.Layout(flex_flow="row wrap"))
        self.name_buttons = [_button(f"{k}-{k}") for k in range(1, 7)]
        self.name_box = w.VBox([w.HTML("<b>Name the doubles to play:</b>"),
                                w.HBox(self.name_buttons, layout=w.Layout(flex_flow="row wrap"))])
        self.plays_hint = w.HTML()
        self.plays_list = w.Select(options=[], rows=8, layout=w.Layout(width="95%"))
        self.play_button = _button("Play", "Play the play chosen in the list", width="95%")
        self.plays_box = w.VBox([self.plays_hint, self.plays_list, self.play_button])
        self.branch_note = w.HTML()
        self.branch_button = _button("Play from here", "Play on from the point shown: what you play replaces "
                                     "the later actions")
        self.branch_box = w.VBox([self.branch_note, self.branch_button])
        self.messages = w.HTML()
        self.hint_button = _button("Hint", "The tutor's best choice here (the best play drawn on the board)")
        self.tutor_box = w.HTML()
        #: The tutor's verdicts on this game's decisions, newest last (``analysis.tutor.Verdict``).
        self.verdicts: list[Any] = []
        side = w.VBox([self.status, self.branch_box, self.roll_box, self.choice_box, self.name_box,
                       self.plays_box, self.hint_button, self.tutor_box, self.messages],
                      layout=w.Layout(width="380px", min_width="380px", padding="0 0 0 12px",
                                      overflow="hidden"))

        # history and record
        self.history_slider = w.IntSlider(value=0, min=0, max=0, description="Move",
                                          continuous_update=False, layout=w.Layout(width="360px"))
        self.first_button = _button("Start", "Go to the start")
        self.back_button = _button("◀", "One action back")
        self.forward_button = _button("▶", "One action forward")
        self.last_button = _button("End", "Go to the latest action")
        history = w.HBox([self.first_button, self.back_button, self.history_slider, self.forward_button,
                          self.last_button], layout=w.Layout(flex_flow="row wrap"))
        self.record = w.HTML()

        # the review (the Review button): the analysis of the game so far
        self.review_options = review_options
        #: The last review's analysis (:class:`~backgammon_lab.analysis.analyse.Analysis`), or None.
        self.analysis: Any = None
        self._review: _Review | None = None
        self.review_summary = w.HTML()
        self.review_chart = w.HTML()
        self.review_list = w.VBox(layout=w.Layout(max_height="16em", overflow="auto"))
        self.review_detail = w.HTML()
        self.review_close = _button("Close the review", "Hide the review")
        self.review_box = w.VBox([self.review_summary, self.review_chart, self.review_list, self.review_detail,
                                  self.review_close], layout=w.Layout(border="1px solid #cccccc", padding="6px"))
        self.review_box.add_class("bgl-review")
        _show(self.review_box, False)

        self.children = [toolbar, w.HBox([self.board, side], layout=w.Layout(flex_flow="row wrap",
                                                                               align_items="flex-start")),
                         history, self.record, self.review_box]

        self.new_button.on_click(lambda _b: self.new_game())
        self.undo_button.on_click(lambda _b: self._undo())
        self.redo_button.on_click(lambda _b: self._redo())
        self.roll_button.on_click(lambda _b: self._roll())
        self.keep_button.on_click(lambda _b: self._act(lambda: self.game.choose("keep")))
        self.reroll_button.on_click(lambda _b: self._act(lambda: self.game.choose("reroll")))
        for k, b in enumerate(self.name_buttons, 1):
            b.on_click(lambda _b, k=k: self._act(lambda: self.game.name_doubles(k)))
        self.play_button.on_click(lambda _b: self._play_selected())
        self.branch_button.on_click(lambda _b: self.play_from_here())
        self.hint_button.on_click(lambda _b: self.hint())
        self.review_button.on_click(lambda _b: self._review_clicked())
        self.review_close.on_click(lambda _b: self.close_review())
        self.tutor_check.observe(lambda _c: self.refresh(), names="value")
        self.first_button.on_click(lambda _b: self._goto(0))
        self.back_button.on_click(lambda _b: self._goto(self.game.index - 1))
        self.forward_button.on_click(lambda _b: self._goto(self.game.index + 1))
        self.last_button.on_click(lambda _b: self._goto(len(self.game) - 1))
        self.history_slider.observe(self._on_slider, names="value")
        self.variant_choice.observe(lambda _c: self.new_game(), names="value")
        self.opponent_choice.observe(self._on_opponent, names="value")
        self.forced_check.observe(self._on_forced, names="value")
        self._set_opponent(opponent)
        self._msg_from = 0
        self._run_bot()
        self.refresh()

    # -- options -------------------------------------------------------------------------------
    @property
    def auto_forced(self) -> bool:
        """True when a roll with one legal play is played at once ("Play forced moves")."""
        return bool(self.forced_check.value)

    @auto_forced.setter
    def auto_forced(self, value: bool) -> None:
        self.forced_check.value = bool(value)

    def _on_forced(self, change: dict[str, Any]) -> None:
        if change["new"] and not self._viewing:
            start = self.game.index
            if self._play_forced():
                self._run_bot()
                self._msg_from = start
            self.refresh()

    @property
    def viewing(self) -> bool:
        """True while an earlier point of the game is shown read-only (after Start, ◀, ▶ or the
        slider); :meth:`play_from_here` or End leaves it."""
        return self._viewing and self.game.can_redo

    # -- opponent ------------------------------------------------------------------------------
    def _set_opponent(self, value: str) -> None:
        if value == "random":
            self.bot = RandomBot(self._seeds.randrange(2**31) if self.seed is not None else None)
        elif value in level_names():
            self.bot = LevelBot(value, self._seeds.randrange(2**31) if self.seed is not None else 0)
        elif value == "custom":
            self.bot = self._custom_bot
        else:
            self.bot = None
        level = self.bot.level if isinstance(self.bot, LevelBot) else None
        self.opponent_choice.tooltip = f"{level.title}: {level.words}" if level is not None else f"Who plays {self.bot_player.capitalize()}"

    def _offer_levels(self) -> None:
        """The opponent menu with the levels of the game's variant; a level the variant lacks gives
        way to the next stronger one it has."""
        options = _opponent_options(self.game.variant, self._custom_bot)
        values = [v for _, v in options]
        now = self.opponent_choice.value
        if values == [v for _, v in self.opponent_choice.options]:
            return
        if now not in values:
            names = level_names()
            now = next(n for n in names[names.index(now):] if n in values)
        self._busy_menu = True
        try:
            self.opponent_choice.options = options
            self.opponent_choice.value = now
        finally:
            self._busy_menu = False
        self._set_opponent(now)

    def _on_opponent(self, change: dict[str, Any]) -> None:
        if self._busy_menu:
            return
        self._set_opponent(change["new"])
        start = self.game.index
        if not self.viewing:
            self._run_bot()
        self._msg_from = start if self.game.index != start else self._msg_from
        self.refresh()

    @property
    def opponent(self) -> str:
        """``"human"``, ``"random"``, a level's name (``"beginner"`` ...) or ``"custom"``."""
        return str(self.opponent_choice.value)

    def _bot_to_act(self) -> bool:
        g = self.game
        return self.bot is not None and g.phase not in (Phase.OVER, Phase.OPENING) and g.current_player == self.bot_player

    def _run_bot(self) -> None:
        """Let the bot act (roll and decide) until it is the human's turn or the game ends; forced
        plays of the human are played on the way when "Play forced moves" is on."""
        g = self.game
        start = g.index

        def decide(st: TurnState) -> Any:
            if self._bot_to_act():
                return self.bot.choose(g)  # type: ignore[union-attr]  # _bot_to_act: there is a bot
            return self._decide_forced(st)

        def until(st: TurnState) -> bool:
            return not self._bot_to_act() and self._forced(st) is None

        try:
            g.play_on(decide, until=until, max_actions=_MAX_BOT_ACTIONS)
        except Exception as e:  # noqa: BLE001 - a bot's failure is reported, never raised
            if g.index - start >= _MAX_BOT_ACTIONS:
                self.board.message = f"The bot took more than {_MAX_BOT_ACTIONS} actions; it was stopped."
            else:
                self.board.message = f"The bot could not act ({type(e).__name__}: {e})."

    def _play_forced(self) -> bool:
        """With "Play forced moves" on, play the human's only legal play; True if one was played."""
        g = self.game
        index = g.index
        g.play_on(self._decide_forced, until=lambda st: self._forced(st) is None)
        return g.index > index

    def _decide_forced(self, st: TurnState) -> Play:
        forced = self._forced(st)
        assert forced is not None and st.roll is not None  # the loop's until() stops otherwise
        self.board.message = f"Forced: {player_name(st.player)} plays {play_text(forced, st.roll)} (the only legal play)."
        return forced

    def _forced(self, st: TurnState) -> Play | None:
        """With "Play forced moves" on, the human's only legal play (or the only way to finish the
        steps clicked), else None."""
        if not self.auto_forced or st.phase is not Phase.PLAY or self._bot_to_act():
            return None
        only = st.completions()
        return only[0] if len(only) == 1 else None

    # -- actions -------------------------------------------------------------------------------
    def new_game(self, variant: str | None = None) -> None:
        """Start a new game (of ``variant``, else the one chosen in the toolbar)."""
        if variant is not None and variant != self.variant_choice.value:
            self.variant_choice.value = variant  # its observer calls back here
            return
        seed = self._seeds.randrange(2**31) if self.seed is not None else None
        self.game = Game(str(self.variant_choice.value), seed=seed)
        self._offer_levels()
        self.board.game = self.game
        self.board.message = f"New game of {self.game.variant.title}."
        self.tutor_box.value = ""
        self.close_review()
        self._msg_from = 0
        self._viewing = self._from_here = False
        self.refresh()

    @classmethod
    def from_game(cls, game: Game, **options: Any) -> GameWidget:
        """A widget showing ``game`` (for example ``load_match("m.mat").game(1)``), at its first
        position: the history buttons and the slider step through its moves, and "Play from here"
        plays on from any of them. ``options`` are the constructor's (``opponent``, ``tutor``, ...)."""
        if not isinstance(game, Game):
            raise GameError(f"GameWidget.from_game takes a Game, not {game!r}")
        w = cls(game.variant.name, seed=None, **options)
        w.game = game
        w.board.game = game
        w.board.message = f"{game.variant.title}: a game of {len(game) - 1} moves."
        if len(game) > 1:
            w._goto(0)
        else:
            w.refresh()
        return w

    @classmethod
    def from_match(cls, match: Any, game: int = 1, *, review: bool = True, **options: Any) -> GameWidget:
        """A widget showing game ``game`` (1 = the first) of an imported match: a
        :class:`~backgammon_lab.matchfiles.Match` or the path of a match file
        (:func:`~backgammon_lab.matchfiles.load_match`: .mat, .sgf or the .mat-style text of
        Mexican and Mini-Gam), reviewed at once unless ``review=False``. ``options`` are the
        constructor's (``review_options``, ...)."""
        from pathlib import Path

        from ..matchfiles import Match, load_match

        if isinstance(match, (str, Path)):
            match = load_match(match)
        if not isinstance(match, Match):
            raise GameError(f"GameWidget.from_match takes a Match or the path of a match file, not {match!r:.200}")
        out = cls.from_game(match.game(game), **options)
        if review:
            out.review()
        return out

    def play_from_here(self) -> None:
        """Leave the read-only view of an earlier point: the next action plays on from it and
        replaces the later actions."""
        g = self.game
        if not self.viewing:
            self.board.message = "This is the latest point of the game: play on."
            self._viewing = False
            self.refresh()
            return
        self._viewing = False
        self._from_here = True
        later = len(g) - 1 - g.index
        self.board.message = (f"Playing on from move {g.index}: what you play now replaces the {later} later "
                              f"action{'s' if later != 1 else ''} (Redo brings them back until then).")
        self.refresh()

    def _viewing_text(self) -> str:
        g = self.game
        later = len(g) - 1 - g.index
        return (f"Move {g.index} of {len(g) - 1} is shown. “Play from here” plays on from it (replacing "
                f"the {later} later action{'s' if later != 1 else ''}); “End” goes back to the latest move.")

    def _act(self, fn: Any) -> bool:
        """Run one human action, then the bot; show what the rules did. False if refused."""
        if self._busy:
            self.board.message = "Still busy with the last action."
            return False
        if self.viewing:
            self.board.message = self._viewing_text()
            return False
        if self._bot_to_act():
            self.board.message = self._bot_turn_text()
            return False
        g = self.game
        start, before = g.index, len(g)
        self._busy = True
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - a refused action is reported, never raised
            self.board.message = str(e) if isinstance(e, BackgammonError) else f"{type(e).__name__}: {e}"
            self.refresh()
            return False
        finally:
            self._busy = False
        self.board.message = self._replaced_text(start, before)
        self._play_forced()
        self._judge_since(start)
        self._run_bot()
        self._msg_from = start
        self.refresh()
        return True

    def _replaced_text(self, start: int, before: int) -> str:
        """The note that an action replaced the later ones: only after "Play from here" (a plain
        Undo followed by a new action is an ordinary take-back, said by nothing more)."""
        later = before - 1 - start
        if later <= 0 or not self._from_here:
            return ""
        self._from_here = False
        were = "actions were" if later != 1 else "action was"
        return f"A new line of play from move {start}: the {later} later {were} replaced."

    def _bot_turn_text(self) -> str:
        return (f"It is {self.bot_player.capitalize()}'s turn, played by the bot: press "
                f"“{self.roll_button.description}” to let it play.")

    def _roll(self) -> None:
        if self.viewing:
            self.board.message = self._viewing_text()
            return
        if self._bot_to_act():
            start = self.game.index
            self._run_bot()
            self._msg_from = start
            self.board.message = ""
            self.refresh()
            return
        text = self.dice_text.value.strip()
        if self.game.phase not in (Phase.OPENING, Phase.ROLL):
            self.board.message = "No roll is due now."
            return
        if text:
            try:
                dice = Roll.parse(text)
            except ValueError as e:  # BackgammonError, or a stray ValueError of odd digits: shown, never raised
                self.board.message = f"{e}" if isinstance(e, BackgammonError) else f"cannot read the dice {text[:40]!r}"
                return
            if self._act(lambda: self.game.roll(dice)):
                self.dice_text.value = ""
        else:
            self._act(lambda: self.game.roll())

    def _play_selected(self) -> None:
        idx = self.plays_list.value
        actions = self._play_actions()
        if idx is None or not isinstance(idx, int) or not 0 <= idx < len(actions):
            self.board.message = "Choose a play in the list first."
            return
        self._act(lambda: self.game.play(actions[idx]))

    def _after_human_move(self) -> None:
        """The board played a step by a click: let the bot go on if the turn passed, then refresh."""
        start = self.game.index - 1
        note = self._replaced_text(start, self._len_before)
        if note:
            self.board.message = f"{self.board.message} {note}"
        self._judge_since(start)
        self._run_bot()
        self._msg_from = start
        self.refresh()

    def _board_click(self, click: dict[str, Any]) -> bool:
        """Keys for the game (undo, redo, roll); refuse clicks the board should not interpret; a
        die click rolls when a roll is due."""
        if self._busy:
            self.board.message = "Still busy with the last action."
            return True
        kind, value = click["kind"], click["value"]
        if kind == "key" and value in ("undo", "redo", "roll"):
            {"undo": self._undo, "redo": self._redo, "roll": self._roll}[value]()
            return True
        if self.viewing and kind != "key":
            self.board.message = self._viewing_text()
            return True
        if self._bot_to_act():
            self.board.message = self._bot_turn_text()
            return True
        if kind == "die" and self.game.phase in (Phase.OPENING, Phase.ROLL):
            self._roll()
            return True
        self._len_before = len(self.game)
        return False

    def _undo(self) -> None:
        g = self.game
        if not g.can_undo:
            self.board.message = "Nothing to undo."
            return
        g.undo()
        while self.bot is not None and g.can_undo and self._bot_to_act():
            g.undo()
        self._viewing = self._from_here = False
        self._after_history("Undone.")

    def _redo(self) -> None:
        g = self.game
        if not g.can_redo:
            self.board.message = "Nothing to redo."
            return
        g.redo()
        while self.bot is not None and g.can_redo and self._bot_to_act():
            g.redo()
        self._viewing = self._from_here = False
        self._after_history("Redone.")

    def _goto(self, index: int) -> None:
        if not 0 <= index <= len(self.game) - 1:
            self.board.message = "No further move that way."
            return
        self.game.goto(index)
        self._viewing = self.game.can_redo
        self._from_here = False
        text = f"Showing move {index} of {len(self.game) - 1}."
        if self._viewing:
            text += " Press “Play from here” to play on from it."
        self._after_history(text)

    def _on_slider(self, change: dict[str, Any]) -> None:
        if self._busy or change["new"] == self.game.index:
            return
        self._goto(int(change["new"]))

    def _after_history(self, text: str) -> None:
        self._msg_from = max(self.game.index - 1, 0)
        self.board.message = text
        self.refresh()

    # -- the tutor -----------------------------------------------------------------------------
    @property
    def tutor(self) -> bool:
        """True when each decision is judged as it is made (the "Tutor" box)."""
        return bool(self.tutor_check.value)

    @tutor.setter
    def tutor(self, value: bool) -> None:
        self.tutor_check.value = bool(value)

    def _judge_since(self, start: int) -> None:
        """Judge the human's decisions among the history points after ``start`` (before the bot
        plays): a play (when its last step or the whole play is made), a keep/re-roll, a naming."""
        if not self.tutor:
            return
        from ..engine import Choice, MakePlay, MakeStep, NameDoubles

        g = self.game
        entries = g.entries
        for i in range(start + 1, len(entries)):
            e, before = entries[i], entries[i - 1].state
            if before.player == self.bot_player and self.bot is not None:
                continue
            choice: Any = None
            if isinstance(e.action, (MakePlay, MakeStep)):
                choice = next((ev.play for ev in e.events if isinstance(ev, Played)), None)
            elif isinstance(e.action, (Choice, NameDoubles)):
                choice = e.action
            if choice is not None:
                self._judge(before, choice)

    def _judge(self, state: Any, choice: Any) -> None:
        from ..analysis.tutor import judge

        try:
            v = judge(state, choice)
        except Exception as e:  # noqa: BLE001 - the tutor's failure is shown, never raised
            why = str(e) if isinstance(e, BackgammonError) else f"{type(e).__name__}: {e}"
            self.tutor_box.value = (f"<div data-role='tutor' data-mark='none' style='white-space:normal'>"
                                    f"<b>Tutor:</b> cannot judge here ({html.escape(why)}).</div>")
            return
        self.verdicts.append(v)
        mark = f" <i>({html.escape(v.mark)})</i>" if v.mark else ""
        how = "exact" if v.method == "exact" else "the net"
        picture = ""
        if v.kind == "play" and not v.is_best and v.best_play is not None and isinstance(choice, Play):
            from .. import svg

            picture = str(svg.board(state.turn_start, arrows=[v.best_play, choice], size=300, show_pips=False,
                                    caption="Pink: the best play. Blue: yours."))
        self.tutor_box.value = (f"<div data-role='tutor' data-mark='{html.escape(v.mark or 'best')}' "
                                f"style='white-space:normal;line-height:1.4'><b>Tutor</b> ({how}): "
                                f"{html.escape(v.sentence)}{mark}</div>{picture}")

    def hint(self) -> None:
        """The tutor's best choice now, in words (and, at the start of a play, the best play drawn
        as arrows on the board)."""
        from ..analysis.tutor import judge

        g = self.game
        st = g.state
        if self.viewing or self._bot_to_act() or st.phase not in (Phase.PLAY, Phase.CHOICE, Phase.NAME):
            self.board.message = "A hint is given at your decisions: a play, the opening choice, naming doubles."
            return
        any_choice: Any = {Phase.PLAY: lambda: st.plays[0] if st.plays else None,
                           Phase.CHOICE: lambda: "keep", Phase.NAME: lambda: 1}[st.phase]()
        try:
            v = judge(st, any_choice)
        except Exception as e:  # noqa: BLE001 - shown, never raised
            self.board.message = f"No hint here: {e}" if isinstance(e, BackgammonError) else f"No hint: {e!r}"
            return
        if v.kind == "play":
            self.board.message = f"Hint: the best play is {v.best_text} (win {v.best_win * 100:.1f}%)."
            if not st.steps and v.best_play is not None:
                self.board.redraw(arrows=[v.best_play])
            return
        best = {"keep": "keep the opening dice", "reroll": "roll both dice again"}.get(v.best_text,
                                                                                      f"name {v.best_text}")
        self.board.message = f"Hint: {best} (win {v.best_win * 100:.1f}%)."


    def play_rest(self, bot: Any, max_actions: int = 5000) -> None:
        """Play the rest of the game with ``bot`` (any object with ``choose(game)``) on the side
        of this screen, the opponent on its own side: what a notebook does to show a whole game
        against a level without clicks. The dice are the game's (seeded)."""
        if not callable(getattr(bot, "choose", None)):
            raise GameError(f"play_rest takes a bot with a choose(game) method, not {bot!r:.200}")
        if self.viewing:
            raise GameError(self._viewing_text())
        g = self.game
        start = g.index

        def decide(_st: TurnState) -> Any:
            return (self.bot if self._bot_to_act() else bot).choose(g)

        g.play_on(decide, max_actions=max_actions)
        self._judge_since(start)
        self._msg_from = start
        self.board.message = "The game was played to its end."
        self.refresh()

    # -- the review ----------------------------------------------------------------------------
    def review(self, options: Any = None) -> Any:
        """Analyse the game so far (every action played, also those after the point shown) and
        show the review: each side's error rate, marks and luck, the chart of White's winning
        chance with the marked decisions, and the marked decisions as buttons; pressing one goes
        to that position with the play made and the better play drawn. Returns the
        :class:`~backgammon_lab.analysis.analyse.Analysis` (also ``widget.analysis``).

        ``options``: the analysis's (:class:`~backgammon_lab.analysis.options.Options`; default
        the widget's ``review_options``, else the analysis's defaults)."""
        from ..analysis.analyse import analyse

        g = self.game
        here = g.index
        g.goto(len(g) - 1)
        try:
            record = g.record()
        finally:
            g.goto(here)
        record.pop("pending_steps", None)
        replay = Game.from_record(record)
        a = analyse(replay, options if options is not None else self.review_options)
        self.analysis = a
        self._review = _Review(replay, a, _index_map(replay, g.entries + g.redo_entries))
        self._show_review(None)
        return a

    def _review_clicked(self) -> None:
        try:
            self.review()
        except Exception as e:  # noqa: BLE001 - shown, never raised
            why = str(e) if isinstance(e, BackgammonError) else f"{type(e).__name__}: {e}"
            self.review_summary.value = (f"<div data-role='review-summary' style='white-space:normal'>"
                                         f"No review: {html.escape(why)}</div>")
            self.review_chart.value = self.review_detail.value = ""
            self.review_list.children = ()
            _show(self.review_box, True)

    def close_review(self) -> None:
        """Hide the review (a new game closes it too)."""
        self._review = None
        self.analysis = None
        _show(self.review_box, False)

    @property
    def marked(self) -> list[Any]:
        """The marked decisions of the last review (:class:`~backgammon_lab.analysis.analyse.DecisionAnalysis`), in order."""
        return [] if self._review is None else list(self._review.marked)

    def show_decision(self, i: int) -> None:
        """Go to the position of the review's marked decision ``i`` (0 = the first listed) and draw
        the play made (blue) and the better play (pink)."""
        r = self._review
        if r is None:
            raise GameError("no review yet: press Review (or call review()) first")
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(r.marked):
            raise GameError(f"no marked decision {i!r}: the review lists {len(r.marked)} (numbered from 0)")
        d = r.marked[i]
        before = r.index_map.get(d.number - 1)
        if before is not None:
            self._goto(before)
        self._show_review(i)

    def _show_review(self, chosen: int | None) -> None:
        from .. import svg

        r = self._review
        assert r is not None
        a = r.analysis
        self.review_summary.value = (_summary_html(a, r.replay) + "<details data-role='review-table'><summary>Every "
                                     f"decision ({len(a.decisions)})</summary>{a.table()._repr_html_()}</details>")
        current = r.marked[chosen].number if chosen is not None else None
        self.review_chart.value = (f"<div data-role='review-chart'>"
                                   f"{svg.win_chart(a.chart, marks=a.chart_marks(), current=current, width=560, height=220, title=_chart_title(a))}"
                                   "</div>")
        buttons = []
        for k, d in enumerate(r.marked):
            b = _button(_decision_label(d), "Go to this position: the play made and the better play drawn",
                        width="100%")
            b.add_class("bgl-review-decision")
            b.button_style = "warning" if k == chosen else ""
            b.layout.justify_content = "flex-start"
            b.on_click(lambda _b, k=k: self.show_decision(k))
            buttons.append(b)
        self.review_list.children = tuple(buttons) if buttons else (
            w.HTML("<div data-role='review-none'>No decision lost 0.04 or more: nothing marked.</div>"),)
        self.review_detail.value = "" if chosen is None else self._decision_html(r, r.marked[chosen])
        _show(self.review_box, True)

    def _decision_html(self, r: _Review, d: Any) -> str:
        """The chosen decision in words, with the board before it and both plays drawn."""
        from .. import svg

        words = _decision_words(d)
        picture = ""
        if d.kind == "play":
            prev = r.replay.entries[d.number - 1].state
            played = r.replay.entries[d.number].action
            best = next((p for p in (prev.plays or ()) if tuple((s.start, s.end) for s in p.steps) == d.best_steps),
                        None)
            mine = getattr(played, "play", None)
            arrows = [p for p in (best, mine) if p is not None]
            if arrows:
                self.board.redraw(arrows=arrows)
                picture = str(svg.board(prev.turn_start, dice=prev.roll, arrows=arrows, size=320, show_pips=False,
                                        caption="Pink: the better play. Blue: the play made."))
        return (f"<div data-role='review-detail' data-number='{d.number}' data-mark='{html.escape(d.mark)}' "
                f"style='white-space:normal;line-height:1.4'>{html.escape(words)}</div>{picture}")

    # -- display -------------------------------------------------------------------------------
    def _play_actions(self) -> list[Any]:
        g = self.game
        if g.phase is not Phase.PLAY:
            return []
        return list(g.legal_actions())

    def refresh(self) -> None:
        """Bring every part of the widget up to date with the game."""
        g = self.game
        ph = g.phase
        self._busy = True
        try:
            self.board.redraw()
            self.status.value = (f"<div data-role='status' style='font-weight:bold'>{html.escape(self._status_text())}"
                                 f"</div><div data-role='pips'>{html.escape(self._pips_text())}</div>")
            viewing = self.viewing
            _show(self.branch_box, viewing)
            if viewing:
                self.branch_note.value = (f"<div data-role='viewing' style='white-space:normal'>"
                                          f"{html.escape(self._viewing_text())}</div>")
            bot_turn = self._bot_to_act()
            _show(self.roll_box, (ph in (Phase.OPENING, Phase.ROLL) or bot_turn) and not viewing)
            self.roll_button.description = "Let the bot play" if bot_turn else "Roll"
            self.dice_text.disabled = bot_turn
            _show(self.choice_box, ph is Phase.CHOICE and not bot_turn and not viewing)
            if ph is Phase.CHOICE and g.dice is not None:
                self.keep_button.description = f"Keep {g.dice}"
            _show(self.name_box, ph is Phase.NAME and not bot_turn and not viewing)
            if ph is Phase.NAME:
                self._label_name_buttons()
            self._fill_plays(ph is Phase.PLAY and not bot_turn and not viewing)
            _show(self.hint_button, self.tutor and ph in (Phase.PLAY, Phase.CHOICE, Phase.NAME) and not bot_turn and not viewing)
            _show(self.tutor_box, self.tutor and bool(self.tutor_box.value))
            self.undo_button.disabled = not g.can_undo
            self.redo_button.disabled = not g.can_redo
            self.first_button.disabled = self.back_button.disabled = not g.can_undo
            self.forward_button.disabled = self.last_button.disabled = not g.can_redo
            self.history_slider.max = len(g) - 1
            self.history_slider.value = g.index
            self.messages.value = self._messages_html()
            self.record.value = self._record_html()
        finally:
            self._busy = False

    def _pips_text(self) -> str:
        pos = self.game.position
        return f"Pips: White {pos.pip_count(WHITE)}, Black {pos.pip_count(BLACK)}."

    def _status_text(self) -> str:
        g = self.game
        st = g.state
        who = g.current_player.capitalize()
        ph = g.phase
        if ph is Phase.OPENING:
            return "Opening roll: press Roll (each player rolls one die)."
        if ph is Phase.ROLL:
            again = " again" if st.reroll else ""
            return f"{who} to roll{again}."
        if ph is Phase.CHOICE:
            assert st.roll is not None
            mex = " (a Mexican!)" if st.mexican else ""
            return f"{who} won the opening with {roll_text(st.roll)}{mex}: keep those dice or roll both again."
        if ph is Phase.NAME:
            return f"{who} rolled a Mexican and names doubles."
        if ph is Phase.PLAY:
            assert st.roll is not None
            left = ", ".join(map(str, g.dice_left))
            if st.named:
                return f"{who} to play the named {roll_text(st.roll)}; dice left: {left}."
            if st.mexican:
                return (f"{who} to play {roll_text(st.roll)}: a Mexican! Play both dice, the 1 first, then name "
                        f"any doubles; dice left: {left}.")
            return f"{who} to play {roll_text(st.roll)}; dice left: {left}."
        pts = g.points
        return f"Game over: {str(g.winner).capitalize()} wins {pts} point{'s' if pts != 1 else ''}."

    def _label_name_buttons(self) -> None:
        pos = self.game.position
        if self._name_plays[0] != pos:  # the six searches run once per naming, not per refresh
            self._name_plays = (pos, [legal_plays(pos, (k, k)) for k in range(1, 7)])
        for k, b in enumerate(self.name_buttons, 1):
            plays = self._name_plays[1][k - 1]
            n = plays.length
            # what follows naming k-k, in the engine's words (its Outcome's event)
            said = after_play(pos, Roll(k, k), plays[0], named=True).event(pos.turn)
            b.tooltip = f"Name {k}-{k}: {said.text}" if said is not None else f"Name {k}-{k}"
            if n == 4:
                b.description = f"{k}-{k}: in full"
                b.button_style = "success"
            else:
                b.description = f"{k}-{k}: {n} of 4" if n else f"{k}-{k}: no move"
                b.button_style = ""

    def _fill_plays(self, active: bool) -> None:
        _show(self.plays_box, active)
        if not active:
            self.plays_list.options = []
            return
        actions = self._play_actions()
        roll = self.game.state.roll
        assert roll is not None
        self.plays_list.options = [(play_text(p, roll), i) for i, p in enumerate(actions)]
        self.plays_list.value = 0 if actions else None
        k = len(actions)
        steps = len(self.game.state.steps)
        if steps:
            how = "continues the steps clicked so far" if k == 1 else "continue the steps clicked so far"
        else:
            how = "exists" if k == 1 else "exist"
        only = f" — only one: {html.escape(play_text(actions[0], roll))}" if k == 1 else ""
        self.plays_hint.value = (f"<div style='white-space:normal;line-height:1.4'>{k} legal play{'s' if k != 1 else ''} {how}{only}. "
                                 "Click or drag checkers on the board, or choose here and press Play.</div>")

    def _messages_html(self) -> str:
        g = self.game
        lines = [ev.text for e in g.entries[self._msg_from + 1: g.index + 1] for ev in e.events]
        if not lines and g.index == 0:
            lines = [f"{g.variant.title}: press Roll for the opening roll." if g.phase is Phase.OPENING
                     else f"{g.variant.title}: {self._status_text()}"]
        items = "".join(f"<li>{html.escape(m)}</li>" for m in lines)
        return (f"<div data-role='rules' style='white-space:normal;overflow-wrap:anywhere'>"
                f"<ul style='margin:0;padding-left:1.2em'>{items}</ul></div>")

    def record_lines(self) -> list[RecordLine]:
        """The record by turn up to the point shown (see :func:`record_lines`)."""
        g = self.game
        return record_lines(g.entries[1:], g.variant.points)

    def _record_html(self) -> str:
        g = self.game
        n = g.variant.points
        now = self.record_lines()
        later: list[RecordLine] = []
        if g.can_redo:
            later = [ln for ln in record_lines(g.entries[1:] + g.redo_entries, n) if ln.first > g.index]
        rows = []
        viewing = self.viewing  # after a plain Undo the last line is simply the latest: no mark
        for i, ln in enumerate(now):
            shown = viewing and i == len(now) - 1
            style = " style='background:rgba(213,94,0,0.18);font-weight:bold'" if shown else ""
            mark = " ◀ shown" if shown else ""
            rows.append(f"<div data-line='{i}'{' data-shown=1' if shown else ''}{style}>"
                        f"{html.escape(ln.text)}{mark}</div>")
        for ln in later:
            rows.append(f"<div data-later='1' style='opacity:0.45'>{html.escape(ln.text)}</div>")
        if not rows:
            rows.append("<div>(no move yet)</div>")
        # column-reverse keeps the scroll position at the bottom: the newest line stays in view
        return ("<details open><summary>Game record</summary><div data-role='record' style='max-height:14em;"
                "overflow:auto;display:flex;flex-direction:column-reverse;font-family:var(--jp-code-font-family,"
                f"monospace);font-size:12px;line-height:1.5'><div>{''.join(rows)}</div></div></details>")

    def __repr__(self) -> str:
        g = self.game
        st = g.state
        dice = f" dice={st.roll}" if st.roll is not None and st.phase in (Phase.PLAY, Phase.CHOICE) else ""
        left = f" left={','.join(map(str, g.dice_left))}" if st.phase is Phase.PLAY and st.steps else ""
        return (f"<GameWidget {g.variant.name} {st.phase.value} {st.player}{dice}{left} "
                f"move {g.index}/{len(g) - 1} vs {self.opponent}>")


@dataclass
class _Review:
    """A review shown by the widget: the game replayed from its record, its analysis, the marked
    decisions, and the replay's history points as the widget's game's."""

    replay: Game
    analysis: Any
    index_map: dict[int, int]

    @property
    def marked(self) -> list[Any]:
        return [d for d in self.analysis.decisions if d.mark]


def _state_key(st: TurnState) -> tuple[Any, ...]:
    return (st.position, st.phase, st.player, st.roll, st.named, len(st.steps))


def _index_map(replay: Game, entries: Sequence[HistoryEntry]) -> dict[int, int]:
    """Each history point of ``replay`` (steps merged into plays, as records write them) as the
    point of ``entries`` (the widget's game, where steps clicked are points of their own) that
    holds the same state."""
    out: dict[int, int] = {}
    j = 0
    for k, e in enumerate(replay.entries):
        key = _state_key(e.state)
        while j < len(entries) and _state_key(entries[j].state) != key:
            j += 1
        if j == len(entries):
            break
        out[k] = j
    return out


_MARK_WORDS = {"doubtful": "doubtful", "bad": "a mistake", "very bad": "a big mistake"}


def _chart_title(a: Any) -> str:
    return f"White's winning chance over the game ({a.how})"


def _decision_label(d: Any) -> str:
    """A marked decision in one line: ``12. White 5-2: 13/8 13/11 (lost 0.085, bad)``."""
    return (f"{d.number}. {player_name(d.player)} {d.dice}: {d.choice or '(no move)'} "
            f"(lost {d.loss:.3f}, {d.mark})")


def _decision_words(d: Any) -> str:
    """A marked decision in words: what was chosen, what was better, what it cost."""
    who = player_name(d.player)
    what = {"play": "played", "choice": "chose", "name": "named"}.get(d.kind, "chose")
    choice = {"keep": "to keep the dice", "reroll": "to roll again"}.get(d.choice, d.choice or "no move")
    best = {"keep": "keeping the dice", "reroll": "rolling again"}.get(d.best, d.best or "no move")
    return (f"Move {d.number}: {who} {what} {choice} with {d.dice}; better was {best}. "
            f"That gave up {d.loss:.3f} points a game ({d.win_loss * 100:.1f}% of winning chance): "
            f"{_MARK_WORDS.get(d.mark, d.mark)}.")


def _summary_html(a: Any, replay: Game) -> str:
    """Each side's figures in words: decisions, error rate, marks, luck."""
    rows = []
    for p in (WHITE, BLACK):
        s = a.players[p]
        marks = ", ".join(f"{n} {m}" for n, m in ((s.doubtful, "doubtful"), (s.bad, "bad"), (s.very_bad, "very bad"))
                          if n) or "none marked"
        rows.append(f"<li data-player='{p}'><b>{player_name(p)}</b>: {s.unforced} real choices, error rate "
                    f"{s.error_rate:.1f} (thousandths of a point lost a choice; {marks}); luck {s.luck:+.2f} "
                    f"points over {s.rolls} rolls</li>")
    res = ""
    if a.result:
        pts = a.result["points"]
        res = f" {player_name(a.result['winner'])} won {pts} point{'s' if pts != 1 else ''}."
    return (f"<div data-role='review-summary' style='white-space:normal;line-height:1.4'><b>Review</b> of "
            f"{len(replay) - 1} actions ({html.escape(a.how)}).{html.escape(res)} A mark means a decision lost "
            "0.04 or more (doubtful), 0.08 (bad) or 0.16 (very bad).<ul style='margin:4px 0'>"
            + "".join(rows) + "</ul></div>")


def _opponent_options(variant: Any, custom: Any = None) -> list[tuple[str, str]]:
    """The opponent menu: a human, the random bot, the levels of ``variant`` (weakest first), a
    bot object given."""
    levels = levels_for(variant)
    out = [("Human", "human"), ("Random bot", "random")]
    out += [(f"{lv.title} (level {i} of {len(levels)})", lv.name) for i, lv in enumerate(levels, 1)]
    if custom is not None:
        out.append((_bot_label(custom), "custom"))
    return out


def _bot_label(bot: Any) -> str:
    """The opponent dropdown's label of a bot: its name, as a bot (``heuristic`` -> ``Heuristic bot``)."""
    name = str(getattr(bot, "name", type(bot).__name__))
    label = name[:1].upper() + name[1:]
    return label if "bot" in label.lower() else f"{label} bot"
