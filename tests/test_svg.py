"""Tests of the SVG renderer :mod:`backgammon_lab.svg`: structure, geometry, determinism, ids,
escaping, dice, annotations, the CLI hooks and the freshness of the pictures in ``docs/``."""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.util
import inspect
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon_lab import DiceError, Position, find_variant, legal_plays
from backgammon_lab.cli.render import add_render_arguments, render_command
from backgammon_lab.errors import BackgammonError, RenderError
from backgammon_lab.svg import THEMES, SvgBoard, Theme, board

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"

# Positions of every variant: starts, bar and tray counts, tall stacks, compressed stacks.
POSITIONS: dict[str, Position] = {
    "standard_start": Position.start("standard"),
    "standard_midgame": Position.from_string("standard/w/24,13x4,8x3,7x2,6x4,4/24,20,13x4,8x2,6x4,5x2"),
    "standard_bar_trays": Position("standard", [-2, 0, 1, 2, 2, 9, 0, 0, 0, 0, 0, 0,
                                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, -3],
                                   bar=(1, 2), off=(0, 4), turn="black"),
    "standard_fifteen_on_one": Position("standard", [15] + [0] * 22 + [-15]),
    "standard_all_off": Position("standard", [0] * 23 + [-1], off=(15, 14), turn="black"),
    "standard_bars_full": Position("standard", [0] * 24, bar=(8, 9), off=(7, 6)),
    "mexican_start": Position.start("mexican"),
    "mexican_capped": Position("mexican", [5, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0, 0, 0, -5, -5, 0, -5, 0, 0]),
    "minigam_start": Position.start("minigam"),
    "minigam_mid": Position("minigam", [2, -1, 3, 0, -3, 1], bar=(1, 2), off=(1, 2), turn="black"),
    "minigam_tall": Position("minigam", [8, 0, 0, 0, 0, -7], bar=(0, 1)),
    "minigam_small": Position.start(find_variant("minigam", checkers=3)),
    "minigam_fifteen": Position(find_variant("minigam", checkers=15), [15, 0, 0, 0, 0, 0],
                                bar=(0, 15)),
}


# ---------------------------------------------------------------------------------------------
# Golden pictures: the bytes recorded from the renderer before it was split into layers
# (tests/data/svg_golden.json). ``python tests/test_svg.py --record-golden`` rewrites the file;
# do that only for a change of the picture that is meant, and say which cases changed.

GOLDEN = ROOT / "tests" / "data" / "svg_golden.json"

CUSTOM_THEME = Theme(
    name="custom", background="#ffffff", text="#000000", muted="#777777", frame="#334455",
    felt="#ddeedd", tray="#ccbbaa", point_a="#aa3333", point_b="#3333aa", white_fill="#ffffee",
    white_stroke="#222222", white_text="#111111", black_fill="#112233", black_stroke="#000000",
    black_text="#eeeeee", select="#0072b2", target="#009e73", highlight="#cc79a7",
    arrow="#e69f00", lastmove="#56b4e9", casing="#ffffff")


def golden_cases() -> dict[str, tuple[Position, dict[str, object]]]:
    """Named inputs of :func:`board` across the variants, themes, dice states and annotations."""
    P = POSITIONS
    start = P["standard_start"]
    mid = P["standard_midgame"]
    play31 = legal_plays(start, (3, 1)).find("8/5 6/5")
    after31 = play31.position.with_turn("black")
    mini_play = legal_plays(P["minigam_mid"], (5, 2))[0]
    cases: dict[str, tuple[Position, dict[str, object]]] = {}
    for name, pos in P.items():
        cases[f"{name}-plain"] = (pos, {})
    cases.update({
        "start-black-dark": (start, {"orientation": "black", "theme": "dark"}),
        "start-custom-theme": (start, {"theme": CUSTOM_THEME, "dice": (2, 4)}),
        "start-size-none": (start, {"size": None, "dice": "6-5"}),
        "start-size-320": (start, {"size": 320, "dice": (5, 6), "dice_left": [5]}),
        "start-dice-all-used": (start, {"dice": (6, 5), "dice_left": []}),
        "start-doubles-one-left": (start, {"dice": (3, 3), "dice_left": [3]}),
        "start-arrows-play": (start, {"dice": (3, 1), "arrows": [play31], "caption": "make the 5"}),
        "start-arrows-text-pairs": (start, {"arrows": ["24/18/13", (6, 2)], "targets": [18, 13]}),
        "start-arrows-steps": (start, {"arrows": list(play31.steps), "orientation": "black"}),
        "after-lastmove-play": (after31, {"lastmove": play31, "dice": (6, 4)}),
        "after-lastmove-text-dark": (after31, {"lastmove": "8/5 6/5", "theme": "dark"}),
        "mid-selected-targets-highlight": (mid, {"selected": 8, "targets": [5, 4, 2],
                                                 "highlight": [6, 7], "dice": (3, 1)}),
        "mid-names-caption": (mid, {"names": {"white": "Ada", "black": "Ben"},
                                    "caption": "word " * 40 + "\nsecond paragraph"}),
        "mid-hostile-text": (mid, {"names": {"white": "<script>&\"", "black": "bell\x07 nul\x00"},
                                   "caption": "]]><!-- x -->&amp;"}),
        "mid-long-names": (mid, {"names": {"white": "Maximilian Alexander von Hohenzollern the Third",
                                           "black": None}}),
        "mid-no-pips-no-numbers": (mid, {"show_pips": False, "numbers": False, "theme": "dark"}),
        "mid-id-prefix": (mid, {"id_prefix": "left", "dice": (1, 1), "reroll_due": True}),
        "bar-trays-selected-bar": (P["standard_bar_trays"].with_turn("white"),
                                   {"selected": 25, "targets": [21, 17, 0], "highlight": [6, 5],
                                    "dice": (4, 4), "dice_left": [4, 4, 4]}),
        "bar-trays-black-arrows": (P["standard_bar_trays"], {"arrows": ["bar/22", "6/off"],
                                                             "selected": 25, "dice": (3, 6)}),
        "bear-off-arrows": (Position("standard", [2, 2] + [0] * 21 + [-15], off=(11, 0)),
                            {"arrows": ["2/off 1/off"], "targets": [0], "selected": 0}),
        "all-off-reroll": (P["standard_all_off"], {"dice": (2, 2), "dice_left": [],
                                                    "reroll_due": True, "orientation": "black"}),
        "mexican-named-1-2": (P["mexican_start"], {"dice": (1, 2), "named_double": 4,
                                                   "dice_left": [4, 4]}),
        "mexican-named-2-1-dark": (P["mexican_start"], {"dice": (2, 1), "named_double": 6,
                                                        "theme": "dark", "reroll_due": True}),
        "mexican-named-as-doubles": (P["mexican_start"], {"dice": (4, 4), "named_double": 4}),
        "mexican-capped-targets": (P["mexican_capped"], {"targets": [4, 5], "highlight": [1, 2, 3],
                                                         "dice": (2, 1)}),
        "minigam-start-selected": (P["minigam_start"], {"dice": (3, 1), "selected": 7,
                                                        "targets": [6, 4]}),
        "minigam-mid-play": (P["minigam_mid"], {"dice": (5, 2), "arrows": [mini_play],
                                                "caption": str(mini_play)}),
        "minigam-mid-black-dark": (P["minigam_mid"], {"orientation": "black", "theme": "dark",
                                                      "dice": (6, 6), "dice_left": [6],
                                                      "reroll_due": True}),
        "minigam-mid-named": (P["minigam_mid"], {"dice": (1, 2), "named_double": 3,
                                                 "dice_left": [3, 3, 3, 3], "highlight": [0, 7]}),
        "minigam-mid-lastmove": (P["minigam_mid"].with_turn("white"),
                                 {"lastmove": "5/3", "targets": [0, 1], "selected": 7}),
        "minigam-small-black": (P["minigam_small"], {"orientation": "black", "dice": (1, 6),
                                                     "numbers": False, "size": 200}),
        "minigam-fifteen-names": (P["minigam_fifteen"], {"names": {"white": "W" * 30},
                                                         "arrows": ["1/off"], "theme": CUSTOM_THEME}),
    })
    return cases


