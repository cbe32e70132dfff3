// The chronorag page: ask a question, see why an answer was chosen; upload documents.
// Every piece of server text goes through textContent (never innerHTML): it is user content.

import { setupDocumentList } from "./documents.js";
import { drawTimeline, formatTime, parseTime, validZone } from "./timeline.js";

const KEY_STORAGE = "chronorag.key";
const $ = (id) => document.getElementById(id);
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

// Plain-language notes for the flags the engine sets (unknown flags still show, untitled).
const FLAG_NOTES = {
  superseded: "a newer version that lists this one in supersedes is valid at the asked time",
  derived_copy: "a copy of another document: shares its fate and never counts as an independent vote",
  not_yet_valid: "valid only from a time after the asked time",
  expired: "its validity ended at or before the asked time",
  draft: "a draft: drafts never answer",
  retired: "retired: retired documents never answer",
  undated: "no usable date: an answer resting on it is uncertain",
  non_decisive: "this kind of source (e.g. a forum) never decides an answer",
  time_verified: "its time matches the time in the question",
  rests_on_undated: "the answer rests on a document without a usable date",
  parallel_views: "sources with different owners disagree; each owner's view is shown",
  only_upcoming: "only versions valid after the asked time were found",
  no_applicable_evidence: "nothing found applies at the asked time",
  generated_answer_rejected: "the model's answer failed the checks: the extractive answer is shown",
  generation_failed: "the model could not write an answer: the extractive answer is shown",
  times_disagree: "records as relevant as this one name another time for it",
  time_from_metadata: "the record's text names no time: the date it was recorded answers",
  date_contradicted_by_text: "the date contradicts the times the evidence's own text states",
  violates_time: "its text names a time outside the time in the question",
  no_earlier_version: "the version in force has no version before it: nothing to compare",
  no_version_in_period: "no version took effect in the asked period",
  versions_identical: "the compared versions state the same sentences",
  not_applicable: "written for other askers (its applies_to) than the asker's attributes",
  condition_unknown: "written for askers with an attribute this asker did not give",
  variants: "rules for different askers say different things: each is shown, labelled",
  time_not_covered: "no version of the relevant documents is valid at the asked time",
};
const BAD_FLAGS = new Set(["superseded", "not_yet_valid", "expired", "draft", "retired", "violates_time", "not_applicable"]);
const GOOD_FLAGS = new Set(["time_verified"]);

// --- small DOM helpers ----------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function langOf(text) {
  return CJK.test(text || "") ? "zh" : "en";
}

function flagBadge(flag) {
  const tone = BAD_FLAGS.has(flag) ? "bad" : GOOD_FLAGS.has(flag) ? "good" : "warn";
  return h("span", { class: `badge flag ${tone}`, "data-flag": flag, title: FLAG_NOTES[flag] ?? null },
    flag.replaceAll("_", " "));
}

// --- the key and who it belongs to ----------------------------------------------------

let me = null; // {user, admin} once the key is known good
let keyCheck = 0; // only the latest check may update the page

function key() {
  return $("key").value.trim();
}

class ApiError extends Error {
  constructor(status, body) {
    const err = body?.error ?? {};
    super(err.message || `HTTP ${status}`);
    this.status = err.status ?? status;
    this.code = err.code ?? null;
    this.errors = Array.isArray(err.errors) ? err.errors : [];
  }
}

// The server's response to a request with the key; a network failure is an ApiError.
async function request(path, { method = "GET", json, form, signal } = {}) {
  const headers = {};
  if (key()) headers.Authorization = `Bearer ${key()}`;
  let body;
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    body = form; // the browser sets the multipart boundary
  }
  try {
    return await fetch(path, { method, headers, body, signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(0, { error: { message: "Could not reach the server. Is `chronorag serve` running?" } });
  }
}

// The JSON body of a response; the API's error (or the status line) when it is not ok.
async function readJson(response) {
  let data = null;
  const text = await response.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    if (!data?.error) data = { error: { message: `${response.status} ${response.statusText}: ${text.slice(0, 200)}` } };
    throw new ApiError(response.status, data);
  }
  return data;
}

async function api(path, options) {
  return readJson(await request(path, options));
}

function explain(error) {
  if (error.status === 401) return `${error.message} — enter a valid API key at the top right.`;
  if (error.status === 403) return `${error.message} — this needs an admin key.`;
  return error.message;
}

