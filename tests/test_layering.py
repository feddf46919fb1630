"""The package's layers (docs/design.md, "Layers"): every module sits in one, imports only what its
layer may, and no import cycle joins two modules anywhere in the package.

The imports are read from the source (every ``import``, at module level or inside a function), except
those under ``if TYPE_CHECKING:`` (read by type checkers only) and those inside an IPython display
hook such as ``_repr_svg_`` (the lazy picture of a position in a notebook, python-chess's convention).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import backgammon_lab

ROOT = Path(backgammon_lab.__file__).parent

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
         "backgammon_lab.widgets", "backgammon_lab.analysis", "backgammon_lab.cli", "backgammon_lab.lessons")
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


# -- reading the imports -------------------------------------------------------------------------
#: IPython's display hooks: a lazy import inside one is how an object shows itself in a notebook.
DISPLAY_HOOKS = {"_repr_svg_", "_repr_html_", "_repr_png_", "_repr_markdown_", "_repr_mimebundle_",
                 "_ipython_display_"}


@dataclass(frozen=True)
class Import:
    """One import of a module of the package: the module imported, whether the import is inside a
    function, and its line."""

    target: str
    in_function: bool
    line: int


def module_names(root: Path) -> set[str]:
    """The package's modules as dotted names relative to the package (``""`` is the package itself)."""
    names = set()
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def imports_of(root: Path, name: str, modules: set[str]) -> list[Import]:
    """Every import of a module of the package by the module ``name`` (under ``root``)."""
    path = root / (name.replace(".", "/") + ".py") if name else root / "__init__.py"
    is_package = not path.exists()
    if is_package:
        path = root / name.replace(".", "/") / "__init__.py"
    here = name.split(".") if name else []
    package = here if is_package else here[:-1]
    top = root.name
    found: list[Import] = []

    def module_of(dotted: str) -> str | None:
        """The longest leading part of ``dotted`` that is a module of the package."""
        parts = dotted.split(".") if dotted else []
        for n in range(len(parts), -1, -1):
            candidate = ".".join(parts[:n])
            if candidate in modules:
                return candidate
        return None

    def add(dotted: str, in_function: bool, line: int) -> None:
        target = module_of(dotted)
        if target is not None and target != name:
            found.append(Import(target, in_function, line))

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other, in_function)
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if child.name in DISPLAY_HOOKS:
                    continue
                visit(child, True)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name == top or alias.name.startswith(top + "."):
                        add(alias.name[len(top) + 1:], in_function, child.lineno)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[: len(package) - (child.level - 1)] if child.level > 1 else package
                    prefix = ".".join([*base, *([child.module] if child.module else [])])
                elif child.module == top or (child.module or "").startswith(top + "."):
                    prefix = (child.module or "")[len(top) + 1:]
                else:
                    continue
                for alias in child.names:
                    add(f"{prefix}.{alias.name}" if prefix else alias.name, in_function, child.lineno)
            visit(child, in_function)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def import_graph(root: Path) -> dict[str, dict[str, Import]]:
    """Each module's imports of other modules of the package (the first import of each)."""
    modules = module_names(root)
    graph: dict[str, dict[str, Import]] = {}
    for name in sorted(modules):
        edges: dict[str, Import] = {}
        for imp in imports_of(root, name, modules):
            edges.setdefault(imp.target, imp)
        graph[name] = edges
    return graph


def import_cycles(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return sorted(cycles)


# -- the layers -------------------------------------------------------------------------------------
# The core's layers, lowest first: a module imports only modules of earlier layers (issue 9).
CORE_LAYERS = [["errors"], ["variants.base"], ["variants.standard", "variants.mexican", "variants.minigam"],
               ["variants"], ["kernels._jit", "kernels.layout"], ["kernels.movegen"], ["kernels"], ["textforms"], ["position"],
               ["moves"], ["rules"], ["notation"], ["engine"], ["game"],
               ["matchfiles.xgid", "matchfiles.model"], ["matchfiles.jellyfish", "matchfiles.sgf", "matchfiles.varianttext"],
               ["matchfiles"]]
CORE = {m for group in CORE_LAYERS for m in group}

#: The lessons' modules above the analysis and the pictures (the package itself names their functions).
STUDY = {"lessons", "lessons.games", "lessons.anki"}

#: What each layer may import besides its own modules (docs/design.md, "Layers").
MAY_IMPORT: dict[str, set[str]] = {
    "core": set(),
    "svg": {"core"},                            # pictures of what they are given
    "analysis": {"core"},                       # odds, bots, rollouts, hints, the solver, the nets
    "lessons": {"core"},                        # the course's model: catalog, exercises, progress
    "lessons.study": {"core", "svg", "analysis", "lessons"},  # mistakes as puzzles, the Anki deck, the package's names
    "widgets": {"core", "svg", "analysis", "lessons", "lessons.study"},
    "lessons.notebook": {"core", "svg", "analysis", "lessons", "lessons.study", "widgets"},  # the course in a notebook
    "cli": {"core", "svg", "analysis", "package"},  # the command line (the package: its __version__)
    "package": {"core", "widgets"},             # backgammon_lab itself: the core's names, play() opens a widget
}

#: Imports that break a layer rule today, each with its reason; a test fails once one is gone.
KNOWN_LAYER_BREAKS: dict[tuple[str, str], str] = {}


def layer_of(name: str) -> str | None:
    """The layer of a module, or None for one placed nowhere (a new module must be placed)."""
    if name == "":
        return "package"
    if name in CORE:
        return "core"
    if name == "lessons.notebook":
        return name
    if name in STUDY:
        return "lessons.study"
    if name == "__main__":  # python -m backgammon_lab: the command line
        return "cli"
    top = name.split(".")[0]
    return top if top in ("svg", "analysis", "lessons", "widgets", "cli") else None


def layer_breaks(graph: dict[str, dict[str, Import]]) -> dict[tuple[str, str], str]:
    """Every import that a layer may not make, with its line."""
    found = {}
    for name, edges in graph.items():
        mine = layer_of(name)
        for target, imp in edges.items():
            theirs = layer_of(target)
            if mine is None or theirs is None:
                found[(name, target)] = f"{name or 'backgammon_lab'}:{imp.line}: a module in no layer"
            elif theirs != mine and theirs not in MAY_IMPORT[mine]:
                found[(name, target)] = (f"{name or 'backgammon_lab'}:{imp.line} ({mine}) imports "
                                         f"{target or 'backgammon_lab'} ({theirs})")
    return found


GRAPH = import_graph(ROOT)


def test_every_module_is_in_a_layer() -> None:
    assert [m for m in GRAPH if layer_of(m) is None] == []
    assert CORE <= set(GRAPH)  # no core module listed that does not exist


def test_every_layer_imports_only_the_layers_below_it() -> None:
    breaks = {k: v for k, v in layer_breaks(GRAPH).items() if k not in KNOWN_LAYER_BREAKS}
    assert breaks == {}


def test_no_import_cycle_in_the_whole_package() -> None:
    assert import_cycles(GRAPH) == []


@pytest.mark.parametrize("pair", [pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=v), id="->".join(k))
                                  for k, v in KNOWN_LAYER_BREAKS.items()])
