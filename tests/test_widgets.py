"""The widgets driven from Python exactly as the browser drives them: by setting the synced trait
``clicked`` of the board and by pressing buttons (``button.click()``), then checking the game and
the SVG the board would show."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import backgammon_lab
from backgammon_lab import Position
from backgammon_lab.errors import RenderError
from backgammon_lab.widgets import BoardWidget, GameWidget, PositionEditor, RandomBot
from backgammon_lab.widgets.board import normalize_click

SVG = "{http://www.w3.org/2000/svg}"


# -- helpers -----------------------------------------------------------------------------------
def svg_root(widget: BoardWidget) -> ET.Element:
    return ET.fromstring(widget.svg)


def checkers(widget: BoardWidget, colour: str, **where: str) -> int:
    """Checker elements of ``colour`` drawn at a place: ``point="13"`` (White's numbering),
    ``bar="white"`` or ``off="black"``."""
    (key, value), = where.items()
    n = 0
    for el in svg_root(widget).iter():
        if el.get("class") == "checker" and el.get("data-color") == colour and el.get(f"data-{key}") == value:
            n += 1
    return n


def marks(widget: BoardWidget, cls: str) -> int:
    return sum(1 for el in svg_root(widget).iter() if el.get("class") == cls)


def dice_shown(widget: BoardWidget) -> list[tuple[int, bool]]:
    """(value, used) of each die in play in the picture."""
    return [(int(el.get("data-value")), el.get("data-used") == "1")
            for el in svg_root(widget).iter() if el.get("data-die") is not None]


def click(board: BoardWidget, kind: str, value: Any = None, **extra: Any) -> None:
    """Set ``clicked`` as board.js does: the next ``seq`` so equal clicks still register."""
    seq = board.clicked.get("seq", 0) if isinstance(board.clicked, dict) else 0
    board.clicked = {"kind": kind, "value": value, "seq": seq + 1, **extra}


def white_point(mover_point: int, mover: str, n: int = 24) -> int:
    """A point in the mover's numbering as the picture's ``data-point`` (White's numbering)."""
    return mover_point if mover == "white" else n + 1 - mover_point


def play_step(gw: GameWidget, start: int, end: int) -> None:
    """Click a checker and its destination, both in the mover's numbering (bar N+1, off 0)."""
    b = gw.board
    mover = gw.game.position.turn
    n = gw.game.variant.points
    if start == n + 1:
        click(b, "bar", mover)
    else:
        click(b, "point", white_point(start, mover, n))
    assert b.selected == start, b.message
    assert end in b.targets(), (end, b.targets(), b.message)
    if end == 0:
        click(b, "off", mover)
    else:
        click(b, "point", white_point(end, mover, n))


def roll(gw: GameWidget, dice: str | None = None) -> None:
    if dice is not None:
        gw.dice_text.value = dice
    gw.roll_button.click()


def snapshot(gw: GameWidget) -> tuple[Any, ...]:
    g = gw.game
    return (g.index, len(g), g.position, g.phase, g.dice, g.state.steps)


def here(gw: GameWidget) -> tuple[Any, ...]:
    """The current point of the game (without the redo branch)."""
    return snapshot(gw)[:1] + snapshot(gw)[2:]


def visible(widget: Any) -> bool:
    return widget.layout.display != "none"


# -- the board alone ---------------------------------------------------------------------------
def test_board_widget_shows_position_and_repr() -> None:
    pos = Position.start("mexican")
    b = BoardWidget(pos)
    assert repr(b) == "<BoardWidget mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5 selected=none>"
    assert checkers(b, "white", point="13") == 5
    assert checkers(b, "black", point="12") == 5
    assert b.info["position"] == pos.to_string()
    seen: list[dict[str, Any]] = []
    b.on_click(lambda c: seen.append(c) or True)
    click(b, "point", 6)
    click(b, "point", 6)  # the same click again still registers (seq)
    assert [c["value"] for c in seen] == [6, 6]
    b.set_options(theme="dark", orientation="black")
    assert 'data-orientation="black"' in b.svg
    with pytest.raises(TypeError):
        BoardWidget(pos, colour="red")


def test_board_widget_same_svg_for_same_state() -> None:
    a = GameWidget("standard", seed=3)
    b = GameWidget("standard", seed=3)
    assert a.board.svg == b.board.svg
    roll(a, "3-1")
    roll(b, "3-1")
    assert a.board.svg == b.board.svg
    assert "0x" not in repr(a) and "0x" not in repr(a.board)


@pytest.mark.parametrize("raw, ok", [
    ({"kind": "point", "value": 13, "seq": 1}, True),
    ({"kind": "point", "value": 13.0, "seq": 1}, True),
    ({"kind": "bar", "value": "white"}, True),
    ({"kind": "off", "value": "black"}, True),
    ({"kind": "die", "value": 0}, True),
    ({"kind": "background"}, True),
    ({"kind": "point", "value": 0}, False),
    ({"kind": "point", "value": 25}, False),
    ({"kind": "point", "value": "13"}, False),
    ({"kind": "point", "value": True}, False),
    ({"kind": "bar", "value": "green"}, False),
    ({"kind": "checker", "value": 1}, False),
    ({}, False),
    ("point 13", False),
    (None, False),
    ([1, 2], False),
])
def test_normalize_click(raw: Any, ok: bool) -> None:
    click_, why = normalize_click(raw, 24)
    assert (click_ is not None) == ok
    assert bool(why) != ok


# -- Mexican: opening choice, Mexican, named doubles, doubles chain ---------------------------
def test_mexican_opening_mexican_named_doubles_and_reroll() -> None:
    gw = backgammon_lab.play("mexican", seed=7)
    assert isinstance(gw, GameWidget)
    assert repr(gw) == "<GameWidget mexican opening white move 0/0 vs human>"
    assert visible(gw.roll_box) and not visible(gw.choice_box) and not visible(gw.name_box)
    # A click before any roll changes nothing and says why.
    before = snapshot(gw)
    click(gw.board, "point", 13)
    assert snapshot(gw) == before and "Roll" in gw.board.message
    # Opening roll set by hand: White 2, Black 1 -> White keeps or rolls again.
    roll(gw, "2-1")
    assert gw.game.phase == "choice" and gw.dice_text.value == ""
    assert visible(gw.choice_box) and gw.keep_button.description == "Keep 2-1"
    assert "White goes first" in gw.messages.value
    gw.keep_button.click()
    assert repr(gw) == "<GameWidget mexican play white dice=2-1 move 2/2 vs human>"
    assert sorted(v for v, _ in dice_shown(gw.board)) == [1, 2]
    # A checker with no legal step, and a step that breaks a rule: the engine's explanations.
    click(gw.board, "point", 13)
    assert gw.board.selected is None
    assert "held by 5 opposing checkers" in gw.board.message
    click(gw.board, "point", 6)
    click(gw.board, "point", 4)  # the 2 before the 1
    assert gw.board.selected is None and "lower die, 1, must be played first" in gw.board.message
    assert gw.game.dice_left == [1, 2]
    click(gw.board, "point", 6)
    assert gw.board.selected == 6 and gw.board.targets() == [5]
    assert marks(gw.board, "selected") == 1 and marks(gw.board, "target") >= 1
    click(gw.board, "point", 5)
    assert gw.game.state.steps and gw.game.dice_left == [2]
    assert checkers(gw.board, "white", point="5") == 1 and checkers(gw.board, "white", point="6") == 4
    assert dice_shown(gw.board) == [(2, False), (1, True)]  # the 1 is drawn used
    play_step(gw, 13, 11)
    # Both dice played: name doubles.
    assert gw.game.phase == "name" and visible(gw.name_box)
    assert "A Mexican!" in gw.messages.value
    assert all(b.description.endswith("in full") for b in gw.name_buttons)
    click(gw.board, "point", 13)
    assert gw.game.phase == "name" and "name the doubles" in gw.board.message.lower()
    gw.name_buttons[2].click()  # 3-3
    st = gw.game.state
    assert gw.game.phase == "play" and st.named and st.roll.dice == (3, 3)
    assert 'data-value="3"' in gw.board.svg and 'class="mexican"' in gw.board.svg
    assert len(dice_shown(gw.board)) == 4
    for s, e in ((13, 10), (13, 10), (24, 21), (24, 21)):
        play_step(gw, s, e)
    # All four named doubles played: White rolls again.
    assert gw.game.phase == "roll" and gw.game.current_player == "white"
    assert "rolls again" in gw.messages.value
    assert 'class="reroll"' in gw.board.svg
    assert "White to roll again." in gw.status.value
    assert checkers(gw.board, "white", point="10") == 2 and checkers(gw.board, "white", point="21") == 2
    # Doubles chain: 4-4 played in full -> roll again; then an ordinary roll passes the turn.
    roll(gw, "4-4")
    click(gw.board, "point", 21)  # 17 is Black's 8-point
    assert "held by 3 opposing checkers" in gw.board.message
    for s, e in ((13, 9), (13, 9), (9, 5), (9, 5)):
        play_step(gw, s, e)
    assert gw.game.phase == "roll" and gw.game.current_player == "white"
    assert "All four 4s were played" in gw.messages.value
    roll(gw, "5-6")
    assert gw.game.dice.dice == (5, 6)
    assert len(gw.plays_list.options) == len(gw.game.legal_actions()) > 1
    assert "legal plays exist" in gw.plays_hint.value
    gw.plays_list.value = 0
    gw.play_button.click()
    assert gw.game.phase == "roll" and gw.game.current_player == "black"
    rec = gw.game.record()["actions"]
    assert {"name": 3} in rec and {"choice": "keep"} in rec
    # The record by turn: the Mexican, the named doubles and the re-rolls inside White's turn.
    assert [ln.text for ln in gw.record_lines()] == [
        "Opening: White 2, Black 1",
        "1. White 2-1 (Mexican): 6/5 13/11; named 3-3: 24/21(2) 13/10(2); 4-4: 13/9/5(2); 6-5: 21/16 21/15"]
    assert "named 3-3: 24/21(2) 13/10(2)" in gw.record.value


def test_mexican_reroll_choice_and_kept_opening() -> None:
    gw = GameWidget("mexican", seed=11)
    roll(gw, "6-4")
    gw.reroll_button.click()
    assert gw.game.phase == "roll" and gw.game.current_player == "white"
    assert "rolls both dice again" in gw.messages.value
    roll(gw)  # seeded
    assert gw.game.phase in ("play", "roll", "name")


# -- forfeits and failed entry ------------------------------------------------------------------
def test_mexican_forfeit_lower_die() -> None:
    pos = Position.from_string("mexican/w/3x2/24x2,13x5,8x3,6x5")
    gw = GameWidget(position=pos, seed=1)
    assert gw.game.phase == "roll"
    roll(gw, "5-2")
    assert gw.game.phase == "roll" and gw.game.current_player == "black"
    assert "The lower die, 2, cannot be played: the turn is lost." in gw.messages.value
    assert gw.game.position.points == pos.points


def test_failed_bar_entry_mexican_and_standard() -> None:
    pos = Position.from_string("mexican/w/bar,6x5,8x3,13x5,24/3x2,13x5,8x3,6x5")
    gw = GameWidget(position=pos)
    assert checkers(gw.board, "white", bar="white") == 1
    roll(gw, "3-5")
    assert "cannot enter from the bar: the turn is lost" in gw.messages.value
    assert gw.game.current_player == "black"
    pos = Position.from_string("standard/w/bar,6x5,8x3,13x5,24/24x2,13x5,8x3,6x3,5x2")
    gw = GameWidget(position=pos)
    roll(gw, "6-5")
    assert "No checker can enter from the bar with 6-5" in gw.messages.value
    assert gw.game.current_player == "black"


def test_bar_entry_by_click_and_bar_first_explanation() -> None:
    pos = Position.from_string("mexican/w/bar,6x5,8x3,13x5,24/3x2,13x5,8x3,6x5")
    gw = GameWidget(position=pos)
    roll(gw, "1-4")
    click(gw.board, "point", 13)
    assert gw.board.selected is None and "bar" in gw.board.message.lower()
    play_step(gw, 25, 24)
    assert checkers(gw.board, "white", point="24") == 2
    # Clicking the opponent's bar or tray is refused in words.
    click(gw.board, "bar", "black")
    assert "Black's bar" in gw.board.message
    click(gw.board, "off", "black")
    assert "tray" in gw.board.message


# -- standard and Mini-Gam whole turns -------------------------------------------------------------
def test_standard_turns_both_colours() -> None:
    gw = GameWidget("standard", seed=5)
    roll(gw, "3-1")
    assert gw.game.phase == "play" and gw.game.current_player == "white"
    play_step(gw, 8, 5)
    play_step(gw, 6, 5)
    assert gw.game.phase == "roll" and gw.game.current_player == "black"
    assert checkers(gw.board, "white", point="5") == 2
    assert 'class="lastmove"' in gw.board.svg
    roll(gw, "6-5")
    # Black's 24 is White's 1: the click reports White's numbering, the game gets Black's.
    play_step(gw, 24, 18)
    play_step(gw, 18, 13)
    assert gw.game.current_player == "white"
    assert checkers(gw.board, "black", point="12") == 6  # Black's 13 = White's 12
    assert "Black plays 24/18/13." in gw.messages.value


def test_minigam_turns_enter_from_bar() -> None:
    gw = GameWidget("minigam", seed=2)
    roll(gw, "4-2")
    assert gw.game.current_player == "white"
    play_step(gw, 7, 3)
    play_step(gw, 7, 5)
    assert gw.game.current_player == "black"
    assert checkers(gw.board, "white", bar="white") == 6
    roll(gw, "5-5")
    for _ in range(4):
        play_step(gw, 7, 2)
    assert gw.game.phase == "roll" and gw.game.current_player == "white"
    # Black's 2 is White's 5: White's checker there was hit.
    assert checkers(gw.board, "black", point="5") == 4
    assert gw.game.position.bar[0] == 7


def test_bear_off_by_clicking_the_tray() -> None:
    pos = Position.from_string("standard/w/2x3,1x2,offx10/20x15")
    gw = GameWidget(position=pos)
    roll(gw, "6-5")
    click(gw.board, "point", 2)
    assert gw.board.targets() == [0]
    assert checkers(gw.board, "white", off="white") == 10
    click(gw.board, "off", "white")
    assert gw.game.position.off[0] == 11 and checkers(gw.board, "white", off="white") == 11
    assert gw.game.state.steps[0].die == 5  # the smaller die that reaches off
    play_step(gw, 2, 0)
    assert gw.game.current_player == "black" and gw.game.position.off[0] == 12


def test_bot_as_white() -> None:
    gw = GameWidget("minigam", seed=8, opponent="random", bot_player="white")
    assert 'data-orientation="black"' in gw.board.svg
    roll(gw, "5-2")  # White (the bot) wins the opening and plays at once
    assert gw.game.current_player == "black" and gw.game.phase == "roll"
    assert "White plays" in gw.messages.value


# -- undo, redo, history -------------------------------------------------------------------------
def test_undo_redo_and_history_slider() -> None:
    gw = GameWidget("mexican", seed=7)
    roll(gw, "5-3")
    gw.keep_button.click()
    play_step(gw, 13, 10)
    mid = here(gw)
    play_step(gw, 13, 8)
    end = here(gw)
    assert gw.history_slider.max == gw.game.index == 4
    gw.undo_button.click()
    assert here(gw) == mid and not gw.redo_button.disabled
    assert checkers(gw.board, "white", point="10") == 1
    gw.undo_button.click()
    assert gw.game.phase == "play" and not gw.game.state.steps
    gw.redo_button.click()
    gw.redo_button.click()
    assert here(gw) == end and gw.redo_button.disabled
    gw.history_slider.value = 1
    assert gw.game.index == 1 and gw.game.phase == "choice"
    gw.last_button.click()
    assert here(gw) == end
    gw.first_button.click()
    assert gw.game.index == 0 and gw.undo_button.disabled
    gw.forward_button.click()
    gw.back_button.click()
    assert gw.game.index == 0
    gw.back_button.click()  # nothing before the start: a message, no error
    assert gw.game.index == 0 and gw.board.last_error is None
    gw.last_button.click()
    gw.undo_button.click()
    # A new action after undo replaces the redo branch.
    play_step(gw, 8, 3)
    assert gw.game.index == 4 and not gw.game.can_redo
    assert gw.game.position.count("white", 3) == 1


# -- bots ----------------------------------------------------------------------------------------
class FirstChoiceBot:
    """A bot of the documented protocol: any object with ``choose(game)``."""

    name = "First choice"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, game: Any) -> Any:
        self.calls += 1
        return game.legal_actions()[0]


def _play_out(gw: GameWidget, limit: int = 3000) -> None:
    for _ in range(limit):
        ph = gw.game.phase
        if ph == "over":
            return
        if ph in ("opening", "roll"):
            gw.roll_button.click()
        elif ph == "choice":
            gw.keep_button.click()
        elif ph == "name":
            gw.name_buttons[0].click()
        else:
            gw.play_button.click()
        assert gw.board.last_error is None
    raise AssertionError("game did not end")


@pytest.mark.parametrize("variant", ["mexican", "standard", "minigam"])
def test_whole_game_against_random_bot(variant: str) -> None:
    gw = GameWidget(variant, seed=4, opponent="random")
    _play_out(gw)
    assert gw.game.phase == "over" and gw.game.winner in ("white", "black")
    assert "Game over" in gw.status.value and "wins" in gw.messages.value + gw.record.value
    players = {a.get("player") for a in gw.game.record()["actions"] if "play" in a}
    assert players == {"white", "black"}
    # After the end, a click changes nothing.
    before = snapshot(gw)
    click(gw.board, "point", 1)
    assert snapshot(gw) == before and "over" in gw.board.message


def test_custom_bot_and_clicks_during_the_bots_turn() -> None:
    bot = FirstChoiceBot()
    gw = GameWidget("mexican", seed=9, opponent=bot)
    assert gw.opponent_choice.value == "custom" and "vs custom" in repr(gw)
    roll(gw, "3-6")  # Black wins the opening: the bot keeps or re-rolls and plays at once
    assert bot.calls >= 1
    assert gw.game.current_player == "white" or gw.game.phase == "over"
    # Go back into the bot's turn: clicks and buttons are refused with a message.
    gw.first_button.click()
    gw.forward_button.click()
    assert gw.game.current_player == "black" and gw.viewing
    before = snapshot(gw)
    click(gw.board, "point", 12)  # an earlier point is read-only until "Play from here"
    assert snapshot(gw) == before and "Play from here" in gw.board.message
    gw.branch_button.click()
    assert not gw.viewing and gw.game.can_redo
    click(gw.board, "point", 12)
    assert snapshot(gw) == before and "bot" in gw.board.message
    gw.keep_button.click()
    assert snapshot(gw) == before
    assert gw.roll_button.description == "Let the bot play"
    gw.roll_button.click()
    assert gw.game.current_player == "white"
    with pytest.raises(TypeError):
        GameWidget("mexican", opponent=object())


def test_bot_failure_is_reported_not_raised() -> None:
    class Broken:
        def choose(self, game: Any) -> Any:
            raise RuntimeError("no idea")

    gw = GameWidget("standard", seed=1, opponent=Broken())
    roll(gw, "1-6")  # Black starts
    assert "bot could not act" in gw.board.message and gw.game.phase == "play"


def test_opponent_and_variant_and_new_game() -> None:
    gw = GameWidget("mexican", seed=3)
    gw.opponent_choice.value = "random"
    assert isinstance(gw.bot, RandomBot)
    gw.variant_choice.value = "minigam"
    assert gw.game.variant.name == "minigam" and gw.game.phase == "opening"
    assert 'data-variant="minigam"' in gw.board.svg
    roll(gw, "2-5")  # Black wins; the bot plays its turn
    assert gw.game.current_player == "white"
    gw.new_button.click()
    assert gw.game.index == 0 and gw.game.variant.name == "minigam"
    gw.opponent_choice.value = "human"
    assert gw.bot is None


# -- bogus input -------------------------------------------------------------------------------
def test_bogus_messages_change_nothing_and_raise_nothing() -> None:
    gw = GameWidget("mexican", seed=7)
    roll(gw, "5-3")
    gw.keep_button.click()
    before = snapshot(gw)
    svg = gw.board.svg
    b = gw.board
    for raw in ({"kind": "point", "value": 99, "seq": 50}, {"kind": "point", "value": -1, "seq": 51},
                {"kind": "teleport", "value": 3, "seq": 52}, "garbage", None, 42, [1, 2],
                {"kind": "point", "seq": 53}, {"kind": "bar", "value": 1, "seq": 54},
                {"kind": "point", "value": {"x": 1}, "seq": 55}):
        b.clicked = raw
        assert snapshot(gw) == before, raw
        assert b.message, raw
    assert "no point 99" in normalize_click({"kind": "point", "value": 99}, 24)[1]
    assert b.svg == svg
    # A click on an empty point, an opponent's checker, the tray with nothing selected.
    for kind, value, words in (("point", 20, "no checker"), ("point", 12, "Black's checkers"),
                               ("off", "white", "Select a checker first")):
        click(b, kind, value)
        assert snapshot(gw) == before and words in b.message
    # A move that breaks a rule: the engine's explanation, not silence.
    click(b, "point", 13)
    click(b, "point", 5)  # 8 pips: no such die
    assert snapshot(gw) == before and ("die" in b.message or "dice" in b.message)
    # Rapid repeated clicks: each is a click; selecting twice clears, and nothing breaks.
    for _ in range(7):
        click(b, "point", 13)
    assert b.selected == 13 and snapshot(gw) == before
    click(b, "background")
    assert b.selected is None
    # A double click on a destination plays once; the second click is judged on the new state.
    click(b, "point", 13)
    click(b, "point", 10)
    click(b, "point", 10)
    assert len(gw.game.state.steps) == 1 and b.last_error is None
    # Dice clicks during play only inform; bad hand-set dice are refused.
    click(b, "die", 0)
    assert "Dice left" in b.message
    assert b.last_error is None


def test_bad_dice_and_buttons_out_of_turn() -> None:
    gw = GameWidget("standard", seed=1)
    before = snapshot(gw)
    roll(gw, "7-1")
    assert snapshot(gw) == before and "7" in gw.board.message
    assert gw.dice_text.value == "7-1"
    roll(gw, "banana")
    assert snapshot(gw) == before
    gw.keep_button.click()  # not the choice phase: refused in words
    gw.name_buttons[0].click()
    gw.play_button.click()
    assert snapshot(gw) == before
    roll(gw, "4-2")
    roll(gw)  # a roll while a play is due
    assert gw.game.phase == "play" and "No roll is due" in gw.board.message
    gw.plays_list.options = []
    gw.play_button.click()
    assert "Choose a play" in gw.board.message


def test_die_click_rolls_when_a_roll_is_due() -> None:
    gw = GameWidget("standard", seed=2)
    roll(gw, "4-2")
    play_step(gw, 8, 4)
    play_step(gw, 6, 4)
    pic = svg_root(gw.board)
    assert not [el for el in pic.iter() if el.get("data-die") is not None]
    click(gw.board, "die", 0)
    assert gw.game.phase == "play" and gw.game.current_player == "black"


# -- editor ------------------------------------------------------------------------------------
def test_editor_clicks_counts_and_refusals() -> None:
    ed = PositionEditor(variant="mexican")
    assert repr(ed) == ("<PositionEditor mexican/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5 dice=none "
                        "colour=white tool=add>")
    b = ed.board
    # Every checker is on the board: adding one more is refused, the position kept.
    start = ed.position
    click(b, "point", 5)
    assert ed.position == start and "too many checkers" in b.message
    ed.clear_button.click()
    assert ed.unplaced("white") == 15 and ed.position.off == (15, 15)
    assert "Not placed" in b.svg
    for _ in range(5):
        click(b, "point", 6)
    assert checkers(b, "white", point="6") == 5
    click(b, "point", 6)
    assert ed.position.count("white", 6) == 5 and "sixth checker" in b.message
    ed.colour.value = "black"
    click(b, "point", 6)
    assert "both colours on a point" in b.message and ed.position.points[5] == 5
    click(b, "point", 19)  # Black's point 6
    assert ed.position.count("black", 6) == 1 and checkers(b, "black", point="19") == 1
    click(b, "point", 19, shift=True)
    assert ed.position.count("black", 6) == 0
    ed.tool.value = "remove"
    click(b, "point", 6)
    assert ed.position.count("white", 6) == 4
    click(b, "point", 7)
    assert "no checker" in b.message
    ed.tool.value = "add"
    click(b, "bar", "black")
    click(b, "off", "white")
    assert ed.position.bar == (0, 1) and ed.tray_white.value == 1
    ed.bar_white.value = 2
    assert ed.position.bar == (2, 1)
    ed.tray_white.value = 10  # 4 + 2 + 10 = 16 > 15
    assert "too many checkers" in b.message and ed.tray_white.value == 1
    assert ed.position.bar == (2, 1)
    ed.turn.value = "black"
    assert ed.position.turn == "black" and 'data-turn="black"' in b.svg
    ed.dice_text.value = "3-1"
    assert ed.dice is not None and ed.dice.dice == (3, 1) and len(dice_shown(b)) == 2
    ed.dice_text.value = "9-9"
    assert ed.dice.dice == (3, 1) and "Refused" in b.message and ed.dice_text.value == "3-1"
    game = ed.to_game()
    assert game.phase == "play" and game.position == ed.position
    for raw in ("junk", {"kind": "point", "value": 40}, {"kind": "die", "value": 1}):
        b.clicked = raw
    assert b.last_error is None and "PositionEditor mexican/b/" in repr(ed)


def test_editor_import_export_round_trips() -> None:
    ed = PositionEditor(variant="standard")
    pos = Position.from_string("standard/b/bar,6x4,5x2,offx8/24x2,13x5,8x3,6x5")
    ed.position = pos
    for fmt in ("json", "string", "id", "xgid"):
        ed.format.value = fmt
        ed.export_button.click()
        text = ed.text.value
        assert text
        ed.clear_button.click()
        ed.import_button.click()
        assert ed.position == pos, fmt
    assert ed.text.value.startswith("XGID=") and ":-1:00:" in ed.text.value  # Black on roll, no dice
    # Refusals keep the last valid position.
    for fmt, text in (("json", '{"variant": "standard"}'), ("string", "standard/w/6x16/-"),
                      ("string", "nonsense"), ("id", "not an id"), ("xgid", "XGID=-b--:0"),
                      ("json", '{"variant": "mexican", "points": [6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '
                               '0, 0, 0, 0, 0, 0, 0], "bar": {"white": 0, "black": 0}, "off": {"white": 9, '
                               '"black": 15}, "turn": "white"}')):
        ed.format.value = fmt
        ed.text.value = text
        ed.import_button.click()
        assert ed.position == pos and b_msg(ed).startswith("Refused"), (fmt, text)
    # Mini-Gam has no Position ID: exporting one says so.
    ed.variant_choice.value = "minigam"
    assert ed.position == Position.start("minigam", "black")
    ed.format.value = "id"
    assert ed.export_text() == "" and "Cannot export" in ed.board.message
    assert ed.export_text("xgid") == "" and "Cannot export" in ed.board.message  # an XGID is 24 points
    assert ed.import_text("minigam/w/3x2,offx6/barx8", "string")
    assert ed.variant.name == "minigam" and ed.position.count("white", 3) == 2


def b_msg(ed: PositionEditor) -> str:
    return ed.board.message


def test_reprs_are_deterministic() -> None:
    for obj in (GameWidget("minigam", seed=1), PositionEditor(variant="minigam"),
                BoardWidget(Position.start("minigam"))):
        r = repr(obj)
        assert not re.search(r"0x[0-9a-f]{6,}", r) and r == repr(obj)


def test_one_search_and_one_render_per_click(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9: a click asks the turn's state for the steps (no new search of the legal plays) and
    the board is drawn once, whether the click selects a checker or plays a step."""
    import backgammon_lab.rules as rules

    searches = []
    real = rules._legal

    def counting(*args: Any) -> Any:
        searches.append(args[2])
        return real(*args)

    gw = GameWidget("standard", seed=3)
    gw.dice_text.value = "5-3"
    gw.roll_button.click()  # White 5, Black 3: White plays 5-3
    assert gw.game.phase == "play"
    b = gw.board
    monkeypatch.setattr(rules, "_legal", counting)
    for kind, value, played in (("point", 13, False), ("point", 8, True), ("point", 8, False), ("point", 5, True)):
        searches.clear()
        before = b.renders
        index = gw.game.index
        click(b, kind, value)
        assert (gw.game.index > index) == played, (kind, value, b.message)
        assert searches == [], (kind, value, searches)  # the steps come from the turn's plays
        assert b.renders - before == 1, (kind, value)
    assert gw.game.phase == "roll" and gw.game.current_player == "black"


def test_a_step_click_is_one_tree_lookup_and_a_refused_click_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17: the roll's play tree owns its legality. A click that plays a step makes one lookup
    in the tree (``PlayNode.take``) and no search; a refused click explains itself from the same
    tree (``PlayNode.explain``), again with no search and no new node expanded more than once."""
    import collections

    import backgammon_lab.rules as rules

    calls: collections.Counter[str] = collections.Counter()

    def counted(name: str, real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)
        return wrapper

    gw = GameWidget("standard", seed=3)
    gw.dice_text.value = "5-3"
    gw.roll_button.click()  # White 5, Black 3: White plays 5-3
    b = gw.board
    click(b, "point", 13)  # select the checker on 13
    for name, owner in (("search", rules._Rules), ("_expand", rules.PlayList), ("take", rules.PlayNode),
                        ("explain", rules.PlayNode)):
        monkeypatch.setattr(owner, name, counted(name, getattr(owner, name)))
    index = gw.game.index
    click(b, "point", 8)  # 13/8 with the 5
    assert gw.game.index == index + 1 and "13/8" in b.message
    assert calls["take"] == 1 and calls["search"] == 0 and calls["explain"] == 0, calls
    assert calls["_expand"] <= 1, calls  # the new node's steps, found once (the board asks for them)
    calls.clear()
    click(b, "point", 13)  # select again
    click(b, "point", 12)  # 13/12: no die shows 1
    assert gw.game.index == index + 1 and "1" in b.message, b.message
    assert calls["search"] == 0 and calls["take"] == 0 and calls["_expand"] == 0, calls
    assert calls["explain"] >= 1, calls


# -- issue 13: a board for a learner ----------------------------------------------------------------
def numbers_at(widget: BoardWidget, white_point: int) -> dict[str, tuple[str, bool]]:
    """The two labels written at White's point ``white_point``: {player: (text, bold for the mover)}."""
    return {el.get("data-player"): (el.text, el.get("data-mover") == "1") for el in svg_root(widget).iter()
            if el.get("class") == "num" and el.get("data-at") == str(white_point)}


def test_numbering_under_the_clicked_checker_agrees_with_the_words() -> None:
    """Point 1: both numberings are written, the mover's in bold; what the board says about a
    click names the numbers written in bold under the checker and its destinations."""
    gw = GameWidget("standard", seed=3)
    roll(gw, "1-6")  # Black wins the opening with 6-1
    assert gw.game.current_player == "black"
    b = gw.board
    click(b, "point", 12)  # the checker on White's 12 is Black's 13
    assert b.message == "Point 13 selected: it can go to 7."  # its 12 is White's 13, held
    assert numbers_at(b, 12) == {"black": ("13", True), "white": ("12", False)}
    for t in b.targets():  # each destination's bold label is the number the message says
        assert numbers_at(b, 25 - t)["black"] == (str(t), True)
    click(b, "background")
    play_step(gw, 13, 7)
    play_step(gw, 8, 7)
    assert gw.game.current_player == "white"
    assert numbers_at(b, 12) == {"black": ("13", False), "white": ("12", True)}  # White's turn now


def test_board_can_turn_to_the_side_to_move() -> None:
    gw = GameWidget("standard", seed=3, orientation="mover")
    assert 'data-orientation="white"' in gw.board.svg
    roll(gw, "1-6")  # Black to play
    assert 'data-orientation="black"' in gw.board.svg
    assert numbers_at(gw.board, 12)["black"] == ("13", True)
    with pytest.raises(RenderError, match="orientation"):
        gw.board.set_options(orientation="sideways")
    assert 'data-orientation="black"' in gw.board.svg and gw.board.options["orientation"] == "mover"


def test_record_by_turn_numbers_each_turn_once_and_keeps_rolls_high_first() -> None:
    """Point 3 (and 9): one numbered line per turn, "3. White 6-4: ..." ; rolls written higher die
    first; a lost turn and the dice lost on the line of the turn; plays as the engine writes them
    (highest start first here: standard has no die order)."""
    pos = Position.from_string("standard/w/bar,6x5,8x3,13x5,24/24x2,13x5,8x3,6x3,5x2")
    gw = GameWidget(position=pos)
    roll(gw, "5-6")  # White cannot enter
    roll(gw, "2-4")
    play_step(gw, 13, 11)
    play_step(gw, 13, 9)
    roll(gw, "3-3")
    for s, e in ((25, 22), (8, 5), (8, 5), (6, 3)):
        play_step(gw, s, e)
    lines = [ln.text for ln in gw.record_lines()]
    assert lines == ["1. White 6-5: no checker can enter: no move",
                     "2. Black 4-2: 13/9 13/11",
                     "3. White 3-3: bar/22 8/5(2) 6/3"]
    assert "rolls 4-2." in gw.messages.value or "Black rolls 4-2" in "".join(
        ev.text for e in gw.game.entries for ev in e.events)
    # Steps clicked but not yet a play show on the turn's line as they are played.
    roll(gw, "6-1")
    play_step(gw, 24 if gw.game.position.count("black", 24) else 13, 18 if gw.game.position.count("black", 24) else 7)
    assert gw.record_lines()[-1].text.startswith("4. Black 6-1: ") and gw.record_lines()[-1].text.endswith("…")
    # The newest line is kept in view: the scroll box starts at its end (column-reverse).
    assert "flex-direction:column-reverse" in gw.record.value


def test_record_marks_the_point_shown_and_rolling_there_asks_first() -> None:
    """Point 6: an earlier point is shown read-only with its record line marked and later lines
    dimmed; an action there is refused with the way out, until "Play from here"."""
    gw = GameWidget("standard", seed=5)
    roll(gw, "3-1")
    gw.plays_list.value = 0
    gw.play_button.click()
    roll(gw, "6-5")
    gw.plays_list.value = 0
    gw.play_button.click()
    end = len(gw.game) - 1
    gw.back_button.click()
    gw.back_button.click()  # Black to roll
    assert gw.viewing and visible(gw.branch_box) and not visible(gw.roll_box)
    assert "data-shown=1" in gw.record.value and "◀ shown" in gw.record.value
    assert gw.record.value.count("data-later='1'") == 1  # Black's turn, still to come
    before = snapshot(gw)
    roll(gw, "4-2")
    assert snapshot(gw) == before and "Play from here" in gw.board.message
    click(gw.board, "point", 12)
    assert snapshot(gw) == before and gw.game.can_redo
    gw.branch_button.click()
    assert not gw.viewing and visible(gw.roll_box)
    roll(gw, "4-2")
    assert not gw.game.can_redo and len(gw.game) < end + 1
    assert "the 2 later actions were replaced" in gw.board.message
    # Undo plays on at once (taking back is what the player asked for), and says what it replaces.
    gw.undo_button.click()
    assert not gw.viewing and visible(gw.roll_box)


def test_each_step_drawn_last_play_kept_and_lost_dice_shown() -> None:
    """Points 4, 5 and 7: an arrow after each single step, the last play stays drawn while the
    next player clicks, and dice a turn lost are drawn crossed out until the next roll."""
    gw = GameWidget("standard", seed=5)
    roll(gw, "3-1")
    play_step(gw, 8, 5)
    assert marks(gw.board, "played") == 2 and 'class="lastmove"' not in gw.board.svg
    play_step(gw, 6, 5)
    roll(gw, "6-5")
    play_step(gw, 24, 18)
    svg = gw.board.svg
    assert 'class="played"' in svg and 'class="lastmove"' in svg  # Black's step and White's 8/5 6/5
    assert "lastmove-label" in svg  # the last play's two steps are numbered
    pos = Position.from_string("standard/w/bar,6x5,8x3,13x5,24/24x2,13x5,8x3,6x3,5x2")
    gw = GameWidget(position=pos)
    roll(gw, "6-5")
    assert gw.game.state.lost == (5, 6)
    lost = [el.get("data-value") for el in svg_root(gw.board).iter() if el.get("class") == "lost-die"]
    assert sorted(lost) == ["5", "6"]
    roll(gw, "2-1")
    assert 'class="lost-die"' not in gw.board.svg


def test_mexican_announced_as_it_is_rolled() -> None:
    """Point 5: a Mexican is named as soon as it is rolled, not after both dice are played: the
    status line says so; the rules panel shows the engine's words for the roll."""
    gw = GameWidget("mexican", seed=7)
    roll(gw, "5-3")
    gw.keep_button.click()
    play_step(gw, 13, 10)
    play_step(gw, 13, 8)
    roll(gw, "1-2")
    assert gw.game.phase == "play" and not gw.game.state.steps
    assert "a Mexican! Play both dice, the 1 first" in gw.status.value
    assert "<li>Black rolls 2-1.</li>" in gw.messages.value  # the higher die first


def test_drag_plays_a_step_and_keys_select_play_and_undo() -> None:
    """Point 7: a drag (pick-up, then drop) plays the step a click would; a drag of a checker
    that cannot move keeps the reason shown; keys show the next legal step, play it, undo."""
    gw = GameWidget("standard", seed=5)
    roll(gw, "3-1")
    b = gw.board
    click(b, "point", 13, pickup=True)
    click(b, "point", 13, drag=True)  # dropped where it was: still selected
    assert b.selected == 13
    click(b, "point", 24, pickup=True)  # 13 was selected and 13/24 is no step; a pick-up never plays anyway
    assert b.selected == 24
    click(b, "point", 24, pickup=True)
    click(b, "point", 21, drag=True)
    assert gw.game.state.steps and gw.game.state.steps[0].text(24) == "24/21"
    other = GameWidget("standard", seed=5)
    roll(other, "6-2")
    click(other.board, "point", 8)
    click(other.board, "point", 6, pickup=True)  # 8/6 is a step, but a pick-up only selects
    assert other.board.selected == 6 and not other.game.state.steps
    click(b, "point", 1, pickup=True)  # a Black checker: refused with the reason
    reason = b.message
    click(b, "point", 3, drag=True)
    assert b.message == reason and len(gw.game.state.steps) == 1
    # Keys: n shows a legal step (selected, with an arrow), Enter plays it, u undoes.
    click(b, "key", "next")
    step = b.preview
    assert step is not None and b.selected == step.start and marks(b, "arrow") >= 1
    click(b, "key", "next")
    assert b.preview is not None and b.preview != step
    click(b, "key", "play")
    assert gw.game.phase == "roll" and gw.game.current_player == "black"
    click(b, "key", "undo")
    assert gw.game.phase == "play" and len(gw.game.state.steps) == 1
    click(b, "key", "clear")
    assert b.selected is None
    assert normalize_click({"kind": "key", "value": "launch"}, 24)[0] is None


def test_forced_play_is_played_automatically_when_asked() -> None:
    """Point 7: with "Play forced moves" on, a roll with one legal play is played at once."""
    pos = Position.from_string("standard/w/barx2,21,18x3,13,8x2,6x3,5,3,1/23,21x2,18x2,13x2,11,9,6,5,2x4")
    gw = GameWidget(position=pos)
    roll(gw, "1-4")
    assert gw.game.phase == "play" and "only one: bar/21 bar/24" in gw.plays_hint.value
    gw.undo_button.click()
    gw.forced_check.value = True
    roll(gw, "1-4")
    assert gw.game.phase == "roll" and gw.game.current_player == "black"
    assert gw.board.message == "Forced: White plays bar/21 bar/24 (the only legal play)."
    assert gw.record_lines()[-1].text == "1. White 4-1: bar/21 bar/24"


def test_small_faults_of_issue_13() -> None:
    """Point 9: no "to move" after the end; bots named as bots; plays written in the order played;
    the editor quotes a refused count, says when an import changes the variant and rewrites the
    text box after an import."""
    gw = GameWidget("standard", seed=4, opponent="random")
    _play_out(gw)
    assert 'class="turn"' not in gw.board.svg and "to move" not in gw.status.value
    from backgammon_lab.analysis.bots import HeuristicBot

    gw = GameWidget("standard", opponent=HeuristicBot())
    assert ("Heuristic bot", "custom") in gw.opponent_choice.options
    # Mexican: the lower die is played first, and the play is written so.
    gw = GameWidget("mexican", seed=7)
    roll(gw, "5-2")
    gw.keep_button.click()
    play_step(gw, 13, 11)
    play_step(gw, 13, 8)
    assert "White plays 13/11 13/8." in gw.messages.value
    assert gw.record_lines()[-1].text == "1. White 5-2: 13/11 13/8"
    ed = PositionEditor(variant="mexican")
    ed.clear_button.click()
    ed.bar_white.value = 20
    assert "White bar = 20" in ed.board.message and "15" in ed.board.message
    assert ed.bar_white.value == 0 and ed.position.bar == (0, 0)
    ed.text.value = "minigam/w/3x2,offx6/barx8"
    ed.import_button.click()
    assert ed.variant.name == "minigam" and "The variant is now Mini-Gam" in ed.board.message
    assert ed.text.value == ed.position.to_string()
    ed.format.value = "json"  # the box follows the format while it shows this position
    assert ed.text.value == ed.position.to_json_text()
    click(ed.board, "point", 4)
    assert "earlier position" in ed.text_note.value


def test_editor_drag_moves_a_checker() -> None:
    ed = PositionEditor(variant="standard")
    click(ed.board, "point", 13, pickup=True)
    click(ed.board, "point", 10, drag=True)
    assert ed.position.count("white", 13) == 4 and ed.position.count("white", 10) == 1
    assert "Moved a white checker from White's point 13" in ed.board.message
    click(ed.board, "point", 10, pickup=True)
    click(ed.board, "point", 12, drag=True)  # Black's 13: refused
    assert ed.position.count("white", 10) == 1 and "both colours" in ed.board.message


def test_tutor_judges_each_play_and_gives_a_hint() -> None:
    """Point 8: with the tutor on, a play is judged as it is made (exact for Mini-Gam), the best
    play and the one made drawn as arrows; the Hint button names the best play and draws it."""
    pos = Position.from_string("minigam;checkers=2/w/bar,5/4,off")
    gw = GameWidget(position=pos, dice=(4, 2), tutor=True)
    assert visible(gw.hint_button) and not visible(gw.tutor_box)
    gw.hint_button.click()
    assert gw.board.message == "Hint: the best play is bar/3* 5/3 (win 19.8%)."
    assert marks(gw.board, "arrow") == 4  # a line and a head for each of the best play's two steps
    texts = [text for text, _ in gw.plays_list.options]
    gw.plays_list.value = texts.index("bar/3*/1")
    gw.play_button.click()
    v = gw.verdicts[-1]
    assert (v.text, v.best_text, v.mark, v.method) == ("bar/3*/1", "bar/3* 5/3", "very bad", "exact")
    assert visible(gw.tutor_box) and "loses 11.3% against the best play bar/3* 5/3" in gw.tutor_box.value
    assert "data-mark='very bad'" in gw.tutor_box.value and gw.tutor_box.value.count('class="arrow"') >= 2
    # A play made by clicks is judged too; the best one is said to be the best.
    gw = GameWidget(position=pos, dice=(4, 2), tutor=True)
    play_step(gw, 7, 3)
    play_step(gw, 5, 3)
    assert gw.verdicts[-1].is_best and "is the best play" in gw.tutor_box.value
    # Without an evaluator for the variant the tutor says so, and the game goes on.
    gw = GameWidget("standard", seed=1, tutor=True)
    roll(gw, "3-1")
    gw.plays_list.value = 0
    gw.play_button.click()
    assert gw.game.current_player == "black" and gw.board.last_error is None
    assert "data-role='tutor'" in gw.tutor_box.value


def test_doubles_that_cannot_enter_are_shown_lost() -> None:
    """Point 5: a 6-6 that cannot enter appears on the board, four dice crossed out, for the moment
    the turn is lost (until the next roll), and the record says so on the turn's line."""
    pos = Position.from_string("mexican/w/bar,6x5,8x3,13x5,24/3x2,13x5,8x3,6x5")
    gw = GameWidget(position=pos)
    roll(gw, "6-6")
    assert gw.game.current_player == "black" and gw.game.state.lost == (6, 6, 6, 6)
    lost = [el for el in svg_root(gw.board).iter() if el.get("class") == "lost-die"]
    assert len(lost) == 4 and all(el.get("data-value") == "6" for el in lost)
    assert gw.record_lines()[-1].text.startswith("1. White 6-6: ")
    assert "No checker can enter from the bar with 6-6" in gw.messages.value


def test_a_game_widget_steps_through_an_imported_match_game() -> None:
    """Issue 21: a game read from a .mat file shows in the game widget, and its history buttons
    step through the file's moves, position by position."""
    from pathlib import Path

    from backgammon_lab.matchfiles import load_match

    m = load_match(Path(__file__).parent / "data" / "matchfiles" / "alice_bob_3pt.mat")
    game = m.game(1)
    wanted = [e.state.position for e in game.entries]
    gw = GameWidget.from_game(game, opponent="human")
    assert gw.game is game and gw.game.index == 0 and gw.viewing
    seen = [gw.game.position]
    for _ in range(len(game) - 1):
        gw.forward_button.click()
        seen.append(gw.game.position)
    assert seen == wanted and gw.game.index == len(game) - 1
    gw.first_button.click()
    assert gw.game.position == wanted[0]
    with pytest.raises(ValueError, match="takes a Game"):
        GameWidget.from_game("standard")  # type: ignore[arg-type]


# -- words written once (issue 17) -----------------------------------------------------------
def _written(play: Any, roll: Any) -> str:
    """A play as the one writer writes it: in the order played where the variant plays the two
    dice of ``roll`` in one order (Mexican's lower die first), else highest start first."""
    from backgammon_lab.position import format_play

    v = play.position.variant
    return format_play(play.steps, v.points, played_order=v.low_die_first and not roll.is_double)


@pytest.mark.parametrize("variant", ["standard", "mexican", "minigam"])
def test_widget_writes_every_play_roll_and_lost_turn_as_the_engine(variant: str) -> None:
    """15 random games of each variant: the rules panel shows each event's ``text``; the record
    writes every play as ``format_play`` (the 29 plays of issue 17 that ``steps_text`` wrote
    ``8/5 10/8`` against ``10/8/5`` are among them) and every lost turn as the engine's brief; the
    list of legal plays writes each play so too."""
    import html
    import random

    from backgammon_lab.engine import Phase, Played, TurnLost
    from backgammon_lab.game import Game
    from backgammon_lab.position import format_play
    from backgammon_lab.widgets.game import record_lines

    joined = ordered_differs = lists = 0
    for seed in range(15):
        g = Game(variant, seed=seed).play_random(random.Random(seed))
        n = g.variant.points
        segments = [t for ln in record_lines(g.entries[1:], n) if ln.number is not None
                    for _label, t in ln.segments if t and t != "rolled again"]
        expected = []
        for e in g.entries:
            for ev in e.events:
                if isinstance(ev, Played):
                    expected.append(_written(ev.play, ev.roll))
                    steps = ev.play.steps
                    if format_play(steps, n) != format_play(steps, n, played_order=True):
                        joined += 1
                        ordered_differs += g.variant.low_die_first and not ev.roll.is_double
                elif isinstance(ev, TurnLost):
                    expected.append(ev.brief)
        assert [t.split(" (")[0] for t in segments] == expected
        if seed < 2:
            entries = g.entries
            gw = GameWidget.from_game(g)  # shows the first point: the entries are read before
            gw._viewing = False  # the list of plays shows at every point of the game, not read-only
            for i, e in enumerate(entries):
                st = e.state
                if (lists < 25 * (seed + 1) and st.phase is Phase.PLAY and not st.steps and st.plays is not None
                        and st.plays.length):
                    g.goto(i)
                    gw.refresh()
                    assert [label for label, _i in gw.plays_list.options] == [_written(p, st.roll) for p in st.plays]
                    lists += 1
            gw._goto(len(g) - 1)
            gw._msg_from = 0
            shown = gw._messages_html()
            assert all(html.escape(ev.text) in shown for e in entries for ev in e.events)
    assert joined > 0 and lists >= 30  # the plays the two writers wrote differently are exercised
    if variant == "mexican":
        assert ordered_differs > 0  # and some are written in the order played


# -- the game widget's faults (issue 20) -------------------------------------------------------
def test_fault_plain_undo_reads_as_one_take_back() -> None:
    """Undo, then a new step: the record marks no line "◀ shown" (nothing is being looked at) and
    nothing says "a new line of play ... replaced": an ordinary take-back reads as one. After
    "Play from here" the note still says what the new line replaces."""
    gw = GameWidget("standard", seed=5)
    roll(gw, "3-1")
    play_step(gw, 8, 5)
    gw.undo_button.click()
    assert gw.board.message == "Undone." and gw.game.can_redo and not gw.viewing
    assert "◀ shown" not in gw.record.value and "data-shown" not in gw.record.value
    play_step(gw, 6, 5)
    assert gw.board.message == "Played 6/5." and "replaced" not in gw.board.message
    assert not gw.game.can_redo
    # An earlier point looked at, then "Play from here": the replacement is said once.
    play_step(gw, 8, 5)
    gw.back_button.click()
    assert "◀ shown" in gw.record.value
    gw.branch_button.click()
    play_step(gw, 24, 21)
    assert "A new line of play from move 2: the 1 later action was replaced." in gw.board.message
    gw.undo_button.click()
    play_step(gw, 13, 10)
    assert gw.board.message == "Played 13/10."


def test_fault_one_set_of_numbered_arrows_inside_a_mexican_turn() -> None:
    """Inside a Mexican turn (the 1-2, then the named doubles) the board shows one set of
    numbered arrows: the Mexican's play until the first named step, then the named steps only.
    Between players the last play still stays while the next one clicks."""
    from backgammon_lab.widgets.board import board_kwargs

    gw = GameWidget("mexican", seed=7)
    roll(gw, "2-1")
    gw.keep_button.click()
    play_step(gw, 6, 5)
    play_step(gw, 13, 11)
    gw.name_buttons[2].click()  # 3-3
    assert 'class="lastmove"' in gw.board.svg and "played-label" not in gw.board.svg
    play_step(gw, 13, 10)
    play_step(gw, 13, 10)
    svg = gw.board.svg
    assert "played-label" in svg and 'class="lastmove"' not in svg and "lastmove-label" not in svg
    assert "lastmove" not in board_kwargs(gw.game.state)
    play_step(gw, 24, 21)
    play_step(gw, 24, 21)  # all four 3s: White rolls again, the named play shown alone
    assert 'class="lastmove"' in gw.board.svg and 'class="played"' not in gw.board.svg
    roll(gw, "6-4")  # the roll after the doubles: its steps replace the named play's arrows
    play_step(gw, 13, 9)
    assert 'class="played"' in gw.board.svg and 'class="lastmove"' not in gw.board.svg
    play_step(gw, 13, 7)
    roll(gw, "5-3")  # Black's turn: White's last play stays drawn as Black clicks
    play_step(gw, 13, 10)
    assert 'class="lastmove"' in gw.board.svg and 'class="played"' in gw.board.svg


def test_fault_editor_notice_sits_under_the_text_box() -> None:
    """The "text box shows an earlier position" note is the widget right under the text box (not
    in the counts beside the board); Export or typing in the box clears it."""
    ed = PositionEditor(variant="mexican")
    io = ed.children[-1]
    assert list(io.children).index(ed.text_note) == list(io.children).index(ed.text) + 1
    ed.clear_button.click()
    ed.export_button.click()
    assert ed.text_note.value == ""
    click(ed.board, "point", 3)  # the board changes: the box is behind
    assert "The text box above shows an earlier position" in ed.text_note.value
    assert "earlier position" not in ed.status.value
    ed.export_button.click()
    assert ed.text_note.value == "" and ed.text.value == ed.position.to_string()
    click(ed.board, "point", 3)
    assert ed.text_note.value
    ed.text.value = "mexican/w/6x2/6"  # typed by the learner: no longer the editor's text
    assert ed.text_note.value == ""