async function checkKey() {
  const box = $("whoami"), seq = ++keyCheck;
  me = null;
  box.className = "whoami";
  if (!key()) {
    box.textContent = "no key";
    box.classList.add("unknown");
    updateUploadNote();
    return;
  }
  try {
    const who = await api("v1/whoami");
    if (seq !== keyCheck) return;
    me = who;
    box.textContent = me.admin ? `${me.user} · admin` : me.user;
    box.classList.add(me.admin ? "admin" : "user");
  } catch (e) {
    if (seq !== keyCheck) return;
    box.textContent = e.status === 401 ? "key rejected" : "server unreachable";
    box.classList.add("bad");
  }
  updateUploadNote();
  if (location.hash === "#documents") documentList?.refresh();
}

function setupKey() {
  const input = $("key");
  $("key-form").addEventListener("submit", (e) => { e.preventDefault(); checkKey(); });
  input.value = localStorage.getItem(KEY_STORAGE) ?? "";
  let timer = null;
  input.addEventListener("input", () => {
    if (key()) localStorage.setItem(KEY_STORAGE, key());
    else localStorage.removeItem(KEY_STORAGE);
    clearTimeout(timer);
    timer = setTimeout(checkKey, 300);
  });
  checkKey();
}

// --- tabs ------------------------------------------------------------------------------

function showTab() {
  const name = location.hash === "#documents" ? "documents" : "ask";
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  }
  $("view-ask").hidden = name !== "ask";
  $("view-documents").hidden = name !== "documents";
  if (name === "documents") documentList?.refresh();
}

// --- asking ------------------------------------------------------------------------------

let inFlight = null;

// datetime-local gives "2026-11-25T10:00" (or with seconds); the server reads it in tz.
function localValue(input) {
  const v = input.value;
  if (!v) return undefined;
  return v.length === 16 ? `${v}:00` : v;
}

function showAskError(message) {
  const box = $("ask-error");
  box.replaceChildren(h("p", {}, message));
  box.hidden = false;
}

async function ask(event) {
  event?.preventDefault();
  const question = $("question").value.trim();
  if (!question) {
    $("question").focus();
    return;
  }
  const tz = $("tz").value.trim() || browserZone;
  if (!validZone(tz)) {
    showAskError(`Unknown time zone "${tz}": use an IANA name such as Europe/Berlin or Asia/Shanghai.`);
    return;
  }
  const body = { question, tz };
  const now = localValue($("now")), asOf = localValue($("as-of")), k = $("k").value;
  if (now) body.now = now;
  if (asOf) body.as_of = asOf;
  if (k) body.k = Number(k);
  const context = parseContext($("context").value);
  if (context === null) {
    showAskError('The asker\'s attributes are "key=value" pairs separated by commas, e.g. region=EU, segment=business.');
    return;
  }
  if (Object.keys(context).length) body.context = context;

  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  const view = $("view-ask");
  view.dataset.state = "loading";
  $("result").hidden = true;
  $("ask-error").hidden = true;
  clearWriting();
  $("ask-button").disabled = true;
  $("ask-button").textContent = "Asking…";
  try {
    await askStream(body, tz, controller.signal);
    view.dataset.state = "done";
  } catch (e) {
    if (controller.signal.reason === STOPPED) {
      stopped();
    } else if (e.name !== "AbortError") {
      clearWriting();
      showAskError(explain(e));
      view.dataset.state = "error";
    }
  } finally {
    if (inFlight === controller) {
      inFlight = null;
      $("ask-button").disabled = false;
      $("ask-button").textContent = "Ask";
    }
  }
}

// --- the answer as a stream: evidence, the model's text live, the checked answer -----

const STOPPED = new DOMException("stopped by the asker", "AbortError");

// One event of a text/event-stream block by the WHATWG rules: its name and its data
// lines joined; null for a block without data (a comment such as the server's pings).
function sseEvent(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const at = line.indexOf(":");
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  return data.length ? { name, data: data.join("\n") } : null;
}

// The events of a text/event-stream body as they arrive. A chunk may end anywhere: in a
// line, in a character (the decoder keeps it), between the "\r" and "\n" of a line end.
async function* sseEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return; // an unfinished last block is dropped, as the rules say
      const text = rest + value;
      const cut = text.endsWith("\r") ? text.length - 1 : text.length;
      const blocks = text.slice(0, cut).replace(/\r\n?/g, "\n").split("\n\n");
      rest = blocks.pop() + text.slice(cut);
      for (const event of blocks.map(sseEvent)) if (event) yield event;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

