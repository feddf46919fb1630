"""The documentation stays true: its examples run, its generated parts are fresh, its links resolve.

* Every ``>>>`` example in ``README.md`` and ``docs/**/*.md`` runs as a doctest
  (``doctest.testfile``, ``ELLIPSIS | NORMALIZE_WHITESPACE``), each page in its own namespace, in a
  temporary working directory. Examples inside a ```` ```text ```` block are not run (for pages that
  show examples not meant to run, and for the docstrings quoted in ``docs/api.md``); Markdown fence
  lines end an example's expected output, so a closing ```` ``` ```` needs no blank line before it.
* ``docs/api.md`` is what ``python docs/make_api.py`` writes from the docstrings now.
* ``docs/pictures/readme_board.svg`` is what ``python docs/make_readme_picture.py`` draws now.
* Relative links and pictures in those pages (and in ``training/LOG.md`` and ``benchmarks/README.md``)
  point to files that exist.
* Every name ``docs/design.md`` cites in backticks as Python (``module.name``, ``Class.attr``,
  ``name()``) exists in the package.
* ``benchmarks/README.md`` names every script in ``benchmarks/``.
"""

from __future__ import annotations

import difflib
import doctest
import functools
import importlib
import importlib.util
import inspect
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted({ROOT / "README.md", *DOCS.glob("*.md"), *DOCS.glob("**/*.md")})
#: Pages whose links are checked too (their examples are records, not run).
LINKED = sorted({*PAGES, ROOT / "training" / "LOG.md", ROOT / "benchmarks" / "README.md"})
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def markdown_for_doctest(text: str) -> str:
    """``text`` with fence lines blanked and ```` ```text ```` blocks emptied, line numbers kept."""
    out = []
    skipping = False
    fence = ""
    for line in text.splitlines():
        m = _FENCE.match(line)
        if m and not fence:
            fence = m.group(1)
            skipping = m.group(2).lower() == "text"
            out.append("")
        elif m and fence and line.strip() == fence:
            fence = ""
            skipping = False
            out.append("")
        else:
            out.append("" if skipping else line)
    return "\n".join(out) + "\n"


class MarkdownParser(doctest.DocTestParser):
    """A doctest parser for Markdown pages (see the module docstring)."""

    def parse(self, string: str, name: str = "<string>") -> list:  # type: ignore[override]
        return super().parse(markdown_for_doctest(string), name)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(str(page), module_relative=False, optionflags=FLAGS, parser=MarkdownParser(),
                              globs={}, verbose=False, report=True, encoding="utf-8")
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {page.name} failed (see above)"


def test_parser_skips_text_blocks_and_ends_output_at_fences() -> None:
    page = "```python\n>>> 1 + 1\n2\n```\n\n```text\n>>> 1/0\n```\n"
    tests = MarkdownParser().get_doctest(page, {}, "page", "page", 0)
    assert [(e.source, e.want) for e in tests.examples] == [("1 + 1\n", "2\n")]


def _first_difference(old: str, new: str, context: int = 12) -> str:
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "checked in", "generated now", lineterm="", n=1)
    return "\n".join(list(diff)[:context])


def test_api_reference_is_fresh() -> None:
    make_api = _load(DOCS / "make_api.py")
    old = (DOCS / "api.md").read_text(encoding="utf-8") if (DOCS / "api.md").exists() else ""
    new = make_api.generate()
    if old != new:
        pytest.fail("docs/api.md is stale: run  python docs/make_api.py\n" + _first_difference(old, new))


def test_readme_picture_is_fresh() -> None:
    make = _load(DOCS / "make_readme_picture.py")
    old = make.OUT.read_text(encoding="utf-8") if make.OUT.exists() else ""
    if old != make.picture():
        pytest.fail("docs/pictures/readme_board.svg is stale: run  python docs/make_readme_picture.py")
    assert "docs/pictures/readme_board.svg" in (ROOT / "README.md").read_text(encoding="utf-8")


_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text: str) -> str:
    """``text`` without fenced code blocks and inline code spans (where links are not links)."""
    out, fence = [], ""
    for line in text.splitlines():
        m = _FENCE.match(line)
        if m and not fence:
            fence = m.group(1)
        elif m and fence and line.strip() == fence:
            fence = ""
        elif not fence:
            out.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


@pytest.mark.parametrize("page", LINKED, ids=[str(p.relative_to(ROOT)) for p in LINKED])
def test_relative_links_resolve(page: Path) -> None:
    missing = []
    for target in _LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if path and not (page.parent / path).exists():
            missing.append(target)
    assert not missing, f"{page.relative_to(ROOT)} links to missing files: {missing}"


# --- the names docs/design.md cites -----------------------------------------------------------