def golden_digest(svg: str) -> dict[str, object]:
    return {"sha256": hashlib.sha256(svg.encode("utf-8")).hexdigest(), "bytes": len(svg)}


def record_golden() -> None:
    """Rewrite tests/data/svg_golden.json from the current renderer."""
    data = {name: golden_digest(board(pos, **kw)) for name, (pos, kw) in golden_cases().items()}  # type: ignore[arg-type]
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


@pytest.mark.parametrize("name", sorted(golden_cases()))
def test_golden_bytes(name: str) -> None:
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    pos, kw = golden_cases()[name]
    assert golden_digest(board(pos, **kw)) == want[name]  # type: ignore[arg-type]


def test_golden_file_covers_every_case() -> None:
    assert set(json.loads(GOLDEN.read_text(encoding="utf-8"))) == set(golden_cases())


def parse(svg: str) -> ET.Element:
    """Parse with the strict XML parser (raises on any malformed markup)."""
    return ET.fromstring(svg)


def elements(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def place_key(e: ET.Element) -> tuple[str, str]:
    for attr in ("data-point", "data-bar", "data-off"):
        if e.get(attr) is not None:
            return attr, e.get(attr)  # type: ignore[return-value]
    raise AssertionError(f"element without a place: {e.attrib}")


def expected_counts(pos: Position) -> dict[tuple[str, str], tuple[str, int]]:
    out: dict[tuple[str, str], tuple[str, int]] = {}
    for i, c in enumerate(pos.points):
        if c:
            out[("data-point", str(i + 1))] = ("white" if c > 0 else "black", abs(c))
    for j, who in enumerate(("white", "black")):
        if pos.bar[j]:
            out[("data-bar", who)] = (who, pos.bar[j])
        if pos.off[j]:
            out[("data-off", who)] = (who, pos.off[j])
    return out


def checker_bounds(e: ET.Element) -> tuple[float, float, float, float]:
    if e.tag == NS + "circle":
        cx, cy, r = float(e.get("cx")), float(e.get("cy")), float(e.get("r"))  # type: ignore[arg-type]
        return cx - r, cy - r, cx + r, cy + r
    x, y = float(e.get("x")), float(e.get("y"))  # type: ignore[arg-type]
    return x, y, x + float(e.get("width")), y + float(e.get("height"))  # type: ignore[arg-type]


def areas(root: ET.Element) -> dict[tuple[str, str], tuple[float, float, float, float]]:
    out = {}
    for cls in ("point", "bar", "off"):
        for e in elements(root, cls):
            x, y = float(e.get("x")), float(e.get("y"))  # type: ignore[arg-type]
            out[place_key(e)] = (x, y, x + float(e.get("width")), y + float(e.get("height")))  # type: ignore[arg-type]
    return out


# ---------------------------------------------------------------------------------------------
# Structure and geometry


@pytest.mark.parametrize("orientation", ["white", "black"])
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_checker_elements_match_position(name: str, orientation: str, theme: str) -> None:
    pos = POSITIONS[name]
    root = parse(board(pos, orientation=orientation, theme=theme))  # type: ignore[arg-type]
    found: dict[tuple[str, str], list[ET.Element]] = {}
    for e in elements(root, "checker"):
        found.setdefault(place_key(e), []).append(e)
    want = expected_counts(pos)
    assert set(found) == set(want)
    for key, (colour, count) in want.items():
        assert len(found[key]) == count, key
        assert {e.get("data-color") for e in found[key]} == {colour}, key
    assert len(elements(root, "checker")) == 2 * pos.variant.checkers


@pytest.mark.parametrize("orientation", ["white", "black"])
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_checker_lies_inside_its_area(name: str, orientation: str) -> None:
    pos = POSITIONS[name]
    root = parse(board(pos, orientation=orientation))  # type: ignore[arg-type]
    area = areas(root)
    n = pos.variant.points
    assert len(area) == n + 4
    for e in elements(root, "checker"):
        x0, y0, x1, y1 = checker_bounds(e)
        ax0, ay0, ax1, ay1 = area[place_key(e)]
        assert ax0 - 0.05 <= x0 and x1 <= ax1 + 0.05, (place_key(e), e.attrib)
        assert ay0 - 0.05 <= y0 and y1 <= ay1 + 0.05, (place_key(e), e.attrib)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_checkers_of_one_place_do_not_coincide(name: str) -> None:
    root = parse(board(POSITIONS[name]))
    seen: set[tuple[str, str, str]] = set()
    for e in elements(root, "checker"):
        key = (e.get("cx") or e.get("x") or "", e.get("cy") or e.get("y") or "", e.get("data-color") or "")
        assert key not in seen
        seen.add(key)


def test_tall_stacks_carry_a_count_on_the_top_checker() -> None:
    root = parse(board(POSITIONS["standard_fifteen_on_one"]))
    counts = sorted(e.text for e in elements(root, "count"))
    assert counts == ["15", "15"]
    root = parse(board(POSITIONS["standard_start"]))
    assert elements(root, "count") == []  # five fit on a point: no numbers


def test_bar_and_tray_counts_are_written() -> None:
    root = parse(board(POSITIONS["standard_bars_full"]))
    texts = [e.text for e in root.iter(NS + "text")]
    for n in ("8", "9", "7", "6"):
        assert n in texts


@pytest.mark.parametrize("n,variant", [(24, "standard"), (24, "mexican"), (6, "minigam")])
def test_data_attributes_use_both_numberings(n: int, variant: str) -> None:
    for orientation in ("white", "black"):
        root = parse(board(Position.start(variant), orientation=orientation))  # type: ignore[arg-type]
        pts = elements(root, "point")
        assert sorted(int(e.get("data-point")) for e in pts) == list(range(1, n + 1))  # type: ignore[arg-type]
        for e in pts:
            assert int(e.get("data-point")) + int(e.get("data-point-black")) == n + 1  # type: ignore[arg-type]
        assert sorted(e.get("data-bar") for e in elements(root, "bar")) == ["black", "white"]  # type: ignore[type-var]
        assert sorted(e.get("data-off") for e in elements(root, "off")) == ["black", "white"]  # type: ignore[type-var]
        for e in elements(root, "checker"):
            if e.get("data-point"):
                assert int(e.get("data-point")) + int(e.get("data-point-black")) == n + 1  # type: ignore[arg-type]
        assert root.get("data-variant") == variant and root.get("data-orientation") == orientation


def test_orientation_flips_the_picture_not_the_attributes() -> None:
    pos = POSITIONS["standard_midgame"]
    a = areas(parse(board(pos, orientation="white")))
    b = areas(parse(board(pos, orientation="black")))
    # White's point 1 is bottom right from White's side, top right from Black's.
    assert a[("data-point", "1")][0] == b[("data-point", "1")][0]
    assert a[("data-point", "1")][1] > b[("data-point", "1")][1]
    assert a[("data-point", "1")][1] == b[("data-point", "24")][1]
    m = areas(parse(board(POSITIONS["minigam_mid"], orientation="white")))
    k = areas(parse(board(POSITIONS["minigam_mid"], orientation="black")))
    assert m[("data-point", "1")][0] < m[("data-point", "6")][0]  # White exits left
    assert k[("data-point", "1")][0] > k[("data-point", "6")][0]  # from Black's side: mirrored
    # Mini-Gam: each end holds one player's bar and the other's tray.
    assert m[("data-off", "white")][0] == m[("data-bar", "black")][0]
    assert m[("data-off", "black")][0] == m[("data-bar", "white")][0]
    assert m[("data-off", "white")][0] < m[("data-point", "1")][0] < m[("data-bar", "white")][0]


def test_numbers_follow_the_orientation() -> None:
    def labels(svg: str) -> list[str]:
        return [e.text or "" for e in parse(svg).iter(NS + "text")]

    def bottom_right_number(svg: str, who: str) -> str:
        nums = [e for e in parse(svg).iter(NS + "text") if e.get("class") == "num" and e.get("data-player") == who]
        return max(nums, key=lambda e: (float(e.get("y")), float(e.get("x")))).text  # type: ignore[arg-type,return-value]

    pos = Position.start("standard")
    # Each side sees its own point 1 at the bottom right (its row next to the points; the other
    # side's numbering is written outside it).
    assert bottom_right_number(board(pos), "white") == "1" == bottom_right_number(board(pos, orientation="black"), "black")
    assert sorted(labels(board(pos))) == sorted(labels(board(pos, orientation="black")))
    assert not any(t == "24" for t in labels(board(pos, numbers=False)))
    mini = labels(board(Position.start("minigam")))
    assert mini.count("1") >= 2 and mini.count("6") >= 2  # both numberings on the strip


@pytest.mark.parametrize("variant", ["standard", "minigam"])
@pytest.mark.parametrize("orientation", ["white", "black"])
def test_both_numberings_the_movers_emphasised(variant: str, orientation: str) -> None:
    """Every point is labelled in both numberings; the side to move's labels are bold, the
    other's muted, whichever side the board is seen from."""
    n = find_variant(variant).points
    for turn in ("white", "black"):
        pos = Position.start(variant, turn)
        nums = [e for e in parse(board(pos, orientation=orientation)).iter(NS + "text") if e.get("class") == "num"]
        assert len(nums) == 2 * n
        for e in nums:
            at, who = int(e.get("data-at", "0")), e.get("data-player")
            assert e.text == str(at if who == "white" else n + 1 - at)
            assert (e.get("data-mover") == "1") == (who == turn) == (e.get("font-weight") == "bold")


# ---------------------------------------------------------------------------------------------
# Text and accessibility


def test_title_and_desc_hold_the_position() -> None:
    pos = POSITIONS["standard_bar_trays"]
    root = parse(board(pos, dice=(6, 5)))
    title = root.find(NS + "title")
    desc = root.find(NS + "desc")
    assert title is not None and desc is not None
    assert "Black (black) to move" in (title.text or "") and "6-5" in (title.text or "")
    assert str(pos) in (desc.text or "")
    assert pos.to_string() in (desc.text or "")


def test_pips_names_turn_and_caption() -> None:
    pos = POSITIONS["standard_midgame"]
    root = parse(board(pos, names={"white": "Ada", "black": "Ben"}, caption="Look here"))
    texts = [e.text for e in root.iter(NS + "text")]
    assert f"pips {pos.pip_count('white')}" in texts and f"pips {pos.pip_count('black')}" in texts
    assert "Ada" in texts and "Ben" in texts and "Look here" in texts
    assert len(elements(root, "turn")) == 1
    root = parse(board(pos, show_pips=False))
    assert not elements(root, "pips")


def test_long_captions_wrap() -> None:
    root = parse(board(Position.start("minigam"), caption="word " * 80 + "\nsecond paragraph"))
    lines = elements(root, "caption")
    assert len(lines) > 3
    assert lines[-1].text == "second paragraph"
    heights = float(root.get("viewBox").split()[3])  # type: ignore[union-attr]
    assert float(lines[-1].get("y")) < heights  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Determinism and ids


def test_same_bytes_twice_in_one_process() -> None:
    import svgwrite

    pos = POSITIONS["standard_midgame"]
    kw = dict(dice=(3, 1), arrows=["8/5 6/5"], caption="x")
    a = board(pos, **kw)  # type: ignore[arg-type]
    # svgwrite's automatic ids come from a process-wide counter: use it in between.
    d = svgwrite.Drawing()
    for _ in range(5):
        d.add(d.circle()).get_id()
    b = board(pos, **kw)  # type: ignore[arg-type]
    assert a == b
    assert isinstance(a, SvgBoard)


SNIPPET = """
import hashlib, sys, svgwrite
d = svgwrite.Drawing()
for _ in range(int(sys.argv[1])):
    d.add(d.rect()).get_id()
from backgammon_lab import Position
from backgammon_lab.svg import board
pos = Position.from_string("standard/w/24,13x4,8x3,7x2,6x4,4/24,20,13x4,8x2,6x4,5x2")
pics = [board(pos, dice=(3, 1), arrows=["8/5 6/5"], caption="x"),
        board(Position.start("minigam"), theme="dark", orientation="black", dice=(2, 2), dice_left=[2])]
print(hashlib.sha256("".join(pics).encode()).hexdigest())
"""


def test_same_bytes_across_processes() -> None:
    pos = POSITIONS["standard_midgame"]
    here = "".join([board(pos, dice=(3, 1), arrows=["8/5 6/5"], caption="x"),
                    board(Position.start("minigam"), theme="dark", orientation="black", dice=(2, 2),
                          dice_left=[2])])
    want = hashlib.sha256(here.encode()).hexdigest()
    for warmup in ("0", "7"):
        out = subprocess.run([sys.executable, "-c", SNIPPET, warmup], capture_output=True, text=True,
                             cwd=ROOT, check=True, env={"PYTHONHASHSEED": warmup, "PATH": ""})
        assert out.stdout.strip() == want


def ids(svg: str) -> list[str]:
    return [e.get("id") for e in parse(svg).iter() if e.get("id") is not None]  # type: ignore[misc]


def test_ids_are_prefixed_and_unique_within_a_picture() -> None:
    svg = board(POSITIONS["standard_bar_trays"], dice=(4, 4), reroll_due=True)
    found = ids(svg)
    root_id = parse(svg).get("id")
    assert root_id and root_id.startswith("bg-")
    assert len(found) == len(set(found))
    assert all(i == root_id or i.startswith(root_id + "-") for i in found)
    assert "url(#" not in svg and "href" not in svg  # nothing refers to an id


def test_two_boards_on_one_page_share_no_ids() -> None:
    pics = [board(p) for p in POSITIONS.values()]
    pics.append(board(POSITIONS["standard_start"], dice=(6, 5)))  # same position, other dice
    pics.append(board(POSITIONS["standard_start"], orientation="black"))
    all_ids = [i for svg in pics for i in ids(svg)]
    assert len(all_ids) == len(set(all_ids))


def test_explicit_id_prefix_and_identical_boards() -> None:
    pos = POSITIONS["standard_start"]
    assert board(pos) == board(pos)  # identical input: identical bytes, ids included
    a, b = board(pos, id_prefix="left"), board(pos, id_prefix="right")
    assert parse(a).get("id") == "left" and not set(ids(a)) & set(ids(b))
    for bad in ("", "1abc", "a b", 'x"><script>', "a" * 80):
        with pytest.raises(BackgammonError):
            board(pos, id_prefix=bad)


# ---------------------------------------------------------------------------------------------
# Escaping


HOSTILE = [
    "<script>alert(1)</script>",
    '"><svg onload="alert(1)">',
    "Tom & Jerry's \"game\"",
    "]]><!-- x -->&amp;&#x26;",
    "bell\x07 nul\x00 esc\x1b \ud800 end",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_names_and_captions_are_escaped(text: str) -> None:
    svg = board(POSITIONS["standard_start"], names={"white": text, "black": text}, caption=text)
    root = parse(svg)  # still well-formed XML
    tags = {e.tag for e in root.iter()}
    assert NS + "script" not in tags
    assert all(not k.startswith("on") for e in root.iter() for k in e.attrib)
    assert "<script" not in svg and "<svg onload" not in svg and "<!--" not in svg
    safe = "".join(ch for ch in text if ch >= " " and not 0xD800 <= ord(ch) <= 0xDFFF)
    captions = " ".join(e.text or "" for e in elements(root, "caption"))
    assert " ".join(safe.split()) == captions
    for name in (e.text or "" for e in elements(root, "name")):
        assert name == safe or (name.endswith("\u2026") and safe.startswith(name[:-1]))


def test_long_names_are_cut_before_the_turn_marker() -> None:
    long = "Maximilian Alexander von Hohenzollern-Sigmaringen the Third"
    for variant in ("standard", "minigam"):
        root = parse(board(Position.start(variant), names={"white": long, "black": "B"}))
        white, black = elements(root, "name")
        assert white.text and white.text.endswith("\u2026") and long.startswith(white.text[:-1])
        assert len(white.text) > 25 and black.text == "B"


# ---------------------------------------------------------------------------------------------
# Dice


def dice_of(svg: str) -> list[tuple[str, str, str]]:
    return [(e.get("data-die"), e.get("data-value"), e.get("data-used"))  # type: ignore[misc]
            for e in elements(parse(svg), "die")]


def test_dice_states() -> None:
    pos = POSITIONS["standard_start"]
    assert dice_of(board(pos)) == []
    assert dice_of(board(pos, dice=(6, 5))) == [("0", "6", "0"), ("1", "5", "0")]
    assert dice_of(board(pos, dice="6-5", dice_left=[5])) == [("0", "6", "1"), ("1", "5", "0")]
    assert dice_of(board(pos, dice=(6, 5), dice_left=[])) == [("0", "6", "1"), ("1", "5", "1")]
    assert dice_of(board(pos, dice=(3, 3), dice_left=[3])) == [
        ("0", "3", "1"), ("1", "3", "1"), ("2", "3", "1"), ("3", "3", "0")]
    named = board(POSITIONS["mexican_start"], dice=(1, 2), named_double=4, dice_left=[4, 4])
    assert dice_of(named) == [("0", "4", "1"), ("1", "4", "1"), ("2", "4", "0"), ("3", "4", "0")]
    mex = elements(parse(named), "mexican")
    assert [e.get("data-value") for e in mex] == ["1", "2"] and all(e.get("data-used") == "1" for e in mex)
    # The named doubles may also be given as the dice themselves: then no throw is drawn before
    # them (the picture does not guess which roll they were named after).
    as_doubles = board(POSITIONS["mexican_start"], dice=(4, 4), named_double=4)
    assert dice_of(as_doubles) == dice_of(board(POSITIONS["mexican_start"], dice=(2, 1), named_double=4))
    assert elements(parse(as_doubles), "mexican") == []
    assert "named 4-4" in (parse(as_doubles).findtext(NS + "title") or "")
    assert not elements(parse(board(pos, dice=(6, 5))), "reroll")
    assert elements(parse(board(pos, dice=(6, 6), dice_left=[], reroll_due=True)), "reroll")


def test_dice_are_drawn_in_the_movers_colour_and_half() -> None:
    w = parse(board(Position.start("standard", turn="white"), dice=(6, 5)))
    b = parse(board(Position.start("standard", turn="black"), dice=(6, 5)))
    dw = [e for e in elements(w, "die")][0].find(NS + "rect")
    db = [e for e in elements(b, "die")][0].find(NS + "rect")
    assert dw is not None and db is not None
    assert float(dw.get("x")) > float(db.get("x"))  # type: ignore[arg-type]
    assert dw.get("fill") != db.get("fill")


@pytest.mark.parametrize("kw", [
    {"dice": (6, 5), "dice_left": [4]},
    {"dice": (6, 5), "dice_left": [6, 6]},
    {"dice": (6, 5), "named_double": 0},
    {"dice": (6, 5), "named_double": True},
    {"dice": "\u00b2-1"},
    {"dice": "1" * 5000 + "-1"},
    {"dice": (1, 2), "named_double": 7},
    {"dice_left": [3]},
    {"dice": (0, 5)},
    {"dice": "banana"},
    {"dice": (6, 5), "dice_left": ["x"]},
    {"dice": (6, 5), "dice_left": 5},
])
def test_bad_dice_raise(kw: dict) -> None:
    with pytest.raises(DiceError):
        board(POSITIONS["standard_start"], **kw)


# ---------------------------------------------------------------------------------------------
# Rendering without rules: the picture draws what the caller says the dice show


def test_named_doubles_are_drawn_after_any_roll_the_caller_names() -> None:
    # No rule in the picture: whether 6-5 allows naming is the game's business, not the renderer's.
    root = parse(board(POSITIONS["standard_start"], dice=(6, 5), named_double=3, dice_left=[3]))
    assert [e.get("data-value") for e in elements(root, "mexican")] == ["6", "5"]
    assert dice_of(board(POSITIONS["standard_start"], dice=(6, 5), named_double=3, dice_left=[3])) == [
        ("0", "3", "1"), ("1", "3", "1"), ("2", "3", "1"), ("3", "3", "0")]
    rects = [e.find(NS + "rect") for e in elements(root, "die")]
    assert all(r is not None and r.get("stroke-dasharray") == "4 2" for r in rects)  # named: dashed
    assert "dice 6-5 then named 3-3" in (root.findtext(NS + "title") or "")


def test_the_number_of_dice_in_play_comes_from_the_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    pos = Position.start("standard")
    assert len(dice_of(board(pos, dice=(5, 5)))) == 4
    # A variant whose hook plays doubles as three moves gets three dice drawn: svg counts nothing.
    monkeypatch.setattr(pos.variant, "dice_orders", lambda dice: ((dice[0],) * 3,) if dice[0] == dice[1]
                        else (dice,))
    assert dice_of(board(pos, dice=(5, 5), dice_left=[5])) == [("0", "5", "1"), ("1", "5", "1"),
                                                                ("2", "5", "0")]
    assert dice_of(board(pos, dice=(2, 5))) == [("0", "2", "0"), ("1", "5", "0")]


SVG_PACKAGE = ROOT / "backgammon_lab" / "svg"


def test_svg_holds_no_game_rule_and_no_command_line() -> None:
    sources = {p.name: p.read_text(encoding="utf-8") for p in SVG_PACKAGE.glob("*.py")}
    assert "__init__.py" in sources and len(sources) >= 6
    for name, text in sources.items():
        for rule in ("is_mexican", "is_double", ".mexican", "doubles_roll_again", "after_play",
                     "low_die_first", "(1, 2)", "{1, 2}", "argparse", "sys.argv"):
            assert rule not in text, (name, rule)
    assert not (ROOT / "backgammon_lab" / "svg.py").exists()


def test_each_layer_module_is_small() -> None:
    for path in SVG_PACKAGE.glob("*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines < 330, (path.name, lines)
    src = (SVG_PACKAGE / "__init__.py").read_text(encoding="utf-8")
    body = src[src.index("def render("):]
    assert body.count("\n") < 50  # the composition of the layers reads at a glance


# ---------------------------------------------------------------------------------------------
# The layers one by one


def test_dice_layer_draws_a_dice_view() -> None:
    import svgwrite

    from backgammon_lab.svg._dice import dice_layer
    from backgammon_lab.svg._geometry import layout
    from backgammon_lab.svg._options import DiceView
    from backgammon_lab.svg._xml import Builder

    b = Builder(svgwrite.Drawing(debug=False))
    th = THEMES["light"]
    assert dice_layer(b, layout(find_variant("standard"), "white", True), th, "white", DiceView(), False) == []
    dv = DiceView(thrown=(2, 1), in_play=(4, 4, 4, 4), used=(1, 0, 0, 0), named=4, label="x")
    els = dice_layer(b, layout(find_variant("standard"), "white", True), th, "white", dv, True)
    classes = [e.attribs.get("class") for e in els]
    assert classes.count("mexican") == 2 and classes.count("die") == 4 and "reroll" in classes
    grid = dice_layer(b, layout(find_variant("minigam"), "black", True), th, "black", dv, False)
    ys = sorted({e.elements[0].attribs["y"] for e in grid if e.attribs.get("class") == "die"})
    assert len(ys) == 2  # two rows of two in the strip's panel


def test_checker_layer_returns_checkers_and_counts() -> None:
    import svgwrite

    from backgammon_lab.svg._checkers import checker_layer
    from backgammon_lab.svg._geometry import layout
    from backgammon_lab.svg._xml import Builder

    b = Builder(svgwrite.Drawing(debug=False))
    pos = POSITIONS["standard_fifteen_on_one"]
    checkers, counts = checker_layer(b, layout(find_variant("standard"), "white", True), THEMES["dark"], pos)
    assert len(checkers) == 30 and [c._text for c in counts] == ["15", "15"]


def test_arrow_layer_skips_zero_length_and_replays_the_last_play() -> None:
    import svgwrite

    from backgammon_lab.svg._annotations import arrow, arrows_layer
    from backgammon_lab.svg._geometry import Places, layout
    from backgammon_lab.svg._xml import Builder

    b = Builder(svgwrite.Drawing(debug=False))
    assert arrow(b, 10, 10, 12, 11, "#000", "#fff", "arrow", dashed=False) == []
    assert len(arrow(b, 0, 0, 100, 0, "#000", "#fff", "arrow", dashed=True)) == 3
    pos = Position.start("standard")
    places = Places(layout(find_variant("standard"), "white", True), pos)
    solid = arrows_layer(b, places, THEMES["light"], [("white", 24, 18, 0)], last=False)
    dashed = arrows_layer(b, places, THEMES["light"], [("white", 24, 18, 0)], last=True)
    assert [e.attribs.get("class") for e in solid] == ["casing", "arrow", "arrow"]
    assert [e.attribs.get("class") for e in dashed] == ["casing", "lastmove", "lastmove"]
    assert abs(float(solid[1].attribs["x1"]) - float(dashed[1].attribs["x1"])) < 1  # both from White's 24
    assert solid[1].attribs["y1"] != dashed[1].attribs["y1"]  # but from another checker's slot


@pytest.mark.parametrize("text", HOSTILE + ["tab\tcr\rlf\n quote\" amp& lt< gt>", "", "0", "\u00e9\u2026"])
def test_fast_serializer_writes_what_elementtree_writes(text: str) -> None:
    import svgwrite

    from backgammon_lab.svg._xml import Builder, drawing_text

    safe = "".join(ch for ch in text if ch >= " " or ch in "\t\r\n")
    safe = "".join(ch for ch in safe if not 0xD800 <= ord(ch) <= 0xDFFF)
    dwg = svgwrite.Drawing(debug=False, id="x")
    dwg.set_desc(title="t", desc="d")
    b = Builder(dwg)
    g = b.group({"id": "x-g", "data-a": safe, "class": "", "z": "1"}, [b.el("text", {"x": "1"}, safe)])
    g.elements.append(b.el("rect", {"data-b": safe}))
    dwg.add(g)
    dwg.add(b.el("circle", {"r": "2"}))
    out: list[str] = []
    g.write_xml(out)
    assert "".join(out) == g.tostring()
    assert drawing_text(dwg) == dwg.tostring()


def test_read_options_gives_plain_values() -> None:
    from backgammon_lab.svg._options import read_dice, read_points, read_steps

    v = find_variant("mexican")
    dv = read_dice(v, "2-1", [4, 4], 4)
    assert (dv.thrown, dv.in_play, dv.used, dv.named) == ((2, 1), (4, 4, 4, 4), (1, 1, 0, 0), 4)
    assert read_dice(v, (3, 5), None, None).in_play == (3, 5)
    assert read_points(7, v, "targets") == (7,)
    assert read_points([5, 0, 5, 25], v, "targets") == (0, 5, 25)
    assert read_steps("bar/22 6/off", "black", v, "arrows") == (("black", 25, 22, 0), ("black", 6, 0, 0))
    # Each Play or move text is a group (drawn in its own colour); steps given alone share one.
    assert [g for *_x, g in read_steps(["24/18", (13, 11), (6, 5), "8/5 6/5"], "white", v, "arrows")] \
        == [0, 1, 1, 2, 2]


def test_several_plays_each_in_a_colour_and_every_step_numbered() -> None:
    start = Position.start("standard")
    plays = [legal_plays(start, (3, 1)).find(t) for t in ("8/5 6/5", "24/21 6/5", "13/10 6/5")]
    root = parse(board(start, arrows=plays))
    heads = [e for e in root.iter(NS + "polygon") if e.get("class") == "arrow"]
    assert len({e.get("fill") for e in heads}) == 3 and len(heads) == 6
    labels = [e.text for e in root.iter(NS + "text") if e.get("class") == "arrow-label"]
    assert labels == ["1", "2"] * 3
    # Two checkers on one route: their numbers do not cover each other.
    twice = parse(board(start, arrows=["13/10(2)"]))
    spots = {(e.get("cx"), e.get("cy")) for e in twice.iter(NS + "circle") if e.get("class") == "arrow-label"}
    assert len(spots) == 2
    # The steps played so far this turn: solid numbered arrows beside the dashed last play.
    after = legal_plays(start, (3, 1)).find("8/5 6/5")
    now = after.position.with_turn("black")
    step = legal_plays(now, (6, 5)).find("24/18 18/13").steps[0]
    svg = board(now, lastmove=after, played=[step])
    assert svg.count('class="played"') == 2 and svg.count('class="lastmove"') == 4


def test_lost_dice_are_crossed_out_in_the_loser_half() -> None:
    pos = Position.start("standard", "black")
    root = parse(board(pos, lost_dice=[6, 6, 6, 6]))
    lost = [e for e in root.iter(NS + "g") if e.get("class") == "lost-die"]
    assert [e.get("data-value") for e in lost] == ["6"] * 4
    assert any(e.text == "lost" for e in root.iter(NS + "text"))
    with pytest.raises(DiceError, match="7"):
        board(pos, lost_dice=[7])


# ---------------------------------------------------------------------------------------------
# Bad options: the project's own errors, quoting the input (issue 11)


@pytest.mark.parametrize("kw,error,quoted", [
    ({"theme": [1]}, RenderError, "[1]"),
    ({"theme": None}, RenderError, "None"),
    ({"names": ["white"]}, RenderError, "['white']"),
    ({"names": "white"}, RenderError, "'white'"),
    ({"names": {"white": "A", 3: "B"}}, RenderError, "3"),
    ({"targets": 3.5}, RenderError, "3.5"),
    ({"highlight": 3.5}, RenderError, "3.5"),
    ({"selected": 3.5}, RenderError, "3.5"),
    ({"targets": "7"}, RenderError, "'7'"),
    ({"highlight": b"\x05"}, RenderError, "b'\\x05'"),
    ({"selected": [True]}, RenderError, "True"),
    ({"arrows": 5}, RenderError, "5"),
    ({"arrows": 3.5}, RenderError, "3.5"),
    ({"arrows": [5]}, RenderError, "5"),
    ({"arrows": [(24, 18.0)]}, RenderError, "18.0"),
    ({"arrows": ["1" * 5000 + "/3"]}, BackgammonError, "111"),
    ({"lastmove": 5}, RenderError, "5"),
    ({"lastmove": [None]}, RenderError, "None"),
    ({"size": 10**400}, RenderError, "about 401 digits"),
    ({"size": 10**5000}, RenderError, "about 5001 digits"),
    ({"size": 100_001}, RenderError, "100001"),
    ({"size": 2.0}, RenderError, "2.0"),
    ({"size": True}, RenderError, "True"),
    ({"orientation": [1]}, RenderError, "[1]"),
    ({"id_prefix": 5}, RenderError, "5"),
    ({"dice": "\u00b2-1"}, DiceError, "\u00b2-1"),
    ({"dice": (6, 5), "dice_left": [float("inf")]}, DiceError, "inf"),
    ({"dice": (6, 5), "dice_left": [5.0]}, DiceError, "5.0"),
    ({"dice": (6, 5), "dice_left": "5"}, DiceError, "'5'"),
    ({"dice": (6, 5), "named_double": 2.5}, DiceError, "2.5"),
])
def test_bad_options_raise_project_errors_quoting_the_input(kw: dict, error: type, quoted: str) -> None:
    with pytest.raises(error) as info:
        board(POSITIONS["standard_start"], **kw)
    assert quoted in str(info.value)
    assert len(str(info.value)) < 400  # a huge input is quoted short


def test_a_theme_must_hold_text() -> None:
    good = {f.name: getattr(CUSTOM_THEME, f.name) for f in dataclasses.fields(Theme)}
    for bad in (5, None, "#fff\x00", ["#fff"]):
        with pytest.raises(RenderError, match="felt"):
            Theme(**{**good, "felt": bad})  # type: ignore[arg-type]


def test_refused_options_change_nothing() -> None:
    dice_left, targets, arrows = [5], [7, 3.5], ["24/18", 5]
    kept = (list(dice_left), list(targets), list(arrows))
    for kw in ({"dice": (6, 5), "dice_left": dice_left, "targets": targets},
               {"dice": (6, 5), "dice_left": dice_left, "arrows": arrows}):
        with pytest.raises(BackgammonError):
            board(POSITIONS["standard_start"], **kw)  # type: ignore[arg-type]
    assert (dice_left, targets, arrows) == kept
    assert board(POSITIONS["standard_start"]) == board(POSITIONS["standard_start"])


# ---------------------------------------------------------------------------------------------
# Fuzz: any keyword values give a picture that parses as XML, or a project error

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(), st.sampled_from([10**400, -(10**30), 2**64]),
    st.floats(allow_nan=True), st.text(max_size=12), st.binary(max_size=4),
    st.lists(st.one_of(st.integers(-3, 30), st.text(max_size=3), st.none()), max_size=4),
    st.tuples(st.integers(-2, 30), st.integers(-2, 30)),
    st.dictionaries(st.text(max_size=6), st.one_of(st.text(max_size=6), st.none()), max_size=3),
)
POINT = st.integers(-2, 27)
MOVE_TEXT = st.text(alphabet="0123456789/*() barof,-\u0663\u00b2", max_size=16)


def or_junk(*valid: st.SearchStrategy) -> st.SearchStrategy:
    """One of the valid values three times in four, else junk."""
    good = st.one_of(*valid)
    return st.one_of(good, good, good, JUNK)


KEYWORDS = {
    "orientation": or_junk(st.sampled_from(["white", "black"])),
    "size": or_junk(st.integers(-5, 200_000), st.none()),
    "theme": or_junk(st.sampled_from(["light", "dark", "neon"]), st.just(CUSTOM_THEME)),
    "dice": or_junk(st.tuples(st.integers(0, 7), st.integers(0, 7)),
                    st.text(alphabet="0123456789- \u00b2\u0663", max_size=5)),
    "dice_left": or_junk(st.lists(st.integers(0, 7), max_size=5)),
    "named_double": or_junk(st.integers(0, 7)),
    "reroll_due": or_junk(st.booleans()),
    "selected": or_junk(POINT, st.lists(POINT, max_size=3)),
    "targets": or_junk(st.lists(POINT, max_size=5), POINT),
    "highlight": or_junk(st.lists(POINT, max_size=5), POINT),
    "arrows": or_junk(st.lists(or_junk(MOVE_TEXT, st.tuples(POINT, POINT)), max_size=3), MOVE_TEXT),
    "lastmove": or_junk(MOVE_TEXT, st.lists(st.tuples(POINT, POINT), max_size=3)),
    "show_pips": or_junk(st.booleans()),
    "names": or_junk(st.fixed_dictionaries({}, optional={"white": st.text(), "black": st.text()})),
    "caption": or_junk(st.text(max_size=200)),
    "id_prefix": or_junk(st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,70}", fullmatch=True)),
    "numbers": or_junk(st.booleans()),
    "played": or_junk(st.lists(or_junk(MOVE_TEXT, st.tuples(POINT, POINT)), max_size=3), MOVE_TEXT),
    "lost_dice": or_junk(st.lists(st.integers(-1, 8), max_size=5)),
}
FUZZ_EXAMPLES = 1500
FUZZ_TRIED: list[int] = [0, 0, 0, 0]  # junk tried, drawn; well-formed tried, drawn


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(pos=st.sampled_from(sorted(POSITIONS)), kw=st.fixed_dictionaries({}, optional=KEYWORDS))
def test_fuzz_keywords_give_xml_or_a_project_error(pos: str, kw: dict) -> None:
    FUZZ_TRIED[0] += 1
    before = repr(kw)
    try:
        svg = board(POSITIONS[pos], **kw)
    except BackgammonError as e:
        assert str(e)
    else:
        FUZZ_TRIED[1] += 1
        root = parse(svg)
        assert root.tag == NS + "svg" and isinstance(svg, SvgBoard)
    assert repr(kw) == before  # the options given are left as they were


HOSTILE_TEXT = st.text(alphabet=st.one_of(st.characters(), st.sampled_from("<>&\"'\x00\x07\ud800]")),
                       max_size=60)
WELL_FORMED = {
    "orientation": st.sampled_from(["white", "black"]),
    "size": st.one_of(st.none(), st.integers(1, 4000)),
    "theme": st.sampled_from(["light", "dark", CUSTOM_THEME]),
    "dice": st.tuples(st.integers(1, 6), st.integers(1, 6)),
    "dice_left": st.lists(st.integers(1, 6), max_size=4),
    "named_double": st.integers(1, 6),
    "reroll_due": st.booleans(),
    "selected": st.integers(0, 25),
    "targets": st.lists(st.integers(0, 25), max_size=5),
    "highlight": st.lists(st.integers(0, 25), max_size=5),
    "arrows": st.lists(st.tuples(st.integers(1, 25), st.integers(0, 24)), max_size=4),
    "lastmove": st.lists(st.tuples(st.integers(1, 25), st.integers(0, 24)), max_size=4),
    "show_pips": st.booleans(),
    "names": st.fixed_dictionaries({}, optional={"white": HOSTILE_TEXT, "black": HOSTILE_TEXT}),
    "caption": HOSTILE_TEXT,
    "id_prefix": st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}", fullmatch=True),
    "numbers": st.booleans(),
    "played": st.lists(st.tuples(st.integers(1, 25), st.integers(0, 24)), max_size=4),
    "lost_dice": st.lists(st.integers(1, 6), max_size=4),
}
WELL_FORMED_EXAMPLES = 1000


@settings(max_examples=WELL_FORMED_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(pos=st.sampled_from(sorted(POSITIONS)), kw=st.fixed_dictionaries({}, optional=WELL_FORMED))
def test_fuzz_well_formed_keywords_draw_every_checker(pos: str, kw: dict) -> None:
    FUZZ_TRIED[2] += 1
    position = POSITIONS[pos]
    try:
        svg = board(position, **kw)
    except BackgammonError as e:
        assert str(e)
        return
    FUZZ_TRIED[3] += 1
    root = parse(svg)
    assert len(elements(root, "checker")) == 2 * position.variant.checkers
    assert len(elements(root, "die")) in ((0, 2, 4) if "dice" in kw else (0,))
    assert NS + "script" not in {e.tag for e in root.iter()}


def test_fuzz_ran_every_example() -> None:
    # Runs after the fuzz tests in file order (pytest-randomly is off in these runs: -p no:randomly).
    if FUZZ_TRIED[0] == 0 or FUZZ_TRIED[2] == 0:
        pytest.skip("the fuzz tests did not run in this session")
    assert FUZZ_TRIED[0] >= FUZZ_EXAMPLES * 0.9 and FUZZ_TRIED[2] >= WELL_FORMED_EXAMPLES * 0.9
    assert FUZZ_TRIED[1] >= FUZZ_TRIED[0] // 40  # some junk-laden inputs still draw a picture
    assert FUZZ_TRIED[3] >= FUZZ_TRIED[2] // 3
    print(f"fuzz: {FUZZ_TRIED[0]} junk inputs tried ({FUZZ_TRIED[1]} pictures), "
          f"{FUZZ_TRIED[2]} well-formed ({FUZZ_TRIED[3]} pictures)")


# ---------------------------------------------------------------------------------------------
# Annotations


def test_selected_targets_highlight() -> None:
    pos = POSITIONS["standard_bar_trays"].with_turn("white")
    root = parse(board(pos, selected=25, targets=[21, 17, 0], highlight=[6, 5]))
    assert len(elements(root, "selected")) == 1
    assert len([e for e in elements(root, "target") if e.tag == NS + "rect"]) == 4  # 3 tints + tray
    assert len(elements(root, "highlight")) == 2
    sel = elements(root, "selected")[0]
    bar = [e for e in elements(root, "checker") if e.get("data-bar") == "white"][0]
    assert (sel.get("cx"), sel.get("cy")) == (bar.get("cx"), bar.get("cy"))
    for bad in ({"selected": 26}, {"targets": [-1]}, {"highlight": ["6"]}):
        with pytest.raises(BackgammonError):
            board(pos, **bad)  # type: ignore[arg-type]


def test_target_ring_on_a_blot_and_on_an_own_point() -> None:
    pos = Position.from_string("standard/w/24,13x4,8x3,7x2,6x4,4/24,20,13x4,8x2,6x4,5x2")
    root = parse(board(pos, targets=[5, 4]))
    rings = [e for e in elements(root, "target") if e.tag == NS + "circle"]
    chk = elements(root, "checker")
    # White's 5 holds a black blot (Black's 20): the ring sits on it. White's 4 holds one White
    # checker: the ring sits above it.
    blot = [e for e in chk if e.get("data-point") == "5"][0]
    assert any((r.get("cx"), r.get("cy")) == (blot.get("cx"), blot.get("cy")) for r in rings)
    own = [e for e in chk if e.get("data-point") == "4"][0]
    assert any(r.get("cx") == own.get("cx") and r.get("cy") != own.get("cy") for r in rings)


def test_arrows_from_steps_pairs_text_and_plays() -> None:
    pos = Position.start("standard")
    play = legal_plays(pos, (6, 5)).find("24/13")
    by_play = board(pos, arrows=[play])
    by_steps = board(pos, arrows=list(play.steps))
    by_pairs = board(pos, arrows=[(24, 18), (18, 13)])
    by_text = board(pos, arrows="24/18/13")
    arrows = [elements(parse(s), "arrow") for s in (by_play, by_steps, by_pairs, by_text)]
    assert all(len(a) == 4 for a in arrows)  # line + head per step
    assert all([e.attrib for e in a] == [e.attrib for e in arrows[0]] for a in arrows)
    with pytest.raises(BackgammonError):
        board(pos, arrows=[(25, 30)])
    with pytest.raises(BackgammonError):
        board(pos, arrows=[object()])


def test_black_arrows_go_the_other_way() -> None:
    pos = Position.start("standard", turn="black")
    root = parse(board(pos, arrows=["13/7"]))
    line = [e for e in elements(root, "arrow") if e.tag == NS + "line"][0]
    # Black's 13 is White's 12 (bottom left), Black's 7 is White's 18 (top left): it goes up.
    assert float(line.get("y2")) < float(line.get("y1"))  # type: ignore[arg-type]
    mini = Position("minigam", [2, -1, 3, 0, -3, 1], bar=(1, 2), off=(1, 2), turn="black")
    r = parse(board(mini, arrows=["5/3"]))
    ln = [e for e in elements(r, "arrow") if e.tag == NS + "line"][0]
    assert float(ln.get("x2")) > float(ln.get("x1"))  # type: ignore[arg-type]  # Black moves right
    w = parse(board(mini.with_turn("white"), arrows=["3/1"]))
    ln = [e for e in elements(w, "arrow") if e.tag == NS + "line"][0]
    assert float(ln.get("x2")) < float(ln.get("x1"))  # type: ignore[arg-type]  # White moves left


def test_lastmove_is_replayed_backwards() -> None:
    before = Position.start("standard")
    play = legal_plays(before, (3, 1)).find("8/5 6/5")
    after = play.position.with_turn("black")
    root = parse(board(after, lastmove=play))
    assert len(elements(root, "lastmove")) == 4
    # Steps without a Play are read in the numbering of the player who just moved (White here).
    same = parse(board(after, lastmove="8/5 6/5"))
    assert [e.attrib for e in elements(same, "lastmove")] == [e.attrib for e in elements(root, "lastmove")]
    ends = {(e.get("x2"), e.get("y2")) for e in elements(root, "lastmove") if e.tag == NS + "line"}
    assert len(ends) == 2


def test_bear_off_and_bar_arrows_reach_the_tray_and_leave_the_bar() -> None:
    pos = Position("standard", [2, 2] + [0] * 21 + [-15], off=(11, 0))
    root = parse(board(pos, arrows=["2/off 1/off"]))
    tray = areas(root)[("data-off", "white")]
    heads = [e for e in elements(root, "arrow") if e.tag == NS + "polygon"]
    for h in heads:
        x, y = map(float, h.get("points").split()[0].split(","))  # type: ignore[union-attr]
        assert tray[0] <= x <= tray[2] and tray[1] <= y <= tray[3]
    pos = POSITIONS["standard_bar_trays"]  # Black to move with two on the bar
    root = parse(board(pos, arrows=["bar/22"]))
    bar = areas(root)[("data-bar", "black")]
    line = [e for e in elements(root, "arrow") if e.tag == NS + "line"][0]
    assert bar[0] <= float(line.get("x1")) <= bar[2]  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# API shape


def test_api_is_keyword_only_without_mutable_defaults() -> None:
    sig = inspect.signature(board)
    params = list(sig.parameters.values())
    assert params[0].name == "position"
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:])
    for p in params[1:]:
        assert not isinstance(p.default, (list, dict, set)), p.name
    with pytest.raises(TypeError):
        board(Position.start("standard"), "black")  # type: ignore[misc]
    with pytest.raises(RenderError, match="standard/w/24x2"):
        board("standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5")  # type: ignore[arg-type]
    for bad in ({"orientation": "north"}, {"theme": "neon"}, {"size": 0}, {"names": {"red": "x"}}):
        with pytest.raises(BackgammonError):
            board(Position.start("standard"), **bad)  # type: ignore[arg-type]


