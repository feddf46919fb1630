"""Click-to-redraw latency of the board widget in a real JupyterLab (headless Chromium).

Run:  python benchmarks/widget_latency.py [--clicks 30]

A notebook shows a standard game at 3-1 for White. In the page, a capturing click listener notes
``performance.now()`` when the board is clicked, and a MutationObserver notes when the widget has
put the new SVG into the page (``data-draws`` changes); a ``requestAnimationFrame`` after that gives
the time to the next frame. Between them lie the message to the kernel, the click handled in
Python (legal steps, a new SVG from ``backgammon_lab.svg``), the message back, and the DOM update.

Two kinds of clicks are timed:

* select / deselect: click the checker on the 13-point, again and again (each click toggles the
  selection and redraws the board with or without the marked destinations);
* play a step: select the 8-point (not timed), click the 5-point (timed: the step is played and the
  whole game widget refreshed), then Undo (not timed).

Each kind is timed twice: with the stock Jupyter server, and with a server whose websockets set
TCP_NODELAY (a ``jupyter_server_config.py`` for that throw-away server only; see
``docs/widgets.md``). The stock server does not disable Nagle's algorithm on its websockets, so
after the kernel's first reply (the "busy" status) the next small frames wait for the browser's
delayed ACK, about 40 ms on Linux. A bare anywidget ping is timed beside the board to show that
floor.

Goal (issue 13): median of at least 20 clicks <= 20 ms for a step (issue 4 asked for 50 ms), with
the server the page is served by; both servers are reported. The kernel-side share is printed too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from conftest import CHROMIUM_ARGS, chromium_path  # noqa: E402
from test_widgets_browser import WIDGET, JupyterLab, open_notebook, write_notebook  # noqa: E402

GOAL_MS = 20.0

#: A jupyter_server_config.py that disables Nagle's algorithm on the server's websockets.
NODELAY_CONFIG = """\
import tornado.websocket

_receive_frame_loop = tornado.websocket.WebSocketProtocol13._receive_frame_loop


async def _receive_frame_loop_nodelay(self):
    self.stream.set_nodelay(True)  # small frames leave at once instead of waiting for an ACK
    return await _receive_frame_loop(self)


tornado.websocket.WebSocketProtocol13._receive_frame_loop = _receive_frame_loop_nodelay
"""

#: A trivial anywidget whose click makes one round trip to the kernel and back, nothing else: the
#: floor that JupyterLab, the server and the kernel put under any widget on this machine.
PING = '''import anywidget, traitlets

class Ping(anywidget.AnyWidget):
    _esm = """
export default { render({ model, el }) {
  el.classList.add("bgl-ping");
  const b = document.createElement("button");
  b.textContent = "ping";
  el.append(b);
  b.addEventListener("click", () => { model.set("sent", model.get("sent") + 1); model.save_changes(); });
  model.on("change:back", () => { el.dataset.draws = String(model.get("back")); });
}}
"""
    sent = traitlets.Int(0).tag(sync=True)
    back = traitlets.Int(0).tag(sync=True)

    @traitlets.observe("sent")
    def _echo(self, change):
        self.back = change["new"]

ping = Ping()
ping'''

NOTEBOOK = [
    "import backgammon_lab",
    'gw = backgammon_lab.play("standard", seed=1)\ngw.dice_text.value = "3-1"\ngw.roll_button.click()\ngw',
    PING,
]

INSTALL = """(sel) => {
  const el = document.querySelector(sel);
  const lat = { armed: false, t0: null, samples: [] };
  el.__bglLatency = lat;
  el.addEventListener("click", () => { if (lat.armed) lat.t0 = performance.now(); }, true);
  new MutationObserver(() => {
    if (lat.t0 === null) return;
    const t0 = lat.t0, t1 = performance.now();
    lat.t0 = null;
    lat.armed = false;
    requestAnimationFrame(() => lat.samples.push([t1 - t0, performance.now() - t0]));
  }).observe(el, { attributes: true, attributeFilter: ["data-draws"] });
}"""


def _summary(name: str, samples: list[tuple[float, float]]) -> dict[str, Any]:
    dom = [s[0] for s in samples]
    frame = [s[1] for s in samples]
    row = {"name": name, "n": len(samples), "median": statistics.median(dom),
           "p90": sorted(dom)[int(0.9 * (len(dom) - 1))], "min": min(dom), "max": max(dom),
           "frame_median": statistics.median(frame)}
    print(f"{name:<22} n={row['n']:>3}  median {row['median']:6.1f} ms  p90 {row['p90']:6.1f} ms  "
          f"min {row['min']:6.1f}  max {row['max']:6.1f}  (to next frame: median {row['frame_median']:6.1f} ms)")
    return row


def kernel_side(clicks: int) -> None:
    """The same clicks handled in this process, without a browser: Python's share of the latency."""
    import backgammon_lab

    gw = backgammon_lab.play("standard", seed=1)
    gw.dice_text.value = "3-1"
    gw.roll_button.click()
    b = gw.board
    sel, step = [], []
    for _ in range(clicks):
        t = time.perf_counter()
        b.click("point", 13)
        sel.append((time.perf_counter() - t) * 1000)
    b.clear_selection()
    for _ in range(clicks):
        b.click("point", 8)
        t = time.perf_counter()
        b.click("point", 5)
        step.append((time.perf_counter() - t) * 1000)
        gw.undo_button.click()
    print(f"{'kernel only: select':<22} median {statistics.median(sel):6.2f} ms")
    print(f"{'kernel only: step':<22} median {statistics.median(step):6.2f} ms")


