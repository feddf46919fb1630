"""The game widget: a whole game of any variant, played by clicks or from the list of legal plays.

``backgammon_lab.play("mexican", seed=7)`` returns a :class:`GameWidget`. It holds a
:class:`~backgammon_lab.game.Game` (``widget.game``) and shows:

* a toolbar: the variant, the opponent (a human, the random bot, or any object with a
  ``choose(game)`` method), New game, Undo and Redo;
* the board (:class:`~backgammon_lab.widgets.board.BoardWidget`), played by clicking;
* the controls of the current decision: Roll (with a field for dice set by hand), the Mexican
  opening choice (keep or roll again), the six buttons naming doubles after a Mexican (each says
  whether those doubles can be played in full), and the legal plays as a list with a Play button;
* what the rules did, in plain words; the game record as it grows; a slider and buttons to step
  through the history.
"""

from __future__ import annotations

import html
import random
from typing import Any, Protocol, runtime_checkable

import ipywidgets as w

from ..analysis.bots import Bot, RandomBot
from ..engine import Phase
from ..errors import BackgammonError
from ..game import Game
from ..position import BLACK, WHITE, Player, Position, Roll
from ..rules import legal_plays
from ..variants import VARIANTS
from .board import BoardWidget

__all__ = ["GameWidget", "RandomBot", "Bot"]


def _variant_options() -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for cls in VARIANTS.values():
        seen.setdefault(cls.name, cls.title)
    order = ["mexican", "minigam", "standard"]
    names = sorted(seen, key=lambda n: (order.index(n) if n in order else len(order), n))
    return [(seen[n], n) for n in names]


def _button(description: str, tooltip: str = "", width: str = "auto") -> w.Button:
    return w.Button(description=description, tooltip=tooltip or description, layout=w.Layout(width=width))


def _show(widget: w.Widget, visible: bool) -> None:
    widget.layout.display = None if visible else "none"


_MAX_BOT_ACTIONS = 2000


