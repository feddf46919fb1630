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
from backgammon_lab.matchfiles import Match
Match.from_mat(Match.from_games([g]).to_mat())
legal_plays(Position.start("minigam"), (3, 1))
str(Position.start("standard")); Position.start("standard").position_id()
heavy = ("svgwrite", "ipywidgets", "anywidget", "traitlets", "backgammon_lab.svg",
         "backgammon_lab.widgets", "backgammon_lab.analysis")
print(",".join(m for m in heavy if m in sys.modules))
"""


def test_core_imports_no_rendering_widgets_or_analysis() -> None:
    out = subprocess.run([sys.executable, "-c", CORE_USE], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


def test_importing_the_package_loads_no_numpy_numba_or_kernel() -> None:
    """The compiled search (numba, numpy) loads with the first search, not with the package."""
    code = ("import sys, backgammon_lab; from backgammon_lab import Position; Position.start('standard'); "
            "print(','.join(m for m in ('numpy', 'numba') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


def test_pictures_are_imported_lazily_when_asked_for() -> None:
    code = ("import sys; from backgammon_lab import Position; Position.start('minigam')._repr_svg_(); "
            "print('backgammon_lab.svg' in sys.modules, 'backgammon_lab.widgets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]


# The core's layers, lowest first: a module imports only modules of earlier layers (issue 9).
CORE_LAYERS = [["errors"], ["variants.base"], ["variants.standard", "variants.mexican", "variants.minigam"],
               ["variants"], ["kernels._jit", "kernels.movegen_template"], ["kernels"], ["textforms"], ["position"],
               ["moves"], ["rules"], ["notation"], ["engine"], ["game"],
               ["matchfiles.xgid", "matchfiles.model"], ["matchfiles.jellyfish", "matchfiles.sgf", "matchfiles.varianttext"],
               ["matchfiles"]]


def _is_module(dotted: str) -> bool:
    from pathlib import Path

    import backgammon_lab

    p = Path(backgammon_lab.__file__).parent / dotted.strip(".").replace(".", "/")
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def _core_imports(name: str) -> list[tuple[str, bool, int]]:
    """(imported core module, imported inside a function?, line) for every import of ``name``,
    leaving out ``if TYPE_CHECKING:`` blocks (read by type checkers only)."""
    import ast
    from pathlib import Path

    import backgammon_lab

    root = Path(backgammon_lab.__file__).parent
    path = root / (name.replace(".", "/") + ".py")
    if not path.exists():
        path = root / name.replace(".", "/") / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.rsplit(".", 1)[0] if "." in name or path.name == "__init__.py" else ""
    if path.name == "__init__.py":
        package = name
    out: list[tuple[str, bool, int]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom) and child.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (child.level - 1)] if child.level > 1 else base
                mod = ".".join([*base, child.module] if child.module else base)
                targets = [mod] if child.module else [".".join([*base, a.name]) for a in child.names]
                targets = [t if _is_module(t) else t.rsplit(".", 1)[0] for t in targets]
                for t in targets:
                    out.append((t.strip("."), inner, child.lineno))
            visit(child, inner)

    visit(tree, False)
    return out


def test_core_modules_import_in_layers_with_no_cycle_and_no_function_level_imports() -> None:
    layer = {m: i for i, group in enumerate(CORE_LAYERS) for m in group}
    problems = []
    for name, i in layer.items():
        for target, in_function, line in _core_imports(name):
            if target == "svg" and in_function:
                continue  # the lazy picture in _repr_svg_
            if target not in layer:
                if target.split(".")[0] in ("svg", "widgets", "analysis"):
                    problems.append(f"{name}:{line} imports {target}, outside the core")
                continue
            if in_function:
                problems.append(f"{name}:{line} imports {target} inside a function")
            elif layer[target] >= i:
                problems.append(f"{name}:{line} imports {target}, a module of a later layer")
    assert problems == []
