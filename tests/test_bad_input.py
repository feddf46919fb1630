"""Bad input: every refusal is a subclass of ``BackgammonError`` (a ``ValueError``), its message
quotes the input, and nothing changes (a Game's state and history are the same after a refused
action)."""

from __future__ import annotations

import base64
import json

import pytest

from backgammon_lab import (
    BackgammonError,
    DiceError,
    GameError,
    IllegalMoveError,
    NotationError,
    Position,
    PositionError,
    Roll,
    VariantError,
    find_variant,
    legal_plays,
    legal_steps,
)
from backgammon_lab.game import Game

START_JSON = Position.start("standard").to_json()


def refused(exc: type[BackgammonError], fn, *quoted: str) -> BackgammonError:
    """Call ``fn``; it must raise ``exc`` (a BackgammonError and ValueError) quoting ``quoted``."""
    with pytest.raises(exc) as info:
        fn()
    err = info.value
    assert isinstance(err, BackgammonError) and isinstance(err, ValueError)
    for q in quoted:
        assert q in str(err), f"{q!r} not quoted in {str(err)!r}"
    return err


def snapshot(g: Game):
    return (g.state, g.history, g.index, len(g), g.rng.getstate(), g.record())


def assert_unchanged(g: Game, fn, exc: type[BackgammonError], *quoted: str) -> None:
    before = snapshot(g)
    refused(exc, fn, *quoted)
    assert snapshot(g) == before


# ----------------------------------------------------------------------------------------------
# JSON


@pytest.mark.parametrize("text", [
    '{"variant": "standard", "points": [1, 2',
    "{'variant': 'standard'}",
    "not json at all",
    "",
])
def test_malformed_json_text(text):
    refused(NotationError, lambda: Position.from_json(text), repr(text)[:30])


def test_json_not_an_object():
    refused(NotationError, lambda: Position.from_json("[1, 2, 3]"), "[1, 2, 3]")


def test_json_missing_and_unknown_keys():
    d = dict(START_JSON)
    del d["turn"]
    refused(NotationError, lambda: Position.from_json(d), "turn")
    d = dict(START_JSON, colour="red")
    refused(NotationError, lambda: Position.from_json(d), "colour")


@pytest.mark.parametrize("field, value, quoted", [
    ("points", [0] * 23, "23"),
    ("points", "24x2", "24x2"),
    ("points", [2.5] + [0] * 23, "2.5"),
    ("bar", {"white": -1, "black": 1}, "-1"),
    ("bar", {"white": 0}, "white"),
    ("off", [0, 0, 0], "[0, 0, 0]"),
    ("turn", "red", "red"),
    ("variant", "chess", "chess"),
])
def test_json_bad_fields(field, value, quoted):
    d = dict(START_JSON)
    d[field] = value
    refused(BackgammonError, lambda: Position.from_json(d), quoted)
    refused(BackgammonError, lambda: Position.from_json(json.dumps(d)), quoted)


def test_json_wrong_checker_count():
    d = dict(START_JSON)
    d["points"] = list(d["points"])
    d["points"][5] = 4  # White has 14
    refused(PositionError, lambda: Position.from_json(d), "14")
    d["points"][5] = 6  # White has 16
    refused(PositionError, lambda: Position.from_json(d), "16")


def test_json_mexican_six_on_a_point():
    d = dict(START_JSON, variant="mexican")
    d["points"] = list(d["points"])
    d["points"][5], d["points"][7] = 6, 2  # White's 6-point holds six (still 15 checkers)
    refused(PositionError, lambda: Position.from_json(d), "6")


# ----------------------------------------------------------------------------------------------
# Position strings


@pytest.mark.parametrize("text", [
    "standard/w/24x2,13x5",  # three fields
    "standard/w/24x2/13x5/6",  # five fields
    "standard/x/24x2/24x2",  # bad turn
    "standard/w/24y2/24x2",  # bad item
    "standard/w/25x2/24x2",  # no point 25
    "standard/w/0x2/24x2",  # no point 0
    "standard/w/13x0/24x2",  # zero count
    "standard/w/13,13/24x2",  # listed twice
    "standard/w/,/24x2",  # empty items
    "chess/w/24x2/24x2",  # unknown variant
    "minigam;bar_first=yes/w/barx8/barx8",  # bad option value
    "minigam;colour=1/w/barx8/barx8",  # unknown option
    "minigam/w/7/barx8",  # no point 7 on Mini-Gam
])
def test_malformed_position_strings(text):
    refused(BackgammonError, lambda: Position.from_string(text), text)
    refused(BackgammonError, lambda: Position.parse(text), text)