class GameWidget(w.VBox):
    """Play a game of any variant in the notebook.

    >>> gw = GameWidget("mexican", seed=7)
    >>> gw
    <GameWidget mexican opening white move 0/0 vs human>
    >>> gw.dice_text.value = "5-3"; gw.roll_button.click(); gw
    <GameWidget mexican choice white dice=5-3 move 1/1 vs human>

    ``opponent`` is ``"human"`` (both sides at this screen), ``"random"`` (:class:`RandomBot`) or
    any object with a ``choose(game)`` method; it plays ``bot_player``. ``position`` and ``dice``
    start from a given position instead of the opening. Board options (``orientation``, ``theme``,
    ``size``, ``show_pips``, ``names``) go to the renderer.
    """

    def __init__(self, variant: str = "mexican", seed: int | None = 0, *, opponent: Any = "human",
                 bot_player: Player = BLACK, position: Position | None = None, dice: Any = None,
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
        self.game = Game(variant if position is None else position.variant, seed=seed, position=position,
                         dice=dice)
        board_options.setdefault("orientation", WHITE if bot_player == BLACK else BLACK)
        self.board = BoardWidget(game=self.game, **board_options)
        self.board.on_click(self._board_click)
        self.board.on_move(self._after_human_move)

        # toolbar
        self.variant_choice = w.Dropdown(options=_variant_options(), value=self.game.variant.name,
                                         description="Variant", layout=w.Layout(width="250px"))
        opp_options: list[tuple[str, str]] = [("Human", "human"), ("Random bot", "random")]
        if not isinstance(opponent, str):
            if not callable(getattr(opponent, "choose", None)):
                raise TypeError(f"opponent must be 'human', 'random' or have a choose(game) method: {opponent!r}")
            self._custom_bot = opponent
            opp_options.append((str(getattr(opponent, "name", type(opponent).__name__)), "custom"))
            opponent = "custom"
        elif opponent not in ("human", "random"):
            raise ValueError(f"opponent is 'human', 'random' or a bot object, not {opponent!r}")
        self.opponent_choice = w.Dropdown(options=opp_options, value=opponent, description="Opponent",
                                          layout=w.Layout(width="230px"))
        self.new_button = _button("New game", "Start a new game of the chosen variant")
        self.undo_button = _button("Undo", "Take back the last action (your last decision against a bot)")
        self.redo_button = _button("Redo", "Replay an action taken back")
        toolbar = w.HBox([self.variant_choice, self.opponent_choice, self.new_button, self.undo_button,
                          self.redo_button], layout=w.Layout(flex_flow="row wrap"))

        # decisions
        self.status = w.HTML()
        self.roll_button = _button("Roll", "Roll the dice (seeded), or the dice typed beside")
        self.dice_text = w.Text(value="", placeholder="dice by hand, e.g. 3-1", layout=w.Layout(width="170px"))
        self.roll_box = w.HBox([self.roll_button, self.dice_text])
        self.keep_button = _button("Keep", "Play the two opening dice")
        self.reroll_button = _button("Roll again", "Roll both dice again (Mexican opening choice)")
        self.choice_box = w.HBox([self.keep_button, self.reroll_button])
        self.name_buttons = [_button(f"{k}-{k}") for k in range(1, 7)]
        self.name_box = w.VBox([w.HTML("<b>Name the doubles to play:</b>"),
                                w.HBox(self.name_buttons, layout=w.Layout(flex_flow="row wrap"))])
        self.plays_hint = w.HTML()
        self.plays_list = w.Select(options=[], rows=8, layout=w.Layout(width="95%"))
        self.play_button = _button("Play", "Play the play chosen in the list", width="95%")
        self.plays_box = w.VBox([self.plays_hint, self.plays_list, self.play_button])
        self.messages = w.HTML()
        side = w.VBox([self.status, self.roll_box, self.choice_box, self.name_box, self.plays_box,
                       self.messages], layout=w.Layout(width="380px", padding="0 0 0 12px"))

        # history and record
        self.history_slider = w.IntSlider(value=0, min=0, max=0, description="Move",
                                          continuous_update=False, layout=w.Layout(width="360px"))
        self.first_button = _button("Start", "Go to the start")
        self.back_button = _button("◀", "One action back")
        self.forward_button = _button("▶", "One action forward")
        self.last_button = _button("End", "Go to the latest action")
        history = w.HBox([self.first_button, self.back_button, self.history_slider, self.forward_button,
                          self.last_button])
        self.record = w.HTML()

        self.children = [toolbar, w.HBox([self.board, side], layout=w.Layout(flex_flow="row wrap")),
                         history, self.record]

        self.new_button.on_click(lambda _b: self.new_game())
        self.undo_button.on_click(lambda _b: self._undo())
        self.redo_button.on_click(lambda _b: self._redo())
        self.roll_button.on_click(lambda _b: self._roll())
        self.keep_button.on_click(lambda _b: self._act(lambda: self.game.choose("keep")))
        self.reroll_button.on_click(lambda _b: self._act(lambda: self.game.choose("reroll")))
        for k, b in enumerate(self.name_buttons, 1):
            b.on_click(lambda _b, k=k: self._act(lambda: self.game.name_doubles(k)))
        self.play_button.on_click(lambda _b: self._play_selected())
        self.first_button.on_click(lambda _b: self._goto(0))
        self.back_button.on_click(lambda _b: self._goto(self.game.index - 1))
        self.forward_button.on_click(lambda _b: self._goto(self.game.index + 1))
        self.last_button.on_click(lambda _b: self._goto(len(self.game) - 1))
        self.history_slider.observe(self._on_slider, names="value")
        self.variant_choice.observe(lambda _c: self.new_game(), names="value")
        self.opponent_choice.observe(self._on_opponent, names="value")
        self._set_opponent(opponent)
        self._msg_from = 0
        self._run_bot()
        self.refresh()

    # -- opponent ------------------------------------------------------------------------------
    def _set_opponent(self, value: str) -> None:
        if value == "random":
            self.bot = RandomBot(self._seeds.randrange(2**31) if self.seed is not None else None)
        elif value == "custom":
            self.bot = self._custom_bot
        else:
            self.bot = None

    def _on_opponent(self, change: dict[str, Any]) -> None:
        self._set_opponent(change["new"])
        start = self.game.index
        self._run_bot()
        self._msg_from = start if self.game.index != start else self._msg_from
        self.refresh()

    @property
    def opponent(self) -> str:
        """``"human"``, ``"random"`` or ``"custom"``."""
        return str(self.opponent_choice.value)

    def _bot_to_act(self) -> bool:
        g = self.game
        return self.bot is not None and g.phase not in ("over", "opening") and g.current_player == self.bot_player

    def _run_bot(self) -> None:
        """Let the bot act (roll and decide) until it is the human's turn or the game ends."""
        g = self.game
        for _ in range(_MAX_BOT_ACTIONS):
            if not self._bot_to_act():
                return
            try:
                if g.is_chance():
                    g.roll()
                else:
                    g.apply(self.bot.choose(g))
            except Exception as e:  # noqa: BLE001 - a bot's failure is reported, never raised
                self.board.message = f"The bot could not act ({type(e).__name__}: {e})."
                return
        self.board.message = f"The bot took more than {_MAX_BOT_ACTIONS} actions; it was stopped."

    # -- actions -------------------------------------------------------------------------------
    def new_game(self, variant: str | None = None) -> None:
        """Start a new game (of ``variant``, else the one chosen in the toolbar)."""
        if variant is not None and variant != self.variant_choice.value:
            self.variant_choice.value = variant  # its observer calls back here
            return
        seed = self._seeds.randrange(2**31) if self.seed is not None else None
        self.game = Game(str(self.variant_choice.value), seed=seed)
        self.board.game = self.game
        self.board.message = f"New game of {self.game.variant.title}."
        self._msg_from = 0
        self.refresh()

    def _act(self, fn: Any) -> bool:
        """Run one human action, then the bot; show what the rules did. False if refused."""
        if self._busy:
            self.board.message = "Still busy with the last action."
            return False
        if self._bot_to_act():
            self.board.message = self._bot_turn_text()
            return False
        start = self.game.index
        self._busy = True
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - a refused action is reported, never raised
            self.board.message = str(e) if isinstance(e, BackgammonError) else f"{type(e).__name__}: {e}"
            self.refresh()
            return False
        finally:
            self._busy = False
        self.board.message = ""
        self._run_bot()
        self._msg_from = start
        self.refresh()
        return True

    def _bot_turn_text(self) -> str:
        return (f"It is {self.bot_player.capitalize()}'s turn, played by the bot: press "
                f"“{self.roll_button.description}” to let it play.")

    def _roll(self) -> None:
        if self._bot_to_act():
            start = self.game.index
            self._run_bot()
            self._msg_from = start
            self.board.message = ""
            self.refresh()
            return
        text = self.dice_text.value.strip()
        if self.game.phase not in ("opening", "roll"):
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
        self._run_bot()
        self._msg_from = start
        self.refresh()

    def _board_click(self, click: dict[str, Any]) -> bool:
        """Refuse clicks the board should not interpret; a die click rolls when a roll is due."""
        if self._busy:
            self.board.message = "Still busy with the last action."
            return True
        if self._bot_to_act():
            self.board.message = self._bot_turn_text()
            return True
        if click["kind"] == "die" and self.game.phase in ("opening", "roll"):
            self._roll()
            return True
        return False

    def _undo(self) -> None:
        g = self.game
        if not g.can_undo:
            self.board.message = "Nothing to undo."
            return
        g.undo()
        while self.bot is not None and g.can_undo and self._bot_to_act():
            g.undo()
        self._after_history("Undone.")

    def _redo(self) -> None:
        g = self.game
        if not g.can_redo:
            self.board.message = "Nothing to redo."
            return
        g.redo()
        while self.bot is not None and g.can_redo and self._bot_to_act():
            g.redo()
        self._after_history("Redone.")

    def _goto(self, index: int) -> None:
        if not 0 <= index <= len(self.game) - 1:
            self.board.message = "No further move that way."
            return
        self.game.goto(index)
        self._after_history(f"Showing move {index} of {len(self.game) - 1}.")

    def _on_slider(self, change: dict[str, Any]) -> None:
        if self._busy or change["new"] == self.game.index:
            return
        self._goto(int(change["new"]))

    def _after_history(self, text: str) -> None:
        self._msg_from = max(self.game.index - 1, 0)
        self.board.message = text
        self.refresh()

    # -- display -------------------------------------------------------------------------------
    def _play_actions(self) -> list[Any]:
        g = self.game
        if g.phase != "play":
            return []
        return list(g.legal_actions())

    def refresh(self) -> None:
        """Bring every part of the widget up to date with the game."""
        g = self.game
        ph = g.phase
        self._busy = True
        try:
            self.board.redraw()
            self.status.value = f"<b data-role='status'>{html.escape(self._status_text())}</b>"
            bot_turn = self._bot_to_act()
            _show(self.roll_box, ph in ("opening", "roll") or bot_turn)
            self.roll_button.description = "Let the bot play" if bot_turn else "Roll"
            self.dice_text.disabled = bot_turn
            _show(self.choice_box, ph == "choice" and not bot_turn)
            if ph == "choice" and g.dice is not None:
                self.keep_button.description = f"Keep {g.dice}"
            _show(self.name_box, ph == "name" and not bot_turn)
            if ph == "name":
                self._label_name_buttons()
            self._fill_plays(ph == "play" and not bot_turn)
            self.undo_button.disabled = not g.can_undo
            self.redo_button.disabled = not g.can_redo
            self.first_button.disabled = self.back_button.disabled = not g.can_undo
            self.forward_button.disabled = self.last_button.disabled = not g.can_redo
            self.history_slider.max = len(g) - 1
            self.history_slider.value = g.index
            self.messages.value = self._messages_html()
            rec = g.text_record()
            self.record.value = ("<details open><summary>Game record</summary><pre data-role='record' style='max-height:14em;"
                                 f"overflow:auto;margin:0'>{html.escape(rec)}</pre></details>")
        finally:
            self._busy = False

    def _status_text(self) -> str:
        g = self.game
        who = g.current_player.capitalize()
        ph = g.phase
        if ph == "opening":
            return "Opening roll: press Roll (each player rolls one die)."
        if ph == "roll":
            again = " again" if g.state.reroll else ""
            return f"{who} to roll{again}."
        if ph == "choice":
            return f"{who} won the opening with {g.dice}: keep those dice or roll both again."
        if ph == "name":
            return f"{who} rolled a Mexican and names doubles."
        if ph == "play":
            named = " (named doubles)" if g.state.named else ""
            left = ", ".join(map(str, g.dice_left))
            return f"{who} to play {g.dice}{named}; dice left: {left}."
        pts = g.points
        return f"Game over: {str(g.winner).capitalize()} wins {pts} point{'s' if pts != 1 else ''}."

    def _label_name_buttons(self) -> None:
        pos = self.game.position
        for k, b in enumerate(self.name_buttons, 1):
            n = legal_plays(pos, (k, k)).length
            if n == 4:
                b.description = f"{k}-{k}: in full"
                b.tooltip = f"{k}-{k} can be played in full (all four moves): you would roll again"
                b.button_style = "success"
            else:
                b.description = f"{k}-{k}: {n} of 4" if n else f"{k}-{k}: no move"
                b.tooltip = (f"only {n} of the four {k}s can be played: the rest is lost and there is no "
                             "re-roll" if n else f"no {k} can be played: the turn ends")
                b.button_style = ""

    def _fill_plays(self, active: bool) -> None:
        _show(self.plays_box, active)
        if not active:
            self.plays_list.options = []
            return
        actions = self._play_actions()
        self.plays_list.options = [(str(p), i) for i, p in enumerate(actions)]
        self.plays_list.value = 0 if actions else None
        k = len(actions)
        steps = len(self.game.state.steps)
        if steps:
            how = "continues the steps clicked so far" if k == 1 else "continue the steps clicked so far"
        else:
            how = "exists" if k == 1 else "exist"
        only = f" — only one: {html.escape(str(actions[0]))}" if k == 1 else ""
        self.plays_hint.value = (f"{k} legal play{'s' if k != 1 else ''} {how}{only}. "
                                 "Click checkers on the board, or choose here and press Play.")

    def _messages_html(self) -> str:
        g = self.game
        lines = [ev.text for e in g.entries[self._msg_from + 1: g.index + 1] for ev in e.events]
        if not lines and g.index == 0:
            lines = [f"{g.variant.title}: press Roll for the opening roll." if g.phase == "opening"
                     else f"{g.variant.title}: {self._status_text()}"]
        items = "".join(f"<li>{html.escape(m)}</li>" for m in lines)
        return f"<div data-role='rules'><ul style='margin:0;padding-left:1.2em'>{items}</ul></div>"

    def __repr__(self) -> str:
        g = self.game
        st = g.state
        dice = f" dice={st.dice}" if st.dice is not None and st.phase in ("play", "choice") else ""
        left = f" left={','.join(map(str, g.dice_left))}" if st.phase == "play" and st.steps else ""
        return (f"<GameWidget {g.variant.name} {st.phase.value} {st.player}{dice}{left} "
                f"move {g.index}/{len(g) - 1} vs {self.opponent}>")
