"""The core (positions, rules, games, notation) never imports rendering, widgets or analysis."""

from __future__ import annotations

import subprocess
import sys

CORE_USE = """
import sys
import backgammon_lab
from backgammon_lab import Position, legal_plays
from backgammon_lab.game import Game
from backgammon_lab.notation import parse_position
g = Game("mexican", seed=1).play_random()
legal_plays(Position.start("minigam"), (3, 1))
str(Position.start("standard")); Position.start("standard").position_id()
heavy = ("svgwrite", "ipywidgets", "anywidget", "traitlets", "numpy", "backgammon_lab.svg",
         "backgammon_lab.widgets", "backgammon_lab.analysis")
print(",".join(m for m in heavy if m in sys.modules))
"""


def test_core_imports_no_rendering_widgets_or_analysis() -> None:
    out = subprocess.run([sys.executable, "-c", CORE_USE], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


def test_pictures_are_imported_lazily_when_asked_for() -> None:
    code = ("import sys; from backgammon_lab import Position; Position.start('minigam')._repr_svg_(); "
            "print('backgammon_lab.svg' in sys.modules, 'backgammon_lab.widgets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]