// Ask through POST /v1/ask/stream. A reply that is not a stream (a refusal before it
// starts: 401, 422, 503) is read as /v1/ask's JSON.
async function askStream(body, tz, signal) {
  const response = await request("v1/ask/stream", { method: "POST", json: body, signal });
  if (!response.ok || !(response.headers.get("content-type") || "").startsWith("text/event-stream")) {
    renderResult(await readJson(response), tz);
    return;
  }
  const run = { tz, evidence: null };
  for await (const { name, data } of sseEvents(response.body)) {
    signal.throwIfAborted();
    if (onStreamEvent(run, name, data)) return;
  }
  signal.throwIfAborted();
  throw new ApiError(0, { error: { message: "The answer stream ended before the answer: ask again." } });
}

// One event of the stream; true once it is over (the answer).
function onStreamEvent(run, name, data) {
  const payload = JSON.parse(data);
  if (name === "evidence") {
    run.evidence = data;
    renderResult(payload, run.tz);
    $("view-ask").dataset.state = "evidence";
  } else if (name === "delta") {
    showDelta(String(payload.text ?? ""));
  } else if (name === "answer") {
    clearWriting();
    if (data !== run.evidence) renderResult(payload, run.tz); // without an llm: the same
    return true;
  } else if (name === "error") {
    throw new ApiError(payload?.error?.status ?? 500, payload);
  }
  return false;
}

function showDelta(piece) {
  const text = $("writing-text");
  text.append(piece); // a text node: the live region reads the new piece only
  text.lang = langOf(text.textContent);
  $("writing").hidden = false;
}

function clearWriting() {
  $("writing").hidden = true;
  $("writing-text").replaceChildren();
}

function stopWriting() {
  inFlight?.abort(STOPPED);
}

function stopped() {
  clearWriting();
  showGeneration("stopped", {});
  $("view-ask").dataset.state = "done";
}

// What the model did (the ask JSON's `generation`), in a sentence or two.
const GENERATION_NOTES = {
  used: (g) => [h("p", {}, `Written by ${g.model || "the model"}; citations, numbers and dates checked.`)],
  rejected: (g) => [
    h("p", {}, `Not used: what ${g.model || "the model"} wrote failed the checks, so the extractive answer is shown.`),
    h("p", { class: "rejected-text", lang: langOf(g.text), "data-testid": "rejected-text" }, h("s", {}, g.text || "")),
    h("ul", { class: "problems" }, ...(g.problems || []).map((p) => h("li", {
      "data-testid": "generation-problem", "data-rule": p.rule }, h("code", {}, p.rule), " ", p.detail)))],
  failed: (g) => [h("p", {}, `The model failed (${g.error}): the extractive answer is shown.`)],
  skipped: (g) => [h("p", {}, `The model was not asked: ${g.skipped}.`)],
  stopped: () => [h("p", {}, "Stopped before the model finished: its text was never checked; the extractive answer is shown.")],
};

function renderGeneration(g) {
  if (!g) {
    $("generation").hidden = true;
    $("generation").replaceChildren();
    return;
  }
  showGeneration(g.used ? "used" : g.error ? "failed" : g.skipped ? "skipped" : "rejected", g);
}

function showGeneration(outcome, g) {
  const box = $("generation");
  box.dataset.outcome = outcome;
  box.className = `generation generation-${outcome}`;
  box.replaceChildren(...GENERATION_NOTES[outcome](g));
  box.hidden = false;
}

// --- the result ----------------------------------------------------------------------------

// A comparison's parts (one answer per time) or a "what changed" question's version pairs.
function renderBreakdown(r, tz) {
  const box = $("breakdown");
  const parts = r.parts || [], changes = r.changes || [];
  const rows = [
    ...parts.map((p) => h("li", { "data-testid": "part", "data-status": p.status },
      h("strong", {}, p.time ?? p.entity), ": ", p.answer ?? "no answer", " ",
      h("span", { class: "hint" }, `(${p.status.replaceAll("_", " ")}${p.evidence ? ", " + p.evidence.doc_id : ""})`))),
    ...changes.map((c) => h("li", { "data-testid": "change", "data-upcoming": c.upcoming ? "yes" : "no" },
      h("strong", {}, `${c.from.doc_id} → ${c.to.doc_id}`),
      h("span", { class: "hint" }, ` takes effect ${c.to.took_effect ? formatTime(c.to.took_effect, tz) : "at an unknown time"}${c.upcoming ? " (upcoming)" : ""}`),
      h("ul", {},
        ...c.changed.map((x) => h("li", { class: "changed" }, x.before, " → ", x.after)),
        ...c.added.map((x) => h("li", { class: "added" }, "+ ", x)),
        ...c.removed.map((x) => h("li", { class: "removed" }, "− ", x))))),
  ];
  box.replaceChildren(...(rows.length ? [h("ul", {}, ...rows)] : []));
  box.hidden = rows.length === 0;
}

