"""Jupyter widgets: a clickable board, a whole game, and a position editor.

* :class:`BoardWidget` (anywidget): the SVG of :mod:`backgammon_lab.svg`, clicks reported back;
* :class:`GameWidget`: a game of any variant with every decision as a control
  (``backgammon_lab.play("mexican", seed=7)`` makes one);
* :class:`PositionEditor`: build a position by clicking, import and export its text forms.

See ``docs/widgets.md``.
"""

from __future__ import annotations

from .board import BoardWidget
from .editor import PositionEditor
from .game import GameWidget, RandomBot

__all__ = ["BoardWidget", "GameWidget", "PositionEditor", "RandomBot"]
