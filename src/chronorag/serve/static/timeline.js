// Time formatting in a chosen IANA zone, and the validity timeline drawn as inline SVG.
// No dependencies: Intl does the zone arithmetic.

const SVG_NS = "http://www.w3.org/2000/svg";
const formatters = new Map();

function formatter(tz) {
  if (!formatters.has(tz)) {
    formatters.set(tz, new Intl.DateTimeFormat("en-CA", {
      timeZone: tz, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", second: "2-digit",
    }));
  }
  return formatters.get(tz);
}

export function validZone(tz) {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

// Wall-clock parts of an instant (ms since the epoch) in zone tz.
function wallClock(ms, tz) {
  const o = {};
  for (const p of formatter(tz).formatToParts(ms)) o[p.type] = p.value;
  return { y: +o.year, mo: +o.month, d: +o.day, h: +o.hour % 24, mi: +o.minute, s: +o.second };
}

// The instant at which zone tz shows the given wall-clock time (month may overflow).
function zonedInstant(y, mo, d, h, tz) {
  const naive = Date.UTC(y, mo - 1, d, h);
  let ms = naive;
  for (let i = 0; i < 2; i++) {
    const w = wallClock(ms, tz);
    ms += naive - Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
  }
  return ms;
}

export function parseTime(iso) {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

const pad = (n, w = 2) => String(n).padStart(w, "0");

// "2026-12-01" at midnight in tz, else "2026-12-01 10:00"; the raw text when unparsable.
export function formatTime(iso, tz) {
  const ms = parseTime(iso);
  if (ms === null) return iso ?? "";
  const w = wallClock(ms, tz);
  const date = `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)}`;
  if (w.h === 0 && w.mi === 0 && w.s === 0) return date;
  return `${date} ${pad(w.h)}:${pad(w.mi)}${w.s ? ":" + pad(w.s) : ""}`;
}

// --- axis ticks ---------------------------------------------------------------------

const DAY = 86400000;
const STEPS = [
  ["hour", 1], ["hour", 3], ["hour", 6], ["hour", 12], ["day", 1], ["day", 2], ["day", 7],
  ["month", 1], ["month", 3], ["month", 6], ["year", 1], ["year", 2], ["year", 5],
  ["year", 10], ["year", 25], ["year", 50], ["year", 100],
];

function ticks(min, max, tz, most = 8) {
  for (const [unit, n] of STEPS) {
    const approx = { hour: 3600000, day: DAY, month: 30.4 * DAY, year: 365.25 * DAY }[unit] * n;
    if ((max - min) / approx > most) continue;
    const w = wallClock(min, tz);
    let { y, mo, d, h } = w;
    if (unit === "year") { y = Math.floor(y / n) * n; mo = 1; d = 1; h = 0; }
    if (unit === "month") { mo = Math.floor((mo - 1) / n) * n + 1; d = 1; h = 0; }
    if (unit === "day") { h = 0; }
    if (unit === "hour") { h = Math.floor(h / n) * n; }
    const out = [];
    for (let i = 0; i < 200 && out.length <= most + 1; i++) {
      const t = zonedInstant(
        unit === "year" ? y + i * n : y, unit === "month" ? mo + i * n : mo,
        unit === "day" ? d + i * n : d, unit === "hour" ? h + i * n : h, tz);
      if (t > max) break;
      if (t < min) continue;
      const p = wallClock(t, tz);
      const label = unit === "year" ? `${p.y}` : unit === "month" ? `${p.y}-${pad(p.mo)}`
        : unit === "day" ? `${p.y}-${pad(p.mo)}-${pad(p.d)}` : `${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}:00`;
      out.push({ t, label });
    }
    return out;
  }
  return [];
}

// --- drawing ------------------------------------------------------------------------

function el(name, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function title(text) {
  const t = el("title");
  t.textContent = text;
  return t;
}

const W = 1100, LABEL = 170, RIGHT = 24, TOP = 46, ROW = 26, BOTTOM = 26, FADE = 48;

function defs() {
  const fade = (id, x1, x2) => el("linearGradient", { id: `${id}-grad`, x1, x2, y1: 0, y2: 0 },
    el("stop", { offset: 0, "stop-color": "#fff", "stop-opacity": 0.12 }),
    el("stop", { offset: 1, "stop-color": "#fff", "stop-opacity": 1 }));
  const mask = (id) => el("mask", { id, maskContentUnits: "objectBoundingBox" },
    el("rect", { width: 1, height: 1, fill: `url(#${id}-grad)` }));
  return el("defs", {}, fade("tl-fade-left", 0, 1), mask("tl-fade-left"),
    fade("tl-fade-right", 1, 0), mask("tl-fade-right"));
}

const GROUP_NAMES = { evidence: "evidence", upcoming: "upcoming", later: "later versions" };

// The end of an item's validity: valid_until (its valid_to or its successor's start,
// whichever comes first) when the server gives it, else valid_to.
function endOf(item) {
  return parseTime(item.valid_until) ?? parseTime(item.valid_to);
}

function kindOf(item, group) {
  if (group === "upcoming" || group === "later") return "upcoming";
  return item.applicable ? "applicable" : "inapplicable";
}

/**
 * Draw rows = [{item, group: "evidence"|"upcoming"|"later", id}] and the asked time.
 * Returns an <svg data-testid="timeline">. onSelect(id) is called when a row is clicked.
 */
export function drawTimeline({ rows, asOf, now, constraint, tz, onSelect }) {
  const asOfMs = parseTime(asOf), nowMs = parseTime(now);
  const c = constraint && constraint.relation && constraint.relation !== "none" ? constraint : null;
  const points = [asOfMs, nowMs, parseTime(c?.start), parseTime(c?.end)];
  for (const { item } of rows) points.push(parseTime(item.valid_from), endOf(item), parseTime(item.occurred_at));
  const known = points.filter((p) => p !== null);
  let min = Math.min(...known), max = Math.max(...known);
  const span = Math.max(max - min, DAY);
  min -= span * 0.08; max += span * 0.08;

  const groups = new Set(rows.map((r) => r.group));
  const headed = groups.size > 1 || !groups.has("evidence");
  const height = TOP + rows.length * ROW + (headed ? groups.size * 18 : 0) + BOTTOM;
  const x0 = LABEL, x1 = W - RIGHT;
  const x = (t) => x0 + ((t - min) / (max - min)) * (x1 - x0);

  const svg = el("svg", {
    viewBox: `0 0 ${W} ${height}`, width: "100%", class: "timeline", role: "img",
    "data-testid": "timeline", "aria-label": `Timeline of ${rows.length} items; times in ${tz}`,
  }, defs());
  const axis = el("g", { class: "tl-axis" });
  for (const { t, label } of ticks(min, max, tz)) {
    axis.append(el("line", { x1: x(t), x2: x(t), y1: TOP - 4, y2: height - BOTTOM, class: "tl-grid" }));
    const text = el("text", { x: x(t), y: TOP - 8, "text-anchor": "middle", class: "tl-tick" });
    text.textContent = label;
    axis.append(text);
  }
  svg.append(axis);

  // The question's own time (e.g. "上周二" is one day), shaded behind the rows.
  if (c && (c.start || c.end)) {
    const from = parseTime(c.start), to = parseTime(c.end);
    const left = from === null ? x0 : x(from), right = to === null ? x1 : x(to);
    const range = `[${c.start ? formatTime(c.start, tz) : "…"}, ${c.end ? formatTime(c.end, tz) : "…"})`;
    svg.append(el("rect", {
      x: left, y: TOP - 4, width: Math.max(right - left, 3), height: height - BOTTOM - TOP + 4,
      class: "tl-span", "data-testid": "question-span",
    }, title(`the question's time: ${c.order ? c.order + " " : ""}${c.relation} ${range}`)));
  }

  let y = TOP;
  let lastGroup = null;
  for (const row of rows) {
    if (headed && row.group !== lastGroup) {
      const head = el("text", { x: 8, y: y + 13, class: "tl-group" });
      head.textContent = GROUP_NAMES[row.group] ?? row.group;
      svg.append(head, el("line", { x1: 0, x2: W, y1: y + 1, y2: y + 1, class: "tl-sep" }));
      y += 18;
      lastGroup = row.group;
    }
    svg.append(drawRow(row, y, { x, x0, x1, tz, onSelect }));
    y += ROW;
  }

  if (nowMs !== null && nowMs !== asOfMs) {
    svg.append(el("line", { x1: x(nowMs), x2: x(nowMs), y1: TOP - 4, y2: height - BOTTOM + 4, class: "tl-now" }));
    svg.append(label(x(nowMs), height - 8, `now ${formatTime(now, tz)}`, x0, x1, "tl-now-label"));
  }
  if (asOfMs !== null) {
    svg.append(el("line", {
      x1: x(asOfMs), x2: x(asOfMs), y1: 20, y2: height - BOTTOM + 4,
      class: "tl-asof", "data-testid": "asof-line", "data-time": asOf,
    }, title(`as of ${formatTime(asOf, tz)} (${tz})`)));
    svg.append(label(x(asOfMs), 16, `as of ${formatTime(asOf, tz)}`, x0, x1, "tl-asof-label"));
  }
  return svg;
}

// A text label at xPos that stays inside [x0, x1]; placed on a white backing for legibility.
function label(xPos, y, text, x0, x1, cls) {
  const approxWidth = text.length * 6.4 + 8;
  let anchor = "middle";
  if (xPos + approxWidth / 2 > x1 + RIGHT) anchor = "end";
  else if (xPos - approxWidth / 2 < x0) anchor = "start";
  const left = anchor === "middle" ? xPos - approxWidth / 2 : anchor === "end" ? xPos - approxWidth : xPos;
  const g = el("g", { class: cls });
  g.append(el("rect", { x: left, y: y - 11, width: approxWidth, height: 15, rx: 3, class: "tl-label-bg" }));
  const t = el("text", { x: anchor === "middle" ? xPos : anchor === "end" ? xPos - 4 : xPos + 4, y, "text-anchor": anchor });
  t.textContent = text;
  g.append(t);
  return g;
}

function drawRow({ item, group, id }, y, { x, x0, x1, tz, onSelect }) {
  const kind = kindOf(item, group);
  const cy = y + ROW / 2;
  const from = parseTime(item.valid_from), to = endOf(item), at = parseTime(item.occurred_at);
  const g = el("g", {
    class: `tl-row tl-${kind}`, "data-doc-id": item.doc_id, "data-group": group, tabindex: 0,
  });
  const when = [
    item.valid_from || to !== null
      ? `valid [${item.valid_from ? formatTime(item.valid_from, tz) : "…"}, ${to !== null ? formatTime(item.valid_until || item.valid_to, tz) : "…"})`
      : "no validity dates",
    item.superseded_by?.length ? `replaced by ${item.superseded_by.join(", ")}` : null,
    item.occurred_at ? `occurred ${formatTime(item.occurred_at, tz)}` : null,
    (item.flags || []).length ? `flags: ${item.flags.join(", ")}` : null,
  ].filter(Boolean).join("; ");
  g.append(title(`${item.doc_id}: ${item.title || ""}\n${when}`));
  g.append(el("rect", { x: 0, y, width: W, height: ROW, class: "tl-hit" }));
  const name = el("text", { x: LABEL - 10, y: cy + 4, "text-anchor": "end", class: "tl-label" });
  name.textContent = item.doc_id.length > 24 ? item.doc_id.slice(0, 23) + "…" : item.doc_id;
  g.append(name);

  if (from !== null || to !== null) {
    const left = from === null ? x0 : Math.max(x0, x(from));
    const right = to === null ? x1 : Math.min(x1, x(to));
    const bar = { y: cy - 6, height: 12, class: "tl-bar", "data-open-start": from === null, "data-open-end": to === null };
    // An open side fades out over the last FADE pixels and ends in an arrow at the edge.
    const solidLeft = from === null ? Math.min(left + FADE, right) : left;
    const solidRight = to === null ? Math.max(right - FADE, solidLeft) : right;
    if (from === null) g.append(el("rect", { ...bar, x: left, width: solidLeft - left + 1, mask: "url(#tl-fade-left)", class: "tl-bar tl-tail" }));
    g.append(el("rect", { ...bar, x: solidLeft, width: Math.max(solidRight - solidLeft, 2) }));
    if (to === null) g.append(el("rect", { ...bar, x: solidRight - 1, width: right - solidRight + 1, mask: "url(#tl-fade-right)", class: "tl-bar tl-tail" }));
    if (to === null) g.append(el("path", { d: `M${x1 - 1},${cy - 6} l7,6 l-7,6 z`, class: "tl-arrow" }));
    if (from === null) g.append(el("path", { d: `M${x0 + 1},${cy - 6} l-7,6 l7,6 z`, class: "tl-arrow" }));
    if (from !== null) g.append(el("line", { x1: left, x2: left, y1: cy - 8, y2: cy + 8, class: "tl-edge" }));
    if (to !== null) g.append(el("line", { x1: right, x2: right, y1: cy - 8, y2: cy + 8, class: "tl-edge" }));
  }
  if (at !== null) {
    g.append(el("circle", { cx: x(at), cy, r: 5.5, class: "tl-dot" }));
  }
  if (from === null && to === null && at === null) {
    g.append(el("line", { x1: x0, x2: x1, y1: cy, y2: cy, class: "tl-undated" }));
    const note = el("text", { x: x0 + 6, y: cy - 4, class: "tl-note" });
    note.textContent = "no dates";
    g.append(note);
  }
  if (onSelect) {
    g.addEventListener("click", () => onSelect(id));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter") onSelect(id); });
  }
  return g;
}