def browser_side(clicks: int, server_config: str = "") -> list[dict[str, Any]]:
    """Time clicks in JupyterLab; returns one summary per kind of click (the ping first)."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise SystemExit("Chromium is not installed (apt-get install chromium)")
    rows = []
    with JupyterLab(server_config) as lab, sync_playwright() as pw:
        write_notebook(lab.root / "latency.ipynb", NOTEBOOK)
        browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        open_notebook(page, lab, "latency.ipynb", widgets=1)
        page.locator(".bgl-ping").wait_for()
        page.wait_for_function(f"document.querySelector('{WIDGET}').dataset.phase === 'play'")
        board = page.locator(WIDGET).first
        for sel in (WIDGET, ".bgl-ping"):
            page.evaluate(INSTALL, sel)

        def samples(sel: str) -> Any:
            return page.evaluate(f"document.querySelector('{sel}').__bglLatency.samples")

        def timed(sel: str, action: Any) -> None:
            before = len(samples(sel))
            page.evaluate(f"document.querySelector('{sel}').__bglLatency.armed = true")
            action()
            page.wait_for_function(
                f"document.querySelector('{sel}').__bglLatency.samples.length > {before}", timeout=10_000)

        def untimed(action: Any, attr: str, value: str) -> None:
            action()
            page.wait_for_function(
                f"document.querySelector('{WIDGET}').getAttribute('{attr}') === '{value}'", timeout=10_000)

        ping = page.locator(".bgl-ping button")
        for _ in range(3):  # warm up
            timed(".bgl-ping", lambda: ping.click())
        page.evaluate("document.querySelector('.bgl-ping').__bglLatency.samples = []")
        for _ in range(clicks):
            timed(".bgl-ping", lambda: ping.click())
        rows.append(_summary("ping (no board)", samples(".bgl-ping")))

        checker13 = board.locator('circle.checker[data-point="13"]').last
        for _ in range(4):  # warm up (an even number: nothing left selected)
            timed(WIDGET, lambda: checker13.click())
        page.evaluate(f"document.querySelector('{WIDGET}').__bglLatency.samples = []")
        for _ in range(clicks):
            timed(WIDGET, lambda: checker13.click())
        rows.append(_summary("select / deselect", samples(WIDGET)))
        if board.get_attribute("data-selected"):
            untimed(lambda: checker13.click(), "data-selected", "")

        page.evaluate(f"document.querySelector('{WIDGET}').__bglLatency.samples = []")
        undo = page.get_by_role("button", name="Undo")
        point5 = board.locator('rect.point[data-point="5"]')
        start = board.get_attribute("data-position")
        for _ in range(clicks):
            untimed(lambda: board.locator('circle.checker[data-point="8"]').last.click(), "data-selected", "8")
            timed(WIDGET, lambda: point5.click(force=True))
            untimed(lambda: undo.click(), "data-position", str(start))
        rows.append(_summary("play a step", samples(WIDGET)))
        browser.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clicks", type=int, default=30, help="timed clicks per kind (at least 20)")
    args = ap.parse_args(argv)
    clicks = max(args.clicks, 20)
    print(f"widget latency: click -> redrawn board, {clicks} clicks per kind, goal median <= {GOAL_MS:.0f} ms")
    results = {}
    for label, config in (("stock Jupyter server", ""), ("server with TCP_NODELAY", NODELAY_CONFIG)):
        print(f"-- {label}")
        rows = browser_side(clicks, config)
        ping, board_rows = rows[0], rows[1:]
        print("   board above the ping floor: "
              + ", ".join(f"{r['name']} {r['median'] - ping['median']:+.1f} ms" for r in board_rows))
        results[label] = max(r["median"] for r in board_rows)
    print("-- kernel only (no browser)")
    kernel_side(clicks)
    for label, worst in results.items():
        print(f"goal met with the {label}: {'yes' if worst <= GOAL_MS else 'NO'} (worst board median {worst:.1f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
