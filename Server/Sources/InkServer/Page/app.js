// The page of inkrec-serve: pen, touch and mouse through Pointer Events (coalesced events used,
// pressure ignored); the ink is sent to POST /v1/recognize after a short pause and the candidates are
// shown with their scores and confidences. No build step, no external resources.
"use strict";
const pad = document.getElementById("pad");
const ctx = pad.getContext("2d");
const strokes = [];          // [[{x, y, t}]] in CSS pixels of the canvas, t in ms since the first point
let current = null, start = null, timer = null, sent = 0;

function resize() {
  const r = pad.getBoundingClientRect(), d = window.devicePixelRatio || 1;
  pad.width = Math.round(r.width * d); pad.height = Math.round(r.height * d);
  ctx.setTransform(d, 0, 0, d, 0, 0);
  redraw();
}
function redraw() {
  ctx.clearRect(0, 0, pad.width, pad.height);
  ctx.lineWidth = 3; ctx.lineCap = "round"; ctx.lineJoin = "round"; ctx.strokeStyle = "#123";
  for (const s of strokes) {
    ctx.beginPath();
    s.forEach((p, i) => i ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y));
    if (s.length === 1) ctx.lineTo(s[0].x + 0.1, s[0].y);
    ctx.stroke();
  }
}
function point(e) {
  const r = pad.getBoundingClientRect();
  if (start === null) start = e.timeStamp;
  return { x: e.clientX - r.left, y: e.clientY - r.top, t: Math.round(e.timeStamp - start) };
}
pad.addEventListener("pointerdown", e => {
  e.preventDefault();
  pad.setPointerCapture(e.pointerId);
  current = [point(e)];
  strokes.push(current);
  clearTimeout(timer);
  redraw();
});
pad.addEventListener("pointermove", e => {
  if (!current) return;
  const events = e.getCoalescedEvents ? e.getCoalescedEvents() : [e];
  for (const c of (events.length ? events : [e])) current.push(point(c));
  redraw();
});
function end() {
  if (!current) return;
  current = null;
  schedule();
}
pad.addEventListener("pointerup", end);
pad.addEventListener("pointercancel", end);

function ink() {
  return { strokes: strokes.map(s => ({ points: s.map(p => ({ x: p.x, y: p.y, t: p.t })) })),
           preContext: document.getElementById("preContext").value };
}
function schedule() { clearTimeout(timer); timer = setTimeout(recognize, 400); showJSON(); }
function showJSON() {
  const text = JSON.stringify(ink());
  document.getElementById("json").value = text;
  document.getElementById("download").href = "data:application/json;charset=utf-8," + encodeURIComponent(text);
}
async function recognize() {
  const list = document.getElementById("candidates"), status = document.getElementById("status");
  if (!strokes.length) { list.innerHTML = ""; return; }
  const body = Object.assign(ink(), { language: document.getElementById("language").value, maxResultCount: 5 });
  const id = ++sent;
  try {
    const r = await fetch("/v1/recognize", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const answer = await r.json();
    if (id !== sent) return;  // a newer request is on its way
    if (!r.ok) { status.textContent = answer.error || ("HTTP " + r.status); return; }
    status.textContent = "";
    showCandidates(answer.candidates || []);
  } catch (err) { status.textContent = String(err); }
}
// The candidates in the list, each text in an element of its own with dir="auto": the browser takes
// its direction from its first strong character, so Hebrew or Arabic text reads right to left (and
// its score stays beside it) while the page stays left to right.
function showCandidates(candidates) {
  const list = document.getElementById("candidates");
  list.innerHTML = "";
  for (const c of candidates) {
    const li = document.createElement("li");
    const t = document.createElement("span");
    t.className = "text";
    t.dir = "auto";
    t.textContent = c.text;
    li.appendChild(t);
    const s = document.createElement("span");
    s.className = "score";
    s.textContent = "score " + (c.score === null ? "–" : c.score.toFixed(2)) +
      (c.confidence !== undefined && c.confidence !== null ? ", confidence " + Math.round(100 * c.confidence) + "%" : "");
    li.appendChild(s);
    list.appendChild(li);
  }
}
document.getElementById("undo").onclick = () => { strokes.pop(); redraw(); schedule(); };
document.getElementById("clear").onclick = () => { strokes.length = 0; start = null; redraw(); schedule(); };
document.getElementById("preContext").oninput = schedule;
document.getElementById("language").onchange = schedule;
document.getElementById("copy").onclick = () => navigator.clipboard && navigator.clipboard.writeText(document.getElementById("json").value);
fetch("/v1/models").then(r => r.json()).then(m => {
  const select = document.getElementById("language");
  select.innerHTML = "";
  for (const model of m.repository || []) {
    const o = document.createElement("option");
    o.value = model.identifier; o.textContent = model.identifier + (model.loaded ? "" : " (not loaded)");
    o.disabled = !model.loaded;
    select.appendChild(o);
  }
}).catch(() => {});
window.addEventListener("resize", resize);
resize();