def test_position_string_quotes_input():
    for text in ("standard/w/24y2/24x2", "standard/x/24x2/24x2", "standard/w/24x2,13x5"):
        refused(NotationError, lambda t=text: Position.from_string(t), text)


def test_position_string_not_text():
    refused(NotationError, lambda: Position.from_string(42), "42")


def test_position_string_wrong_checker_counts():
    refused(PositionError, lambda: Position.from_string("standard/w/24x2,13x5,8x3,6x6/24x2,13x5,8x3,6x5"),
            "6x6")
    refused(PositionError, lambda: Position.from_string("standard/w/13x5,offx5/24x2"), "offx5")
    refused(PositionError, lambda: Position.from_string("minigam/w/barx9/barx8"), "barx9")


def test_position_string_both_colours_on_a_point():
    # Black's 19 is White's 6, which White already holds.
    refused(PositionError, lambda: Position.from_string("standard/w/6x5/19"), "standard/w/6x5/19")
    refused(PositionError, lambda: Position.from_string("minigam/w/2/5"), "minigam/w/2/5")


def test_position_string_mexican_six():
    refused(PositionError, lambda: Position.from_string("mexican/w/6x6/24x2"), "mexican/w/6x6/24x2")


def test_parse_unreadable():
    refused(NotationError, lambda: Position.parse("hello world"), "hello world")
    refused(NotationError, lambda: Position.parse(None), "None")


# ----------------------------------------------------------------------------------------------
# Position IDs


@pytest.mark.parametrize("pid", [
    "4HPwATDgc/ABM",  # 13 characters
    "4HPwATDgc/ABMAA",  # 15 characters
    "4HPwATDgc/AB!A",  # not base64
    "",
])
def test_malformed_position_ids(pid):
    refused(NotationError, lambda: Position.from_position_id(pid), repr(pid))


def test_position_id_too_many_checkers():
    refused(BackgammonError, lambda: Position.from_position_id("//////////////"), "//////////////")


def _id_from_slots(first: list[int], second: list[int]) -> str:
    """A Position ID from two players' 25 slot counts (points 1-24 and the bar, own numbering)."""
    bits: list[int] = []
    for slots in (first, second):
        for c in slots:
            bits += [1] * c + [0]
    bits += [0] * (80 - len(bits))
    key = bytes(sum(bits[8 * i + j] << j for j in range(8)) for i in range(10))
    return base64.b64encode(key).decode()[:14]


def test_position_id_both_colours_on_a_point():
    # One player on its 1-point, the other on its 24-point: the same point of the board.
    a = [1] + [0] * 24
    b = [0] * 23 + [1, 0]
    pid = _id_from_slots(a, b)
    refused(PositionError, lambda: Position.from_position_id(pid), pid)


def test_position_id_wrong_variant_or_turn():
    refused(NotationError, lambda: Position.from_position_id("4HPwATDgc/ABMA", "minigam"), "4HPwATDgc/ABMA")
    refused(NotationError, lambda: Position.from_position_id("4HPwATDgc/ABMA", "standard", "red"), "red")
    refused(NotationError, lambda: Position.start("minigam").position_id(), "minigam")


def test_position_id_needs_variant_in_parse():
    refused(NotationError, lambda: Position.parse("4HPwATDgc/ABMA"), "4HPwATDgc/ABMA")


def test_position_id_with_fewer_checkers_is_not_an_error():
    # An ID lists the checkers on the board; the rest are borne off. The empty board (both sides
    # all off) cannot happen in a game, and is refused (issue 21).
    assert Position.from_position_id("AAAAQAAAAAAAAA").off == (14, 15)
    refused(PositionError, lambda: Position.from_position_id("AAAAAAAAAAAAAA"), "both players", "AAAAAAAAAAAAAA")


# ----------------------------------------------------------------------------------------------
# Positions built directly, variants


def test_position_constructor_refusals():
    pts = list(Position.start("standard").points)
    refused(PositionError, lambda: Position("standard", pts[:-1]), "23")
    refused(PositionError, lambda: Position("standard", pts, (0, 0), (0, 0), "green"), "green")
    refused(PositionError, lambda: Position("standard", pts, (-1, 0), (1, 0)), "-1")
    refused(PositionError, lambda: Position("standard", [True] + pts[1:]), "True")


