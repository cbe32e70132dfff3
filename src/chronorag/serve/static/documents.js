// The stored documents on the Documents tab: a list (GET /v1/documents) and, with an admin
// key, a Delete button per document that asks before it deletes (DELETE /v1/documents/{id}).
// Every piece of server text goes through textContent (via h), never innerHTML.

function validity(row) {
  if (!row.valid_from && !row.valid_to) return "no validity dates";
  const day = (v) => (v ? v.slice(0, 10) : null);
  return `${day(row.valid_from) ?? "…"} → ${day(row.valid_to) ?? "open"}`;
}

// deps: { h, api, explain, isAdmin } from app.js.
export function setupDocumentList({ h, api, explain, isAdmin }) {
  const $ = (id) => document.getElementById(id);
  const list = $("doc-list"), status = $("doc-status");
  let seq = 0;

  function say(text, tone = "") {
    status.textContent = text;
    status.className = `note ${tone}`.trim();
    status.hidden = !text;
  }

  function row(r) {
    const del = h("button", { type: "button", class: "quiet danger", "data-testid": "doc-delete",
      disabled: !isAdmin(), title: isAdmin() ? null : "deleting needs an admin key" }, "Delete");
    del.addEventListener("click", () => remove(r.id));
    return h("tr", { "data-testid": "doc-row", "data-doc-id": r.id },
      h("td", { class: "mono" }, r.id),
      h("td", {}, r.title || "—"),
      h("td", {}, validity(r)),
      h("td", {}, r.status || "—"),
      h("td", { class: "mono" }, (r.supersedes || []).join(", ") || "—"),
      h("td", { class: "num" }, String(r.chunks)),
      h("td", { class: "mono source" }, r.source || "—"),
      h("td", {}, del));
  }

  async function refresh() {
    const mine = ++seq;
    try {
      const data = await api("v1/documents");
      if (mine !== seq) return;
      const rows = data.documents || [];
      list.replaceChildren(...rows.map(row));
      $("doc-count").textContent = `(${rows.length})`;
      if (!rows.length) say("No documents yet: upload some above.");
      else if (status.dataset.keep !== "1") say("");
      status.dataset.keep = "";
    } catch (e) {
      if (mine !== seq) return;
      list.replaceChildren();
      $("doc-count").textContent = "";
      say(explain(e), "bad");
    }
  }

  async function remove(id) {
    if (!window.confirm(`Delete the document ${id} with its chunks and vectors? This cannot be undone.`)) return;
    try {
      const r = await api(`v1/documents/${encodeURIComponent(id)}`, { method: "DELETE" });
      say(`Deleted ${(r.deleted || [id]).join(", ")}.`, "good");
      status.dataset.keep = "1";
    } catch (e) {
      say(explain(e), "bad");
      status.dataset.keep = "1";
    }
    await refresh();
  }

  $("doc-refresh").addEventListener("click", refresh);
  return { refresh };
}