def test_a_known_layer_break_is_gone(pair: tuple[str, str]) -> None:
    """Fails (an XPASS, strict) once the break is mended: then delete its entry above."""
    assert pair not in layer_breaks(GRAPH)


def test_only_the_command_line_imports_the_command_line() -> None:
    importers = {name for name, edges in GRAPH.items() for t in edges if t == "cli" or t.startswith("cli.")}
    assert importers <= {m for m in GRAPH if layer_of(m) == "cli"}
    assert GRAPH["cli.app"].keys() >= {"cli.render", "cli.analysis", "cli.train", "cli.common"}
    assert "cli" not in GRAPH["analysis.train"] and "analysis.train" in GRAPH["cli.train"]


def test_the_lessons_model_sits_below_the_widgets_and_the_notebook_above() -> None:
    assert "lessons.exercises" in GRAPH["widgets.exercise"]
    assert "widgets.exercise" in GRAPH["lessons.notebook"]
    assert not any(t.startswith("widgets") for m in ("lessons", "lessons.catalog", "lessons.exercises",
                                                     "lessons.progress") for t in GRAPH[m])


#: The function-level imports the core makes, each of a module of an earlier layer, and why.
LAZY_IMPORTS = {("kernels", "kernels.movegen"): "the compiled search loads numpy and numba: the first search does"}


def test_core_modules_import_in_layers_with_no_cycle_and_no_function_level_imports() -> None:
    layer = {m: i for i, group in enumerate(CORE_LAYERS) for m in group}
    modules = set(GRAPH)
    problems = []
    for name, i in layer.items():
        for imp in imports_of(ROOT, name, modules):
            if imp.target not in layer:
                problems.append(f"{name}:{imp.line} imports {imp.target or 'backgammon_lab'}, outside the core")
            elif imp.in_function and (name, imp.target) not in LAZY_IMPORTS:
                problems.append(f"{name}:{imp.line} imports {imp.target} inside a function")
            elif layer[imp.target] >= i:
                problems.append(f"{name}:{imp.line} imports {imp.target}, a module of a later layer")
    assert problems == []


# -- the reader itself, on a small package -----------------------------------------------------
def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for rel, text in {"__init__.py": "", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_the_reader_finds_cycles_through_functions_but_not_type_checking_or_display_hooks(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "a.py": "from . import b\n",
        "b.py": "def f():\n    from .a import x\n",                       # inside a function: counts
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import D\nelse:\n    import json\n",
        "d.py": "from .c import C\nclass D:\n    def _repr_svg_(self):\n        from .c import draw\n",
        "sub/__init__.py": "from .. import a\n",
        "sub/e.py": "import pkg.sub\nfrom pkg import c\nfrom . import f\n",
        "sub/f.py": "from .e import g\n",
    })
    graph = import_graph(root)
    assert graph["b"]["a"].in_function and not graph["a"]["b"].in_function
    assert "d" not in graph["c"] and set(graph["d"]) == {"c"}
    assert set(graph["sub"]) == {"a"} and set(graph["sub.e"]) == {"sub", "c", "sub.f"}
    assert import_cycles(graph) == [["a", "b"], ["sub.e", "sub.f"]]


def test_the_layer_rules_catch_an_upward_import() -> None:
    graph = {"rules": {"svg": Import("svg", True, 3)}, "svg": {}, "cli.app": {"widgets.game": Import("widgets.game", False, 9)},
             "widgets.game": {}, "newthing": {}}
    graph["svg"]["newthing"] = Import("newthing", False, 1)
    assert layer_breaks(graph) == {
        ("rules", "svg"): "rules:3 (core) imports svg (svg)",
        ("cli.app", "widgets.game"): "cli.app:9 (cli) imports widgets.game (widgets)",
        ("svg", "newthing"): "svg:1: a module in no layer",
    }