def test_unknown_variant_and_option():
    refused(VariantError, lambda: find_variant("chess"), "chess")
    refused(VariantError, lambda: find_variant(7), "7")
    refused(VariantError, lambda: find_variant("minigam", colour="red"), "colour")
    refused(VariantError, lambda: find_variant("minigam", checkers=0), "0")


# ----------------------------------------------------------------------------------------------
# Dice


@pytest.mark.parametrize("dice, quoted", [
    ((0, 3), "0"),
    ((7, 1), "7"),
    ((3, -2), "-2"),
    ((True, 2), "True"),
    ((2.0, 3), "2.0"),
    ("7-1", "7"),
    ("abc", "abc"),
    ("1-2-3", "1-2-3"),
    ((1,), "(1,)"),
    ((1, 2, 3), "(1, 2, 3)"),
    (None, "None"),
])
def test_dice_out_of_range(dice, quoted):
    refused(DiceError, lambda: Roll.parse(dice), quoted)
    pos = Position.start("standard")
    refused(DiceError, lambda: legal_plays(pos, dice), quoted)
    refused(DiceError, lambda: legal_steps(pos, dice), quoted)


def test_roll_constructor_refuses():
    refused(DiceError, lambda: Roll(0, 6), "0")


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), "7-1", "x", (1, 2, 3)])
def test_game_roll_bad_dice_changes_nothing(dice):
    g = Game("standard", seed=1)
    assert_unchanged(g, lambda: g.roll(dice), DiceError)  # the opening roll
    g.roll((6, 1)).play("13/7 8/7")
    assert_unchanged(g, lambda: g.roll(dice), DiceError)


# ----------------------------------------------------------------------------------------------
# Illegal plays and steps


def _at_play(variant="standard", dice=(3, 1), text=None):
    pos = Position.start(variant) if text is None else Position.from_string(text)
    return Game(variant, position=pos).roll(dice)


@pytest.mark.parametrize("move, exc", [
    ("24/18", IllegalMoveError),  # no 6 in 3-1
    ("24/21", IllegalMoveError),  # one die only
    ("13/10 13/10", IllegalMoveError),  # two 3s
    ("6/2 8/7", IllegalMoveError),
    ("24-21 8/7", NotationError),  # unreadable
    ("25/22 8/7", NotationError),  # no point 25
    ("8/5*(7)", BackgammonError),
])
def test_illegal_play_changes_nothing(move, exc):
    g = _at_play()
    assert_unchanged(g, lambda: g.play(move), exc, move)


def test_illegal_play_object_and_steps_change_nothing():
    g = _at_play()
    other = legal_plays(Position.start("standard"), (6, 5))[0]
    assert_unchanged(g, lambda: g.play(other), IllegalMoveError, str(other))
    assert_unchanged(g, lambda: g.play([(24, 21)]), IllegalMoveError)


def test_illegal_step_changes_nothing():
    g = _at_play()
    err = None
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as info:
        g.step("24/18")
    err = info.value
    assert "24/18" in str(err)
    assert snapshot(g) == before
    # mid-play: one step made, then an illegal one
    g.step("8/5")
    assert_unchanged(g, lambda: g.step("8/5"), IllegalMoveError, "8/5")
    assert_unchanged(g, lambda: g.step("13/10"), IllegalMoveError, "13/10")
    assert_unchanged(g, lambda: g.step("hello"), NotationError, "hello")


def test_illegal_step_reason_codes():
    g = _at_play("mexican", (1, 6), "mexican/w/10,8/22x2,23x2")
    with pytest.raises(IllegalMoveError) as info:
        g.step("10/4")
    assert info.value.reason == "lower_die_first"
    with pytest.raises(IllegalMoveError) as info:
        g.step("10/9")
    assert info.value.reason == "use_both_dice"


def test_legal_steps_with_illegal_prefix():
    pos = Position.start("standard")
    refused(IllegalMoveError, lambda: legal_steps(pos, (3, 1), ["24/18"]), "24/18")


def test_play_text_matching_several_plays_or_none():
    pos = Position.start("standard")
    plays = legal_plays(pos, (3, 1))
    refused(IllegalMoveError, lambda: plays.find("6/3"), "6/3")
    assert "6/3" not in plays


# ----------------------------------------------------------------------------------------------
# Bad game actions


