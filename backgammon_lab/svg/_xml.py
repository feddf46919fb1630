"""Building SVG elements on top of svgwrite, and the text helpers every layer uses."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable
from typing import Any

import svgwrite
from svgwrite.base import BaseElement


def fmt(x: float) -> str:
    """A coordinate as short text: at most one decimal, no trailing zeros."""
    r = round(x * 10)
    if r % 10 == 0:
        return str(r // 10)
    return f"{r / 10:.1f}"


def points_text(pts: Iterable[tuple[float, float]]) -> str:
    """The ``points`` attribute of a polygon."""
    return " ".join(f"{fmt(px)},{fmt(py)}" for px, py in pts)


XML_BAD = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean(text: object, limit: int | None = None) -> str:
    """User text made safe for XML: characters XML cannot hold are dropped (markup characters are
    escaped later by the serializer), and the text is cut to ``limit`` characters."""
    s = XML_BAD.sub("", str(text))
    if limit is not None and len(s) > limit:
        s = s[: max(limit - 1, 1)] + "\u2026"
    return s


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap to ``width`` characters; explicit newlines are kept."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            while len(word) > width:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:width])
                word = word[width:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= width:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


class El(BaseElement):
    """An svgwrite element built from ready attribute text (no validation: the renderer writes
    only known attributes, and skipping svgwrite's per-attribute checks keeps pictures fast)."""

    def __init__(self, name: str, attrs: dict[str, str], text: str | None = None,
                 factory: Any = None) -> None:
        self.elementname = name
        self._parameter = factory._parameter
        self.attribs = attrs
        self.elements: list[El] = []
        self._text = text

    def get_xml(self) -> Any:
        # What svgwrite's BaseElement.get_xml does in non-debug mode (attributes sorted, None and
        # empty values left out), without its per-attribute conversion calls.
        attrib = {}
        for k, v in sorted(self.attribs.items()):
            if v is not None:
                text = v if type(v) is str else str(v)
                if text:
                    attrib[k] = text
        xml = etree.Element(self.elementname, attrib)
        for element in self.elements:
            xml.append(element.get_xml())
        if self._text is not None:
            xml.text = self._text
        return xml


    def write_xml(self, out: list[str]) -> None:
        """Append this element's XML text to ``out``: the very bytes ElementTree writes for
        :meth:`get_xml` (attributes sorted, ``<x />`` when empty), without building the tree."""
        out.append("<" + self.elementname)
        for k, v in sorted(self.attribs.items()):
            if v is not None:
                text = v if type(v) is str else str(v)
                if text:
                    out.append(f' {k}="{escape_attrib(text)}"')
        if self._text or self.elements:
            out.append(">")
            if self._text:
                out.append(escape_text(self._text))
            for element in self.elements:
                element.write_xml(out)
            out.append(f"</{self.elementname}>")
        else:
            out.append(" />")


def escape_text(text: str) -> str:
    """Character data escaped as ElementTree escapes it."""
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


_ATTR_ESCAPES = (('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))


def escape_attrib(text: str) -> str:
    """An attribute value escaped as ElementTree escapes it."""
    text = escape_text(text)
    for ch, ref in _ATTR_ESCAPES:
        if ch in text:
            text = text.replace(ch, ref)
    return text


def drawing_text(dwg: svgwrite.Drawing) -> str:
    """``dwg.tostring()``: svgwrite writes the root with its title, description and defs, and the
    :class:`El` children that follow them are written by :meth:`El.write_xml` (same bytes)."""
    children = dwg.elements
    k = next((i for i, e in enumerate(children) if isinstance(e, El)), len(children))
    if not all(isinstance(e, El) for e in children[k:]):
        return str(dwg.tostring())
    dwg.elements = children[:k]
    try:
        head: str = dwg.tostring()
    finally:
        dwg.elements = children
    if not head.endswith("</svg>"):  # the root had no child of svgwrite's own
        head = head[: -len(" />")] + "></svg>"
    out = [head[: -len("</svg>")]]
    for e in children[k:]:
        e.write_xml(out)
    out.append("</svg>")
    return "".join(out)


class Builder:
    """Creates elements that share one svgwrite Drawing's (non-debug) parameters."""

    def __init__(self, dwg: svgwrite.Drawing) -> None:
        self.dwg = dwg

    def el(self, name: str, attrs: dict[str, str], text: str | None = None) -> El:
        return El(name, attrs, text, self.dwg)

    def group(self, attrs: dict[str, str], children: Iterable[El]) -> El:
        """A ``<g>`` holding ``children``."""
        g = self.el("g", attrs)
        g.elements.extend(children)
        return g


def inner_xml(b: Builder, children: Iterable[El]) -> str:
    """The serialized ``children``, without a wrapping element."""
    out: list[str] = []
    for e in children:
        e.write_xml(out)
    return "".join(out)