#: Words the design page writes as ``word.attr`` for an instance of a package class.
INSTANCES = {"event": "engine.Event", "state": "engine.TurnState", "variant": "variants.base.Variant"}
#: Backticked spans on the design page that look like Python names and are not objects.
NOT_OBJECTS: set[str] = set()
_FILE = re.compile(r".*\.(?:py|toml|md|json|npz|sh)$")
_NAME = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\(\))?")


def cited_names(text: str) -> list[str]:
    """The spans in backticks, outside code blocks, that read as a dotted name or as ``name()``."""
    found = []
    for span in re.findall(r"`([^`\n]+)`", "\n".join(_outside_fences(text))):
        m = _NAME.fullmatch(span)
        if m and ("." in m.group(1) or m.group(2)) and not _FILE.match(span):
            found.append(m.group(1))
    return found


def _outside_fences(text: str) -> list[str]:
    out, fence = [], ""
    for line in text.splitlines():
        m = _FENCE.match(line)
        if m and not fence:
            fence = m.group(1)
        elif m and fence and line.strip() == fence:
            fence = ""
        elif not fence:
            out.append(line)
    return out


@functools.cache
def _package_index() -> tuple[dict[str, object], dict[str, list[object]]]:
    """The package's modules by every dotted tail of their name, and its top-level names."""
    import backgammon_lab

    modules: dict[str, object] = {}
    names: dict[str, list[object]] = {}
    for info in pkgutil.walk_packages(backgammon_lab.__path__, "backgammon_lab."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        parts = info.name.split(".")
        for i in range(len(parts)):
            modules.setdefault(".".join(parts[i:]), module)
        for key, value in vars(module).items():
            if not key.startswith("__"):
                names.setdefault(key, []).append(value)
    return modules, names


def _has(obj: object, attr: str) -> bool:
    """``obj.attr`` exists: an attribute, or an instance attribute a class assigns or annotates."""
    if hasattr(obj, attr):
        return True
    if isinstance(obj, type):
        for klass in obj.__mro__:
            if attr in getattr(klass, "__annotations__", {}):
                return True
            try:
                source = inspect.getsource(klass)
            except (OSError, TypeError):
                continue
            if re.search(rf"self\.{attr}\b(?:\s*:[^=\n]+)?\s*(?:,[^=\n]*)?=", source):
                return True
    return False


def resolves(name: str, modules: dict[str, object], names: dict[str, list[object]]) -> bool:
    """``name`` is a package module, or a module, class or function of it followed by attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        head = ".".join(parts[:cut])
        starts = [modules[head]] if head in modules else []
        if cut == 1:
            starts += names.get(head, [])
            if head in INSTANCES:
                module, _, cls = INSTANCES[head].rpartition(".")
                starts.append(getattr(modules[module], cls))
        for start in starts:
            obj: object = start
            for attr in parts[cut:]:
                if not _has(obj, attr):
                    break
                obj = getattr(obj, attr, None)
                if obj is None:  # an instance attribute: nothing further to follow
                    break
            else:
                return True
            if obj is None and attr == parts[-1]:
                return True
    if len(parts) == 1:  # ``name()``: a method of a package class
        return any(isinstance(v, type) and v.__module__.startswith("backgammon_lab") and hasattr(v, name)
                   for values in names.values() for v in values)
    try:  # the standard library (random.Random)
        return importlib.util.find_spec(parts[0]) is not None and parts[0] not in modules and \
            _has(importlib.import_module(parts[0]), parts[1]) if len(parts) > 1 else False
    except ImportError:
        return False


def test_cited_names_finds_dotted_names_and_calls_only() -> None:
    text = "`Net.evaluate` and `step_checks()`, not `td24e`, `a b`, `rollout.py` or\n```\n`x.y`\n```\n"
    assert cited_names(text) == ["Net.evaluate", "step_checks"]


def test_every_name_the_design_page_cites_exists() -> None:
    modules, names = _package_index()
    cited = cited_names((DOCS / "design.md").read_text(encoding="utf-8"))
    assert len(cited) > 50
    missing = sorted({n for n in cited if n not in NOT_OBJECTS and not resolves(n, modules, names)})
    assert not missing, f"docs/design.md cites names the package does not have: {missing}"


def test_resolves_fails_for_a_name_that_is_not_there() -> None:
    modules, names = _package_index()
    assert resolves("Net.with_race", modules, names) and resolves("engine.advance", modules, names)
    assert not resolves("Hint.svg", modules, names)
    assert not resolves("engine.no_such_function", modules, names) and not resolves("no_such_method", modules, names)


def test_benchmarks_readme_names_every_script() -> None:
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    scripts = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py"))
    assert scripts and not [s for s in scripts if f"`{s}`" not in readme]