def test_action_in_wrong_phase_changes_nothing():
    g = Game("mexican", seed=3)
    assert_unchanged(g, lambda: g.play("24/18"), GameError, "opening")
    assert_unchanged(g, lambda: g.choose("keep"), GameError, "opening")
    assert_unchanged(g, lambda: g.name_doubles(3), GameError, "opening")
    g.roll((5, 3))
    assert_unchanged(g, lambda: g.roll((1, 1)), GameError, "choice")
    assert_unchanged(g, lambda: g.choose("maybe"), GameError, "maybe")
    assert_unchanged(g, lambda: g.choose(None), GameError, "None")
    g.choose("keep")
    assert_unchanged(g, lambda: g.roll(), GameError, "play")
    assert_unchanged(g, lambda: g.name_doubles(2), GameError, "play")


def test_bad_named_doubles_change_nothing():
    g = Game("mexican", position=Position.from_string("mexican/w/20,19,18/1x2"))
    g.roll((1, 2)).play(g.legal_plays()[0])
    assert g.phase == "name"
    for k in (0, 7, "3", 2.5, True):
        assert_unchanged(g, lambda k=k: g.name_doubles(k), GameError, repr(k))


def test_standard_has_no_opening_choice():
    g = Game("standard").roll((6, 1))
    assert_unchanged(g, lambda: g.choose("reroll"), GameError, "play")


def test_game_over_refuses_actions():
    g = Game("standard", position=Position.from_string("standard/w/1/1x14"))
    g.roll((1, 2)).play("1/off")
    assert g.is_over
    assert_unchanged(g, lambda: g.roll(), GameError, "over")
    assert_unchanged(g, lambda: g.apply("x"), GameError, "over")


def test_game_position_already_over():
    refused(GameError, lambda: Game("standard", position=Position.from_string("standard/w/-/1")), "standard/w/")


def test_undo_redo_out_of_range_change_nothing():
    g = Game("standard", seed=5)
    g.roll((6, 1)).play("13/7 8/7")
    assert_unchanged(g, lambda: g.undo(3), GameError, "3")
    assert_unchanged(g, lambda: g.undo(-1), GameError, "-1")
    assert_unchanged(g, lambda: g.redo(1), GameError, "1")
    assert_unchanged(g, lambda: g.goto(99), GameError, "99")


def test_game_record_malformed():
    refused(NotationError, lambda: Game.from_record("{not json"), "{not json")
    refused(NotationError, lambda: Game.from_record({"variant": "standard"}), "variant")
    refused(NotationError, lambda: Game.from_record({"variant": "standard", "actions": [{"dance": 1}]}), "dance")
    refused(VariantError, lambda: Game.from_record({"variant": "chess", "actions": []}), "chess")


def test_game_record_illegal_action_names_it():
    rec = {"variant": "standard", "actions": [{"opening": [3, 1]}, {"play": "24/18 13/11"}]}
    refused(IllegalMoveError, lambda: Game.from_record(rec), "24/18 13/11")
    rec = {"variant": "standard", "actions": [{"opening": [3, 1]}, {"choice": "keep"}]}
    refused(GameError, lambda: Game.from_record(rec), "keep")
    rec = {"variant": "standard", "actions": [{"opening": [9, 1]}]}
    refused(DiceError, lambda: Game.from_record(rec), "9")


# ----------------------------------------------------------------------------------------------
# Issue 11: classes of input that escaped the project's errors (each also fuzzed in test_parse_fuzz)

S = Position.start("standard")


def test_deeply_nested_json_is_a_notation_error():
    refused(NotationError, lambda: Position.from_json("[" * 100000), "[[[[")
    refused(NotationError, lambda: Position.from_json(b"[" * 100000), "[[[[")
    refused(NotationError, lambda: Position.parse("{" * 100000), "{{{{")


def test_deeply_nested_variant_option_is_a_notation_error():
    text = "minigam;bar_first=" + "[" * 100000 + "/w/barx8/barx8"
    refused(NotationError, lambda: Position.from_string(text), "minigam;bar_first=[[[")


@pytest.mark.parametrize("text", [
    "standard/w/" + "1" * 5000 + "/-",
    "standard/w/6x" + "1" * 5000 + "/-",
    "standard/w/6x3/" + "9" * 400,
])
def test_huge_integers_in_position_strings(text):
    refused(NotationError, lambda: Position.from_string(text), text[:20])


def test_huge_integers_in_json():
    big = '{"variant": "standard", "points": [' + "1" * 5000 + '], "bar": [0, 0], "off": [0, 0], "turn": "white"}'
    refused(NotationError, lambda: Position.from_json(big), big[:20])
    large = {**START_JSON, "points": [10**4000] + START_JSON["points"][1:]}
    refused(PositionError, lambda: Position.from_json(large), "too large")
    refused(PositionError, lambda: Position("standard", [10**5000] * 24), "too large")