// "region=EU, segment=business" as {region: "EU", segment: "business"}; null when a
// pair is not key=value (the server checks the keys against the declared conditions).
function parseContext(text) {
  const context = {};
  for (const pair of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const at = pair.indexOf("=");
    const key = pair.slice(0, at).trim(), value = pair.slice(at + 1).trim();
    if (at < 0 || !key || !value) return null;
    context[key] = value;
  }
  return context;
}

// "region: EU; segment: business" for a document's applies_to.
function conditionsLabel(appliesTo) {
  return Object.entries(appliesTo).map(([k, v]) => `${k}: ${v.join(", ")}`).join("; ");
}

function renderResult(r, tz) {
  const status = $("status");
  status.textContent = (r.status || "").replaceAll("_", " ");
  status.className = `status status-${r.status}`;
  status.dataset.status = r.status;

  const answer = $("answer");
  answer.textContent = r.answer ?? "No answer";
  answer.lang = langOf(r.answer);
  answer.classList.toggle("none", r.answer === null || r.answer === undefined);
  renderGeneration(r.generation);
  renderBreakdown(r, tz);

  $("flags").replaceChildren(...(r.flags || []).map(flagBadge));
  if (r.uncovered) {
    const side = (t, open) => (t ? formatTime(t, tz) : open);
    $("flags").append(h("span", { class: "hint", "data-testid": "uncovered" },
      `no version of ${r.uncovered.doc_id} covers [${side(r.uncovered.start, "…")}, ${side(r.uncovered.end, "…")})`));
  }
  const asked = [
    h("span", {}, "asked at ", h("time", { datetime: r.now, title: r.now }, formatTime(r.now, tz))),
    h("span", {}, "true as of ", h("time", { datetime: r.as_of, title: r.as_of, "data-testid": "as-of-shown" }, formatTime(r.as_of, tz))),
    h("span", { class: "hint" }, `times shown in ${tz}`),
  ];
  if (r.context && Object.keys(r.context).length) {
    asked.push(h("span", { "data-testid": "asker-context" }, "asker ",
      Object.entries(r.context).map(([k, v]) => `${k}=${v}`).join(", ")));
  }
  $("asked").replaceChildren(...asked);
  renderUnderstanding(r.understanding || {}, tz);

  const evidence = r.evidence || [], upcoming = r.upcoming || [];
  $("evidence").replaceChildren(...evidence.map((item, i) => card(item, i, "evidence", tz)));
  $("evidence").append(...(evidence.length ? [] : [h("li", { class: "empty" }, "No evidence was found.")]));
  $("evidence-count").textContent = `(${evidence.length})`;
  $("upcoming").replaceChildren(...upcoming.map((item, i) => card(item, i, laterGroup(item, r.now), tz)));
  $("upcoming-count").textContent = `(${upcoming.length})`;
  $("upcoming-section").hidden = upcoming.length === 0;

  const rows = timelineRows(evidence, upcoming, r.now);
  $("timeline-box").replaceChildren(rows.length
    ? drawTimeline({ rows, asOf: r.as_of, now: r.now, constraint: r.understanding?.constraint, tz, onSelect: focusCard })
    : h("p", { class: "hint" }, "Nothing to draw."));
  $("result").hidden = false;
}

// A version valid only after the asked time is "upcoming" while it still lies ahead of
// now; once now has passed its start it is a "later" version (a question about the past).
function laterGroup(item, now) {
  const from = parseTime(item.valid_from), nowMs = parseTime(now);
  return from !== null && nowMs !== null && from <= nowMs ? "later" : "upcoming";
}

