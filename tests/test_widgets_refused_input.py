"""Issue 11, widgets: bad text in a dice field is refused with a message in the widget (never an
exception escaping to the kernel), and a refused board option leaves the board as it was."""

from __future__ import annotations

import pytest

from backgammon_lab import Position
from backgammon_lab.widgets import BoardWidget, GameWidget, PositionEditor

#: Dice texts a person may type or paste: Unicode digits ('²' passes ``str.isdigit``), huge
#: numbers, a die out of range, junk.
BAD_DICE = ["²-1", "3-²", "1" * 5000 + "-1", "7-1", "0-3", "3", "a-b", "-", "3-1-2", "\x00"]


@pytest.mark.parametrize("text", BAD_DICE)
def test_game_widget_dice_field_refuses_with_a_message(text: str) -> None:
    gw = GameWidget("standard", seed=1)
    before = repr(gw)
    gw.dice_text.value = text
    gw.roll_button.click()  # must not raise
    assert gw.board.message, "a refusal is shown in the widget"
    assert len(gw.board.message) < 300
    assert repr(gw) == before and gw.game.phase == "opening" and gw.game.index == 0
    gw.dice_text.value = "3-1"  # the widget still works afterwards
    gw.roll_button.click()
    assert gw.game.index == 1


@pytest.mark.parametrize("text", BAD_DICE)
def test_position_editor_dice_field_refuses_and_keeps_the_dice(text: str) -> None:
    ed = PositionEditor(variant="standard")
    ed.dice_text.value = "5-2"
    assert str(ed.dice) == "5-2"
    ed.dice_text.value = text  # must not raise
    assert str(ed.dice) == "5-2"
    assert ed.board.message.startswith("Refused:") and "The dice stay 5-2" in ed.board.message
    assert len(ed.board.message) < 300


@pytest.mark.parametrize("bad", [{"size": 0}, {"size": -5}, {"theme": "no such theme"}, {"orientation": "up"}])
def test_refused_set_options_leaves_the_board_unchanged(bad: dict[str, object]) -> None:
    b = BoardWidget(Position.start("standard"), size=320)
    svg, options, info = b.svg, b.options, dict(b.info)
    with pytest.raises(ValueError):
        b.set_options(**bad)
    assert b.options == options == {"size": 320}
    assert b.svg == svg and b.info == info
    b.set_options(size=400)  # later redraws still work
    assert b.options == {"size": 400} and b.svg != svg


def test_refused_show_keeps_the_position_too() -> None:
    start, other = Position.start("standard"), Position.start("mexican")
    b = BoardWidget(start)
    with pytest.raises(ValueError):
        b.show(other, size=0)
    assert b.position == start and b.options == {}
    b.show(other)
    assert b.position == other
