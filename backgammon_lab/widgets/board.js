// backgammon_lab board widget: shows the SVG drawn in Python and reports clicks.
// No game logic lives here: every click goes to the kernel as the synced trait `clicked`.

const CLICKABLE = "[data-point], [data-bar], [data-off], [data-die]";

function describe(target) {
  const d = target.dataset;
  if (d.point !== undefined) return { kind: "point", value: Number(d.point) };
  if (d.bar !== undefined) return { kind: "bar", value: d.bar };
  if (d.off !== undefined) return { kind: "off", value: d.off };
  return { kind: "die", value: Number(d.die) };
}

function render({ model, el }) {
  el.classList.add("bgl-board-widget");
  const picture = document.createElement("div");
  picture.className = "bgl-board-svg";
  const message = document.createElement("div");
  message.className = "bgl-board-message";
  message.dataset.role = "message";
  el.append(picture, message);
  let draws = 0;

  const drawSvg = () => {
    picture.innerHTML = model.get("svg");
    draws += 1;
    el.dataset.draws = String(draws);
  };
  const drawMessage = () => {
    const text = model.get("message") || "";
    message.textContent = text;
    message.style.display = text ? "" : "none";
  };
  const drawInfo = () => {
    const info = model.get("info") || {};
    for (const [key, value] of Object.entries(info)) {
      el.dataset[key.replace(/_(\w)/g, (_, c) => c.toUpperCase())] =
        value === null || value === undefined ? "" : Array.isArray(value) ? value.join(",") : String(value);
    }
  };

  const onClick = (event) => {
    const hit = event.target.closest(CLICKABLE);
    const click = hit && picture.contains(hit) ? describe(hit) : { kind: "background", value: null };
    const last = model.get("clicked") || {};
    const seq = (Number.isInteger(last.seq) ? last.seq : 0) + 1;
    model.set("clicked", { ...click, seq, shift: event.shiftKey });
    model.save_changes();
  };

  drawSvg();
  drawMessage();
  drawInfo();
  picture.addEventListener("click", onClick);
  model.on("change:svg", drawSvg);
  model.on("change:message", drawMessage);
  model.on("change:info", drawInfo);
  return () => {
    picture.removeEventListener("click", onClick);
    model.off("change:svg", drawSvg);
    model.off("change:message", drawMessage);
    model.off("change:info", drawInfo);
  };
}

export default { render };
