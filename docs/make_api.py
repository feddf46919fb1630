"""Generate ``docs/api.md``, the API reference, from the docstrings of the public modules.

    python docs/make_api.py           # write docs/api.md
    python docs/make_api.py --check   # exit 1 if docs/api.md is stale

Walks every module of the ``backgammon_lab`` package whose name has no part starting with ``_``
(and not ``__main__``), with :mod:`inspect` only. In each module it documents the names of
``__all__`` (or, without ``__all__``, the public classes and functions defined there), in that
order: signatures and docstrings, and for classes their own public methods, properties and synced
traits. Docstrings are shown in ``text`` blocks, so ``tests/test_docs.py`` does not run their
examples here (they belong to their modules). ``tests/test_docs.py`` fails while this page differs
from what this script writes.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "api.md"
PACKAGE = "backgammon_lab"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class _Text:
    """An annotation kept as the text it was written as (``from __future__ import annotations``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def public_modules() -> list[str]:
    """Names of the package's public modules, sorted, the package itself first."""
    pkg = importlib.import_module(PACKAGE)
    names = [PACKAGE]
    for info in pkgutil.walk_packages(pkg.__path__, prefix=PACKAGE + "."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts):
            continue
        names.append(info.name)
    return [PACKAGE] + sorted(names[1:])


def signature(obj: Any) -> str:
    """``(a, b=1) -> T`` for a callable, with annotations as written; '' when there is none."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return ""

    def fix(ann: Any) -> Any:
        if ann is inspect.Parameter.empty:
            return ann
        return _Text(ann) if isinstance(ann, str) else _Text(inspect.formatannotation(ann))

    params = [p.replace(annotation=fix(p.annotation)) for p in sig.parameters.values()]
    sig = sig.replace(parameters=params, return_annotation=fix(sig.return_annotation))
    return _ADDRESS.sub("", str(sig))


def docstring(obj: Any) -> str:
    """The object's own docstring, cleaned (not an inherited one)."""
    doc = obj.__doc__ if isinstance(getattr(obj, "__doc__", None), str) else None
    if isinstance(obj, type) and "__doc__" not in obj.__dict__:
        doc = None
    return inspect.cleandoc(doc) if doc else ""


def text_block(doc: str) -> list[str]:
    if not doc:
        return []
    return ["```text", *doc.splitlines(), "```", ""]


def _value(obj: Any) -> str:
    simple = (str, int, float, bool, type(None))
    if isinstance(obj, simple) or (isinstance(obj, tuple) and all(isinstance(x, simple) for x in obj)):
        return repr(obj)
    if isinstance(obj, dict):
        keys = ", ".join(map(str, list(obj)[:12])) + (", ..." if len(obj) > 12 else "")
        return f"a dict with {len(obj)} entries: {keys}"
    if isinstance(obj, tuple):
        return f"a tuple of {len(obj)} items"
    text = _ADDRESS.sub("", repr(obj))
    return text if len(text) <= 100 and "\n" not in text else type(obj).__name__


def _is_trait(obj: Any) -> bool:
    return any(c.__name__ == "TraitType" and c.__module__.startswith("traitlets") for c in type(obj).__mro__)


def class_members(cls: type) -> list[str]:
    out: list[str] = []
    for name, raw in cls.__dict__.items():
        if name.startswith("_"):
            continue
        if isinstance(raw, property):
            out += [f"- **{name}** (property)", ""]
            doc = docstring(raw.fget) if raw.fget else ""
            out += _indent(text_block(doc))
        elif isinstance(raw, (classmethod, staticmethod)):
            fn = raw.__func__
            kind = "classmethod" if isinstance(raw, classmethod) else "staticmethod"
            sig = signature(getattr(cls, name))
            out += [f"- **{name}**`{sig}` ({kind})", ""]
            out += _indent(text_block(docstring(fn)))
        elif inspect.isfunction(raw):
            out += [f"- **{name}**`{signature(raw)}`", ""]
            out += _indent(text_block(docstring(raw)))
        elif _is_trait(raw):
            synced = " synced" if getattr(raw, "metadata", {}).get("sync") else ""
            out += [f"- **{name}** ({type(raw).__name__}{synced} trait)", ""]
    return out


def _indent(lines: list[str]) -> list[str]:
    return [("  " + line) if line else "" for line in lines]


def _anchor(name: str) -> str:
    return re.sub(r"[^a-z0-9_-]", "", name.lower().replace(" ", "-"))


def module_names(mod: Any) -> list[str]:
    if hasattr(mod, "__all__"):
        return list(mod.__all__)
    return [n for n, obj in vars(mod).items()
            if not n.startswith("_") and (inspect.isclass(obj) or inspect.isfunction(obj))
            and getattr(obj, "__module__", None) == mod.__name__]


def document_module(modname: str) -> list[str]:
    mod = importlib.import_module(modname)
    out = [f"## `{modname}`", ""]
    out += text_block(docstring(mod))
    if modname == PACKAGE:
        rows = []
        for name in module_names(mod):
            obj = getattr(mod, name)
            home = getattr(obj, "__module__", None)
            if home and home != PACKAGE and (inspect.isclass(obj) or inspect.isfunction(obj)):
                rows.append(f"- `{name}`: see [`{home}.{name}`](#{_anchor(home + '.' + name)})")
            elif inspect.isfunction(obj) or inspect.isclass(obj):
                rows.append(f"- `{name}`: below")
            else:
                rows.append(f"- `{name}` = {_value(obj)}")
        out += ["Names exported by the package:", "", *rows, ""]
        names = [n for n in module_names(mod)
                 if (inspect.isfunction(getattr(mod, n)) or inspect.isclass(getattr(mod, n)))
                 and getattr(getattr(mod, n), "__module__", None) == PACKAGE]
    else:
        names = module_names(mod)
    for name in names:
        obj = getattr(mod, name, None)
        if obj is None and not hasattr(mod, name):
            out += [f"### `{modname}.{name}`", "", "(listed in `__all__` but missing)", ""]
            continue
        full = f"{modname}.{name}"
        if inspect.isclass(obj):
            home = obj.__module__
            if home != modname and modname != PACKAGE:
                out += [f"### `{full}`", "", f"The same as [`{home}.{name}`](#{_anchor(home + '.' + name)}).", ""]
                continue
            bases = [b.__name__ for b in obj.__bases__ if b is not object]
            kind = f"class ({', '.join(bases)})" if bases else "class"
            sig = signature(obj).removesuffix(" -> None")
            out += [f"### `{full}`", "", f"{kind} `{name}{sig}`", ""]
            out += text_block(docstring(obj))
            out += class_members(obj)
        elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
            home = getattr(obj, "__module__", modname)
            if home != modname and modname != PACKAGE:
                out += [f"### `{full}`", "", f"The same as [`{home}.{name}`](#{_anchor(home + '.' + name)}).", ""]
                continue
            out += [f"### `{full}`", "", f"function `{name}{signature(obj)}`", ""]
            out += text_block(docstring(obj))
        elif inspect.ismodule(obj):
            out += [f"### `{full}`", "", f"module, see [`{obj.__name__}`](#{_anchor(obj.__name__)})", ""]
        else:
            out += [f"### `{full}`", "", f"`{name}` = {_value(obj)}", ""]
    return out


def generate() -> str:
    """The text of ``docs/api.md``."""
    mods = public_modules()
    lines = [
        "# API reference",
        "",
        "Generated from the docstrings by `python docs/make_api.py`: do not edit this page by hand.",
        "`tests/test_docs.py` fails when it is stale. The guide is [guide.md](guide.md).",
        "",
        "Modules:",
        "",
        *[f"- [`{m}`](#{_anchor(m)})" for m in mods],
        "",
    ]
    for m in mods:
        lines += document_module(m)
    text = "\n".join(lines)
    text = re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"
    return _ADDRESS.sub("", text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate docs/api.md from the docstrings.")
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/api.md is stale; write nothing")
    args = parser.parse_args(argv)
    text = generate()
    old = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
    if args.check:
        if text != old:
            print("docs/api.md is stale: run python docs/make_api.py", file=sys.stderr)
            return 1
        print("docs/api.md is up to date")
        return 0
    if text != old:
        OUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    else:
        print(f"{OUT.relative_to(ROOT)} unchanged")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
