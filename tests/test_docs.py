"""The documentation stays true: its examples run, its generated parts are fresh, its links resolve.

* Every ``>>>`` example in ``README.md`` and ``docs/**/*.md`` runs as a doctest
  (``doctest.testfile``, ``ELLIPSIS | NORMALIZE_WHITESPACE``), each page in its own namespace, in a
  temporary working directory. Examples inside a ```` ```text ```` block are not run (for pages that
  show examples not meant to run, and for the docstrings quoted in ``docs/api.md``); Markdown fence
  lines end an example's expected output, so a closing ```` ``` ```` needs no blank line before it.
* ``docs/api.md`` is what ``python docs/make_api.py`` writes from the docstrings now.
* ``docs/pictures/readme_board.svg`` is what ``python docs/make_readme_picture.py`` draws now.
* Relative links and pictures in those pages point to files that exist.
"""

from __future__ import annotations

import difflib
import doctest
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted({ROOT / "README.md", *DOCS.glob("*.md"), *DOCS.glob("**/*.md")})
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


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page: Path) -> None:
    missing = []
    for target in _LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if path and not (page.parent / path).exists():
            missing.append(target)
    assert not missing, f"{page.relative_to(ROOT)} links to missing files: {missing}"