// One timeline row per document: several chunks of one document share its validity, and
// a version listed under upcoming is drawn there, not again among the evidence.
function timelineRows(evidence, upcoming, now) {
  const ahead = new Set(upcoming.map((item) => item.doc_id));
  const seen = new Set();
  const rows = [];
  const add = (item, group, id) => {
    if (seen.has(item.doc_id)) return;
    seen.add(item.doc_id);
    rows.push({ item, group, id });
  };
  evidence.forEach((item, i) => { if (!ahead.has(item.doc_id)) add(item, "evidence", `evidence-${i}`); });
  upcoming.forEach((item, i) => add(item, laterGroup(item, now), `upcoming-${i}`));
  return rows;
}

function renderUnderstanding(u, tz) {
  const c = u.constraint || {};
  const range = (s, e) => `[${s ? formatTime(s, tz) : "…"}, ${e ? formatTime(e, tz) : "…"})`;
  const rows = [
    ["content", u.content],
    ["intent", u.intent],
    ["constraint", c.relation ? `${c.order ? c.order + " / " : ""}${c.relation}${c.relation !== "none" ? " " + range(c.start, c.end) : ""}${c.confidence === "unsure" ? ` (unsure: ${(c.doubts || []).join(", ")})` : ""}` : null],
    ["time named by", u.event ? `the ${u.event.unit} of “${u.event.event}”` : null],
    ["time expressions", (u.time_expressions || []).map((t) => `“${t.text}” → ${range(t.start, t.end)} (${t.granularity})`).join("; ") || "none"],
    ["entities", (u.entities || []).map((e) => (e.id ? `${e.text} = ${e.id}` : e.text)).join(", ") || "none"],
  ];
  $("understanding-list").replaceChildren(...rows.filter(([, v]) => v !== null && v !== undefined)
    .flatMap(([k, v]) => [h("dt", {}, k), h("dd", { lang: langOf(String(v)) }, String(v))]));
}

function focusCard(id) {
  const node = $(id);
  if (!node) return;
  node.scrollIntoView({ behavior: "smooth", block: "center" });
  node.classList.remove("flash");
  void node.offsetWidth; // restart the animation
  node.classList.add("flash");
}

// The chunk text with the best sentence marked; the sentence apart when it is not in the text.
function highlighted(text, sentence) {
  const p = h("p", { class: "text", lang: langOf(text) });
  const at = sentence ? text.indexOf(sentence) : -1;
  if (at < 0) {
    p.append(text);
    if (!sentence) return [p];
    return [p, h("p", { class: "best" }, "best sentence: ", h("mark", { lang: langOf(sentence) }, sentence))];
  }
  p.append(text.slice(0, at), h("mark", {}, sentence), text.slice(at + sentence.length));
  return [p];
}

function card(item, index, group, tz) {
  const flags = item.flags || [];
  const ahead = group === "upcoming" || group === "later";
  const applicable = ahead
    ? h("span", { class: "badge upcoming", "data-testid": "validity" },
      group === "later" ? "later version" : "upcoming")
    : item.applicable
      ? h("span", { class: "badge ok", "data-testid": "validity" }, "applicable")
      : h("span", { class: "badge bad", "data-testid": "validity" }, "not applicable");
  const dates = [
    ["valid from", item.valid_from], ["valid to", item.valid_to],
    [item.superseded_by?.length ? `replaced by ${item.superseded_by.join(", ")} from` : "valid until",
      item.valid_until && item.valid_until !== item.valid_to ? item.valid_until : null],
    ["occurred", item.occurred_at], ["published", item.published_at],
  ].filter(([, v]) => v);
  const scores = Object.entries(item.scores || {});
  const score = typeof item.score === "number" ? item.score.toFixed(4) : String(item.score ?? "");
  return h("li", {
    class: `card ${ahead ? "is-upcoming" : item.applicable ? "is-applicable" : "is-inapplicable"}`,
    id: `${ahead ? "upcoming" : group}-${index}`,
    "data-testid": ahead ? "upcoming-card" : "evidence-card",
    "data-doc-id": item.doc_id, "data-applicable": String(Boolean(item.applicable)),
    "data-flags": flags.join(" "),
  },
  h("div", { class: "card-head" },
    h("span", { class: "rank" }, String(index + 1)),
    h("h3", { class: "title", lang: langOf(item.title) }, item.title || item.doc_id),
    h("span", { class: "score", title: "final score (relevance × time)", "data-testid": "score" }, `score ${score}`)),
  h("div", { class: "badges" }, applicable, ...flags.map(flagBadge)),
  h("div", { class: "meta" },
    h("code", { "data-testid": "doc-id" }, item.doc_id),
    item.source_type ? h("span", { class: "source" }, item.source_type) : null,
    item.status ? h("span", { class: `doc-status doc-status-${item.status}` }, item.status) : null,
    item.owner ? h("span", {}, `owner ${item.owner}`) : null,
    item.applies_to ? h("span", { class: "applies", "data-testid": "applies-to" },
      `for ${conditionsLabel(item.applies_to)}`) : null,
    h("span", { class: "hint", title: item.chunk_id }, `chars ${item.start}–${item.end}`)),
  dates.length
    ? h("dl", { class: "dates" }, ...dates.flatMap(([k, v]) => [
      h("dt", {}, k), h("dd", {}, h("time", { datetime: v, title: v }, formatTime(v, tz)))]))
    : h("p", { class: "dates none" }, "no dates"),
  ...highlighted(item.text || "", item.sentence),
  scores.length
    ? h("details", { class: "scores" }, h("summary", {}, "scores"),
      h("table", {}, ...scores.map(([k, v]) => h("tr", {}, h("th", {}, k),
        h("td", {}, typeof v === "number" ? v.toFixed(4) : String(v))))))
    : null);
}

