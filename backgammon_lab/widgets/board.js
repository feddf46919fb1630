// backgammon_lab board widget: shows the SVG drawn in Python and reports clicks, drags and keys.
// No game logic lives here: everything goes to the kernel as the synced trait `clicked`.
//   click  -> { kind, value, seq, shift }             (kind: point, bar, off, die, background)
//   drag   -> a click on the checker picked up (`pickup: true`), then one where it is dropped (`drag: true`)
//   key    -> { kind: "key", value: "undo" | "redo" | "roll" | "next" | "play" | "clear", seq }

const CLICKABLE = "[data-point], [data-bar], [data-off], [data-die]";
const KEYS = { u: "undo", U: "undo", Backspace: "undo", y: "redo", Y: "redo", r: "roll", R: "roll",
               n: "next", N: "next", Enter: "play", Escape: "clear" };
const DRAG_START = 6; // pixels the pointer moves before a press becomes a drag

function describe(target) {
  const d = target.dataset;
  if (d.point !== undefined) return { kind: "point", value: Number(d.point) };
  if (d.bar !== undefined) return { kind: "bar", value: d.bar };
  if (d.off !== undefined) return { kind: "off", value: d.off };
  return { kind: "die", value: Number(d.die) };
}

function render({ model, el }) {
  el.classList.add("bgl-board-widget");
  el.tabIndex = 0; // keyboard focus: click the board, or Tab to it
  el.dataset.lmSuppressShortcuts = "true"; // JupyterLab leaves the keys pressed here to the board
  const picture = document.createElement("div");
  picture.className = "bgl-board-svg";
  const message = document.createElement("div");
  message.className = "bgl-board-message";
  message.dataset.role = "message";
  el.append(picture, message);
  let draws = 0;
  let drag = null; // { hit, x, y, moved, ghost }
  let swallowClick = false;

  const send = (click) => {
    const last = model.get("clicked") || {};
    const seq = (Number.isInteger(last.seq) ? last.seq : 0) + 1;
    model.set("clicked", { ...click, seq });
    model.save_changes();
  };

  const drawSvg = () => {
    picture.innerHTML = model.get("svg");
    if (drag && drag.ghost) picture.querySelector("svg").appendChild(drag.ghost); // keep the dragged checker
    draws += 1;
    el.dataset.draws = String(draws);
  };
  const drawMessage = () => {
    const text = model.get("message") || "";
    message.textContent = text;
    message.classList.toggle("bgl-empty", !text); // the line keeps its room: nothing below it jumps
  };
  const drawInfo = () => {
    const info = model.get("info") || {};
    for (const [key, value] of Object.entries(info)) {
      el.dataset[key.replace(/_(\w)/g, (_, c) => c.toUpperCase())] =
        value === null || value === undefined ? "" : Array.isArray(value) ? value.join(",") : String(value);
    }
  };

  const onClick = (event) => {
    if (swallowClick) { swallowClick = false; return; } // the click a browser fires after a drag
    el.focus({ preventScroll: true });
    const hit = event.target.closest(CLICKABLE);
    const click = hit && picture.contains(hit) ? describe(hit) : { kind: "background", value: null };
    send({ ...click, shift: event.shiftKey });
  };

  const svgPoint = (svg, event) => {
    const pt = svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  };
  const onDown = (event) => {
    if (event.button !== 0) return;
    const hit = event.target.closest("circle.checker");
    if (!hit || !picture.contains(hit)) return;
    drag = { hit, x: event.clientX, y: event.clientY, moved: false, ghost: null };
  };
  const onMove = (event) => {
    if (!drag) return;
    if (!drag.moved) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START) return;
      drag.moved = true;
      el.focus({ preventScroll: true });
      send({ ...describe(drag.hit), shift: false, pickup: true }); // the kernel marks where it can go
      const ghost = drag.hit.cloneNode(false);
      for (const a of ["data-point", "data-point-black", "data-bar", "data-off", "class"]) ghost.removeAttribute(a);
      ghost.setAttribute("class", "bgl-ghost");
      ghost.setAttribute("pointer-events", "none");
      ghost.setAttribute("opacity", "0.75");
      picture.querySelector("svg").appendChild(ghost);
      drag.ghost = ghost;
      el.classList.add("bgl-dragging");
    }
    const svg = picture.querySelector("svg");
    const p = svgPoint(svg, event);
    drag.ghost.setAttribute("cx", String(p.x));
    drag.ghost.setAttribute("cy", String(p.y));
    event.preventDefault();
  };
  const onUp = (event) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return; // a press without a move is a click: onClick reports it
    d.ghost.remove();
    el.classList.remove("bgl-dragging");
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const hit = under && under.closest(CLICKABLE);
    const drop = hit && picture.contains(hit) ? describe(hit) : { kind: "background", value: null };
    send({ ...drop, shift: false, drag: true });
  };
  const onCancel = () => {
    if (drag && drag.ghost) drag.ghost.remove();
    drag = null;
    el.classList.remove("bgl-dragging");
  };

  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = KEYS[event.key];
    if (!key) return;
    event.preventDefault();
    event.stopPropagation(); // not a notebook shortcut
    send({ kind: "key", value: key });
  };

  drawSvg();
  drawMessage();
  drawInfo();
  picture.addEventListener("click", onClick);
  picture.addEventListener("pointerdown", onDown);
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
  window.addEventListener("pointercancel", onCancel);
  el.addEventListener("keydown", onKey);
  model.on("change:svg", drawSvg);
  model.on("change:message", drawMessage);
  model.on("change:info", drawInfo);
  return () => {
    picture.removeEventListener("click", onClick);
    picture.removeEventListener("pointerdown", onDown);
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onCancel);
    el.removeEventListener("keydown", onKey);
    model.off("change:svg", drawSvg);
    model.off("change:message", drawMessage);
    model.off("change:info", drawInfo);
  };
}

export default { render };
