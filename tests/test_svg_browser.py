"""The pictures in a real browser: a gallery of boards rendered in headless Chromium.

Each picture is saved as a PNG under ``artifacts/gallery/`` (git-ignored) to be looked at when the
drawing changes. The test also checks, in the browser, that every point, bar, tray and die is hit
by a click at its centre (the attributes a widget relies on) and that the checkers counted by CSS
selectors match the position.

Skipped when Playwright or Debian's Chromium (``/usr/bin/chromium``) is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backgammon_lab import Position, find_variant, legal_plays
from backgammon_lab.svg import SvgBoard, board

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "gallery"


def gallery() -> dict[str, tuple[Position, SvgBoard]]:
    """The pictures to look at: each variant, bar and tray counts, dark theme, arrows, dice states."""
    out: dict[str, tuple[Position, SvgBoard]] = {}

    def add(name: str, pos: Position, **kw: Any) -> None:
        out[name] = (pos, board(pos, id_prefix=f"g-{name}", **kw))

    start = Position.start("standard")
    add("standard_start_6-5", start, dice=(6, 5), arrows=[legal_plays(start, (6, 5)).find("24/13")],
        caption="Standard start: 6-5, run a back checker (24/13)")
    mid = Position.from_string("standard/b/24,13x4,8x3,7x2,6x4,4/24,20,13x4,8x2,6x4,5x2")
    add("standard_dark_from_black", mid, orientation="black", theme="dark", dice=(6, 4), dice_left=[4],
        arrows=["24/18"], names={"white": "Ada", "black": "Ben"}, caption="Dark theme, seen from Black")
    bar = Position("standard", [-2, 0, 1, 2, 2, 9, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, -3], bar=(1, 2), off=(0, 4))
    add("standard_bar_and_trays", bar, dice=(4, 4), dice_left=[4, 4, 4], selected=25, targets=[21],
        lastmove="13/9 6/2", caption="Bar and tray counts, a tall stack, selection and target")
    add("standard_fifteen_on_a_point", Position("standard", [15] + [0] * 22 + [-15]),
        caption="Fifteen on one point: compressed, counted")
    add("standard_bear_off", Position("standard", [2, 2] + [0] * 21 + [-15], off=(11, 0)),
        dice=(2, 1), arrows=["2/off 1/off"], highlight=[1, 2], caption="Bearing off into the tray")
    mex = Position("mexican", [-1, 0, 0, 0, 2, 5, 0, 3, 0, 0, 0, 0,
                               5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, -5], off=(0, 1))
    add("mexican_named_doubles", mex, dice=(1, 2), named_double=5, dice_left=[5, 5, 5], reroll_due=True,
        caption="Mexican: 1-2 played, 5-5 named, roll again after")
    add("mexican_doubles_dark", Position.start("mexican", turn="black"), theme="dark", dice=(3, 3),
        dice_left=[3, 3], reroll_due=True, caption="Doubles as four dice, two used")
    add("minigam_start", Position.start("minigam"), dice=(3, 1), selected=7, targets=[6, 4],
        caption="Mini-Gam start: all on the bar")
    mg = Position("minigam", [2, -1, 3, 0, -3, 1], bar=(1, 2), off=(1, 2), turn="black")
    add("minigam_black_arrows", mg, dice=(5, 2), arrows=[legal_plays(mg, (5, 2))[0]],
        caption="Black moves left to right")
    add("minigam_from_black_dark", mg, orientation="black", theme="dark", dice=(6, 6), dice_left=[6],
        reroll_due=True, lastmove=["6/4"], caption="Seen from Black, dark")
    add("minigam_fifteen", Position(find_variant("minigam", checkers=15), [15, 0, 0, 0, 0, 0], bar=(0, 15)),
        caption="Fifteen-checker Mini-Gam: tall stacks and a full bar")
    add("hostile_text", start, names={"white": "<script>alert(1)</script>", "black": 'Bob "&" Co'},
        caption="<b>not bold</b> & <i>not italic</i>")
    return out


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page of pytest-playwright's session browser (Debian's Chromium, see conftest.py): one
    Playwright for the whole run, so this test can run after the others' browser tests."""
    ctx = browser.new_context(device_scale_factor=1.5)
    pg = ctx.new_page()
    yield pg
    ctx.close()


def test_gallery_renders_and_every_part_is_clickable(page: Any) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    items = gallery()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    cells = "".join(f'<div class="cell" id="cell-{name}">{svg}</div>' for name, (_, svg) in items.items())
    page.set_content("<!doctype html><html><head><style>body{margin:8px;background:#777}"
                     ".cell{display:inline-block;margin:6px;vertical-align:top}</style></head>"
                     f"<body>{cells}</body></html>")
    page.screenshot(path=str(ARTIFACTS / "gallery.png"), full_page=True)
    for name, (pos, _svg) in items.items():
        root = page.locator(f"#g-{name}")
        box = root.bounding_box()
        assert box and box["width"] > 200 and box["height"] > 150, name
        root.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        report = page.evaluate(CLICK_CHECK, f"g-{name}")
        n = pos.variant.points
        assert report["points"] == list(range(1, n + 1)), (name, report)
        assert sorted(report["bars"]) == ["black", "white"] and sorted(report["offs"]) == ["black", "white"]
        assert report["dice"] == list(range(len(report["dice"]))), (name, report)
        for i, c in enumerate(pos.points):
            assert report["checkers"].get(str(i + 1), 0) == abs(c), (name, i + 1)
        assert report["scripts"] == 0
    assert not errors, errors
    assert len(list(ARTIFACTS.glob("*.png"))) >= len(items) + 1


# In the page: click (by hit-testing) the centre of every hit area and die of one picture, and report
# which data attribute answers; count checkers per point with selectors.
CLICK_CHECK = """
(id) => {
  const svg = document.getElementById(id);
  const hit = (el, sel) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return top ? top.closest(sel) : null;
  };
  const points = [], bars = [], offs = [], dice = [], checkers = {};
  for (const el of svg.querySelectorAll("rect.point")) {
    const h = hit(el, "[data-point]");
    if (h && h.getAttribute("data-point") === el.getAttribute("data-point")) points.push(+el.getAttribute("data-point"));
  }
  for (const el of svg.querySelectorAll("rect.bar")) {
    const h = hit(el, "[data-bar]");
    if (h && h.getAttribute("data-bar") === el.getAttribute("data-bar")) bars.push(el.getAttribute("data-bar"));
  }
  for (const el of svg.querySelectorAll("rect.off")) {
    const h = hit(el, "[data-off]");
    if (h && h.getAttribute("data-off") === el.getAttribute("data-off")) offs.push(el.getAttribute("data-off"));
  }
  for (const el of svg.querySelectorAll("[data-die]")) {
    const h = hit(el, "[data-die]");
    if (h === el) dice.push(+el.getAttribute("data-die"));
  }
  for (const el of svg.querySelectorAll(".checker[data-point]")) {
    const p = el.getAttribute("data-point");
    checkers[p] = (checkers[p] || 0) + 1;
  }
  points.sort((a, b) => a - b);
  return {points, bars, offs, dice, checkers, scripts: svg.querySelectorAll("script").length};
}
"""