function setupAsk() {
  $("tz").value = browserZone;
  const list = $("tz-list");
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  list.append(...zones.map((z) => h("option", { value: z })));
  $("ask-form").addEventListener("submit", ask);
  $("stop-button").addEventListener("click", stopWriting);
  const q = $("question");
  q.addEventListener("keydown", (e) => {
    // Enter asks; Shift+Enter is a new line; Enter that confirms an IME candidate does not ask.
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) ask(e);
  });
  q.addEventListener("input", () => { q.lang = langOf(q.value); });
}

// --- documents ---------------------------------------------------------------------------

function updateUploadNote() {
  const note = $("upload-note");
  note.hidden = !(me && !me.admin);
  note.textContent = me && !me.admin ? `The key of ${me.user} is not an admin key: the server will refuse uploads.` : "";
}

function problem(p) {
  const where = [p.file, p.line].filter((v) => v !== null && v !== undefined && v !== "").join(":");
  return [where, p.field, p.reason].filter((v) => v !== null && v !== undefined && v !== "").join(": ");
}

function count(v) {
  return Array.isArray(v) ? v.length : Number(v ?? 0);
}

async function upload(event) {
  event.preventDefault();
  const files = $("files").files;
  const report = $("upload-report"), errorBox = $("upload-error");
  report.hidden = true;
  errorBox.hidden = true;
  if (!files.length) {
    $("upload-error-message").textContent = "Choose one or more files first (.jsonl, .md, .txt, .html, .pdf, .docx).";
    $("upload-errors").replaceChildren();
    errorBox.hidden = false;
    return;
  }
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  $("upload-button").disabled = true;
  $("upload-button").textContent = "Uploading…";
  try {
    const r = await api("v1/documents", { method: "POST", form });
    const parts = [`${count(r.files)} file(s)`, `${count(r.added)} added`, `${count(r.replaced)} replaced`,
      `${count(r.unchanged)} unchanged`, `${count(r.chunks)} chunk(s) written`];
    const ids = ["added", "replaced"].flatMap((k) => (Array.isArray(r[k]) ? r[k].map((id) => `${k}: ${id}`) : []));
    report.replaceChildren(h("p", {}, parts.join(", ")),
      ...(ids.length ? [h("ul", {}, ...ids.map((t) => h("li", {}, t)))] : []));
    report.hidden = false;
    documentList.refresh();
  } catch (e) {
    $("upload-error-message").textContent = explain(e);
    $("upload-errors").replaceChildren(...e.errors.map((p) => h("li", { "data-testid": "upload-problem" }, problem(p))));
    errorBox.hidden = false;
  } finally {
    $("upload-button").disabled = false;
    $("upload-button").textContent = "Upload";
  }
}

// --- start -------------------------------------------------------------------------------

const documentList = setupDocumentList({ h, api, explain, isAdmin: () => Boolean(me?.admin) });
setupKey();
setupAsk();
$("upload-form").addEventListener("submit", upload);
window.addEventListener("hashchange", showTab);
showTab();
document.documentElement.dataset.ready = "true";