def test_huge_integers_in_moves_and_dice():
    refused(NotationError, lambda: legal_plays(S, (3, 1)).find("1" * 5000 + "/5"), "1111")
    refused(NotationError, lambda: legal_plays(S, (3, 1)).find("8/5(" + "9" * 5000 + ")"), "8/5(")
    refused(DiceError, lambda: Roll.parse("1" * 5000 + "-1"), "1111")
    refused(DiceError, lambda: legal_plays(S, (10**5000, 1)), "too large")


def test_unicode_digits_dice_and_moves_are_treated_alike():
    """Decimal digits of any script are digits (as int() reads them); look-alikes are refused."""
    assert Roll.parse("٣-١") == Roll(3, 1) and Roll.parse("３１") == Roll(3, 1)
    assert str(legal_plays(S, (3, 1)).find("٨/٥ ٦/٥")) == "8/5 6/5"
    refused(DiceError, lambda: Roll.parse("²-1"), "'²-1'")
    refused(DiceError, lambda: legal_plays(S, "²-1"), "'²-1'")
    refused(NotationError, lambda: legal_plays(S, (3, 1)).find("8/5²"), "8/5²")


def test_dice_text_out_of_range_quotes_both_dice():
    refused(DiceError, lambda: Roll.parse("95"), "'95'", "9-5")


def test_a_file_holding_its_own_path(tmp_path):
    f = tmp_path / "loop.txt"
    f.write_text(str(f), encoding="utf-8")
    refused(BackgammonError, lambda: Position.parse(str(f)), str(f))


def test_a_file_that_is_not_utf8(tmp_path):
    f = tmp_path / "latin1.txt"
    f.write_bytes("standard/w/6x15/é".encode("latin-1"))
    refused(NotationError, lambda: Position.parse(str(f)), str(f), "UTF-8")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(START_JSON), encoding="utf-8")
    assert Position.parse(str(good)) == S


def test_json_bytes():
    refused(NotationError, lambda: Position.from_json(b"\x80"), "b'\\x80'", "UTF-8")
    assert Position.from_json(json.dumps(START_JSON).encode()) == S


@pytest.mark.parametrize("call", [
    lambda: legal_steps(S, (3, 1), [(None, 3)]),
    lambda: legal_steps(S, (3, 1), 5),
    lambda: legal_steps(S, (3, 1), [(8.0, 5)]),
    lambda: legal_steps(S, (3, 1), [(8, 5, 3, 1)]),
    lambda: legal_plays(S, (3, 1)).find(5),
    lambda: legal_plays(S, {3, 1}),
    lambda: legal_plays(S, b"31"),
    lambda: Position.from_json(None),
    lambda: Position.from_json({**START_JSON, "options": []}),
    lambda: Position.from_json({**START_JSON, "variant": ["standard"]}),
    lambda: Position.parse(b"standard/w/-/-"),
], ids=["none-in-step", "steps-not-a-list", "float-point", "four-numbers", "move-not-text", "dice-set",
        "dice-bytes", "json-none", "options-list", "variant-list", "parse-bytes"])
def test_wrong_types_are_refused(call):
    refused(BackgammonError, call)


def test_move_text_with_more_moves_than_the_roll_is_refused_at_once():
    import time

    p = Position.from_string("standard/b/24,22x3,21x3,15,14,12,10x2,7,5x2/24,22x2,21,17,14,8x4,6x3,2x2")
    plays = legal_plays(p, (1, 1))
    t0 = time.perf_counter()
    refused(NotationError, lambda: plays.find("8/7(9)"), "8/7(9)")
    refused(NotationError, lambda: plays.find("8/7(9) 8/7(9)"), "8/7(9) 8/7(9)")
    err = refused(IllegalMoveError, lambda: plays.find("8/7(3) 8/7(2)"), "8/7(3) 8/7(2)")
    assert err.reason == "too_many_steps"
    assert time.perf_counter() - t0 < 0.5


def test_json_form_keeps_variant_options():
    for v in (find_variant("minigam", bar_first=True), find_variant("minigam", checkers=3),
              find_variant("minigam", bar_first=True, checkers=1)):
        p = Position.start(v)
        assert p.to_json()["options"] == {k: x for k, x in v.option_values.items() if x != v.options[k]}
        back = Position.from_json(p.to_json())
        assert back == p and back.variant.bar_first == v.bar_first and back.variant.checkers == v.checkers
    assert "options" not in S.to_json()  # default options: the JSON form is unchanged