def test_size_and_notebook_hooks(tmp_path: Path) -> None:
    pos = Position.start("minigam")
    pic = board(pos, size=300)
    root = parse(pic)
    assert root.get("width") == "300"
    vb = [float(x) for x in root.get("viewBox").split()]  # type: ignore[union-attr]
    assert int(root.get("height")) == round(300 * vb[3] / vb[2])  # type: ignore[arg-type]
    assert "width" not in parse(board(pos, size=None)).attrib
    assert pic._repr_svg_() == str(pic)
    assert pos._repr_svg_() == board(pos)
    out = pic.save(tmp_path / "b.svg")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<?xml") and ET.fromstring(text.split("\n", 1)[1]) is not None


def test_core_does_not_import_the_renderer() -> None:
    code = ("import sys, backgammon_lab, backgammon_lab.game; "
            "print('backgammon_lab.svg' in sys.modules, 'svgwrite' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["False", "False"]


# ---------------------------------------------------------------------------------------------
# Command line hooks


def run_render(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_render_arguments(parser)
    return render_command(parser.parse_args(argv))


def test_render_command_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    code = run_render(["standard/b/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", "-o", str(out),
                       "--orientation", "black", "--theme", "dark", "--size", "320", "--caption", "A & B",
                       "--dice", "6-5", "--dice-left", "5", "--arrows", "13/7", "--targets", "7,0",
                       "--white-name", "W", "--black-name", "<B>", "--id-prefix", "cli"])
    assert code == 0
    root = ET.fromstring(out.read_text(encoding="utf-8").split("\n", 1)[1])
    assert root.get("id") == "cli" and root.get("width") == "320"
    assert root.get("data-orientation") == "black"
    assert [e.text for e in elements(root, "caption")] == ["A & B"]
    pos = Position.from_string("standard/b/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5")
    same = board(pos, orientation="black", theme="dark", size=320, caption="A & B", dice=(6, 5),
                 dice_left=[5], arrows=["13/7"], targets=[7, 0], names={"white": "W", "black": "<B>"},
                 id_prefix="cli")
    assert out.read_text(encoding="utf-8") == '<?xml version="1.0" encoding="utf-8"?>\n' + same + "\n"


def test_render_command_stdout_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_render(["minigam/w/barx8/barx8", "--named-double", "3", "--dice", "1-2", "--reroll"]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    assert run_render(["not a position"]) == 2
    assert "error" in capsys.readouterr().err
    assert run_render(["minigam/w/barx8/barx8", "--dice", "9-9"]) == 2
    assert run_render(["minigam/w/barx8/barx8", "--targets", "x"]) == 2


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("backgammon-lab render: error: ")
    return lines[0]


def test_render_write_failures_are_one_line_with_status_1(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    for target in ("/nonexistent/dir/b.svg", str(tmp_path)):
        assert run_render(["minigam/w/barx8/barx8", "-o", target]) == 1
        out, err = capsys.readouterr()
        assert out == "" and repr(target) in one_line(err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, quoted", [
    (["--size", "1" * 400], "--size"),
    (["--size", "1" * 5000], "--size"),
    (["--size", "0"], "'0'"),
    (["--size", "4.5"], "'4.5'"),
    (["--selected", "\u00b2"], "\u00b2"),
    (["--named-double", "9" * 30], "--named-double"),
    (["--targets", "1" * 5000], "--targets"),
    (["--dice-left", "\u00b2"], "--dice-left"),
    (["--dice", "\u00b2-1"], "\u00b2-1"),
    (["--arrows", "1" * 5000 + "/1"], "111"),
])
def test_render_bad_numbers_are_one_short_line_with_status_2(capsys: pytest.CaptureFixture[str],
                                                             argv: list[str], quoted: str) -> None:
    assert run_render(["standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5", *argv]) == 2
    line = one_line(capsys.readouterr().err)
    assert quoted in line and len(line) < 400


def test_render_from_the_shell_entry_points(tmp_path: Path) -> None:
    pos = "standard/w/24x2,13x5,8x3,6x5/24x2,13x5,8x3,6x5"
    out = subprocess.run([sys.executable, "-m", "backgammon_lab", "render", pos, "-o", "/nonexistent/d/b.svg"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 1 and out.stdout == ""
    assert "/nonexistent/d/b.svg" in one_line(out.stderr)
    script = Path(sys.executable).parent / "backgammon-lab"
    if not script.exists():
        pytest.skip("the backgammon-lab script is not installed beside this Python")
    target = tmp_path / "b.svg"
    out = subprocess.run([str(script), "render", pos, "--size", "300", "-o", str(target)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and out.stderr == ""
    assert parse(target.read_text(encoding="utf-8").split("\n", 1)[1]).get("width") == "300"


def test_cli_main_renders_when_wired(tmp_path: Path) -> None:
    cli = pytest.importorskip("backgammon_lab.cli")
    out = tmp_path / "m.svg"
    code = cli.main(["render", "minigam/w/barx8/barx8", "-o", str(out)])
    assert code == 0 and out.read_text(encoding="utf-8").startswith("<?xml")


# ---------------------------------------------------------------------------------------------
# Docs pictures


def load_make_pictures():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs" / "make_pictures.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_docs_pictures_are_fresh() -> None:
    mod = load_make_pictures()
    stale = []
    for name, make in mod.PICTURES.items():
        path = ROOT / "docs" / "pictures" / f"{name}.svg"
        if not path.exists() or path.read_text(encoding="utf-8") != mod.file_text(make()):
            stale.append(name)
    assert not stale, f"run `python docs/make_pictures.py`: stale pictures {stale}"
    doc = (ROOT / "docs" / "rendering.md").read_text(encoding="utf-8")
    for name in mod.PICTURES:
        assert f"pictures/{name}.svg" in doc


if __name__ == "__main__":
    if sys.argv[1:] == ["--record-golden"]:
        record_golden()
    else:
        sys.exit("usage: python tests/test_svg.py --record-golden")
