// SuggestionReview's view (anywidget): diff cards from the kernel's `cards`, grouped by
// document; clicks go to the kernel as messages ({action, id?, path?}), which does the REST
// calls and sends back `busy`, `errors` and new `cards`. Cards are kept by id and redrawn
// only when their data changed, so hundreds of them stay cheap to update.

const AGE_TICK_MS = 30_000;

function setBusy(b, busy, busyLabel, label) {
  b.textContent = busy ? busyLabel : label;
  b.classList.toggle("mcpw-busy", busy); // common.css: a spinner before the label
}

function unifiedNode(text) {
  const pre = h("pre", "mcpw-unified");
  for (const line of text.split("\n")) {
    let cls = "mcpw-uctx";
    if (line.startsWith("+++") || line.startsWith("---")) cls = "mcpw-ufile";
    else if (line.startsWith("@@")) cls = "mcpw-uhunk";
    else if (line.startsWith("+")) cls = "mcpw-uadd";
    else if (line.startsWith("-")) cls = "mcpw-udel";
    pre.append(h("div", cls, line || " "));
  }
  return pre;
}

// What happens to a notebook cell or an outline row, in words the kernel wrote (cell_changes.py).
function partNode(part) {
  const box = h("div", "mcpw-part");
  box.dataset.part = part.id;
  box.dataset.op = part.op;
  for (const text of part.changes) box.append(h("span", "mcpw-part-change", text));
  return box;
}

function render({ model, el }) {
  const root = h("div", "mcpw mcpw-review");
  const header = h("div", "mcpw-review-header");
  const title = h("span", "mcpw-review-title");
  const numbers = h("span", "mcpw-review-counts");
  const tools = h("span", "mcpw-review-tools");
  const listError = h("div", "mcpw-error mcpw-list-error");
  const conflicts = h("div", "mcpw-conflicts");
  const list = h("div", "mcpw-review-list");
  const empty = h("div", "mcpw-empty");
  header.append(title, numbers, tools);
  root.append(header, listError, conflicts, empty, list);
  el.append(root);

  const send = (action, extra) => model.send({ action, ...extra });
  const cache = new Map(); // id -> {key, node}
  const groups = new Map(); // path -> {node, head, body, count, accept, reject}
  const opened = new Set(); // ids whose unified diff is shown
  let offset = 0; // kernel clock - browser clock, seconds

  const refresh = button("Refresh", "mcpw-link", "Fetch the pending suggestions again", () => send("refresh"));
  const acceptAll = button("Accept all", "mcpw-accept", "", () => send("accept_all", { path: model.get("path") }));
  const rejectAll = button("Reject all", "mcpw-reject", "", () => send("reject_all", { path: model.get("path") }));
  tools.append(refresh, acceptAll, rejectAll);

  function age(created) {
    return ageText(Math.max(0, Date.now() / 1000 + offset - created));
  }

  function cardNode(card) {
    const node = h("div", "mcpw-card");
    node.dataset.id = card.id;
    node.dataset.status = card.status;
    node.dataset.path = card.path;
    const head = h("div", "mcpw-card-head");
    const who = h("span", "mcpw-author", card.author);
    const where = h("span", "mcpw-lines", card.lines);
    const when = h("span", "mcpw-age", age(card.created));
    when.dataset.created = String(card.created);
    when.title = new Date(card.created * 1000).toLocaleString();
    const actions = h("span", "mcpw-card-actions");
    if (card.status === "conflict") {
      actions.append(button("Dismiss", "mcpw-link", "Hide this conflict", () => send("dismiss", { id: card.id })));
    } else {
      // A cell moved or its fields set changes no text: no unified diff to show.
      if (!card.part || card.diff.length) {
        actions.append(
          button("Diff", "mcpw-link mcpw-diff-toggle", "Show the change with its context", () => toggleDiff(card.id)),
        );
      }
      actions.append(
        button("Accept", "mcpw-accept", "Apply this change to the document", () => send("accept", { id: card.id })),
        button("Reject", "mcpw-reject", "Discard this change", () => send("reject", { id: card.id })),
      );
    }
    head.append(who, where, when, actions);
    node.append(head);
    if (card.status === "conflict") {
      node.append(h("div", "mcpw-reason", `Conflict: ${card.reason}`));
    }
    if (card.rationale) node.append(h("div", "mcpw-rationale", card.rationale));
    if (card.part) node.append(partNode(card.part));
    if (!card.part || card.diff.length) node.append(diffNode(card.diff));
    node.append(h("div", "mcpw-error mcpw-card-error"));
    return node;
  }

  function toggleDiff(id) {
    if (opened.has(id)) {
      opened.delete(id);
    } else {
      opened.add(id);
      if (!(id in model.get("diffs"))) send("diff", { id });
    }
    drawDiffs();
  }

  function drawDiffs() {
    const diffs = model.get("diffs");
    for (const [id, entry] of cache) {
      const old = entry.node.querySelector(":scope > .mcpw-unified, :scope > .mcpw-loading");
      if (old) old.remove();
      const toggle = entry.node.querySelector(".mcpw-diff-toggle");
      if (toggle) toggle.classList.toggle("mcpw-pressed", opened.has(id));
      if (!opened.has(id)) continue;
      entry.node.append(id in diffs ? unifiedNode(diffs[id]) : h("div", "mcpw-loading", "Loading the diff…"));
    }
  }

  function groupFor(path, showPath) {
    let group = groups.get(path);
    if (!group) {
      const node = h("div", "mcpw-doc");
      node.dataset.path = path;
      const head = h("div", "mcpw-doc-head");
      const name = h("span", "mcpw-path", path);
      const count = h("span", "mcpw-doc-count");
      const actions = h("span", "mcpw-card-actions");
      const accept = button("Accept all", "mcpw-accept", `Accept every suggestion shown for ${path}`, () =>
        send("accept_all", { path }),
      );
      const reject = button("Reject all", "mcpw-reject", `Reject every suggestion shown for ${path}`, () =>
        send("reject_all", { path }),
      );
      actions.append(accept, reject);
      const error = h("div", "mcpw-error mcpw-doc-error");
      head.append(name, count, actions);
      const body = h("div", "mcpw-doc-body");
      node.append(head, error, body);
      group = { node, head, body, count, accept, reject, error };
      groups.set(path, group);
    }
    group.head.hidden = !showPath;
    return group;
  }

  function draw() {
    offset = model.get("clock") - Date.now() / 1000;
    const cards = model.get("cards");
    const path = model.get("path");
    const n = model.get("counts");
    title.textContent = path ? `Suggestions for ${path}` : "Suggestions";
    const parts = [`${n.pending ?? 0} pending`];
    if (!path) parts.push(`${n.documents ?? 0} document${n.documents === 1 ? "" : "s"}`);
    if (n.conflict) parts.push(`${n.conflict} conflict${n.conflict === 1 ? "" : "s"}`);
    if ((n.total ?? 0) > (n.pending ?? 0)) parts.push(`${n.total} on the server (the first ${n.pending} shown)`);
    numbers.textContent = parts.join(" · ");
    acceptAll.hidden = rejectAll.hidden = !path || !n.pending;
    acceptAll.title = `Accept every suggestion shown for ${path}`;
    rejectAll.title = `Reject every suggestion shown for ${path}`;

    const seen = new Set();
    const conflictNodes = [];
    const byPath = new Map();
    for (const card of cards) {
      seen.add(card.id);
      const key = JSON.stringify(card);
      let entry = cache.get(card.id);
      if (!entry || entry.key !== key) {
        entry = { key, node: cardNode(card) };
        cache.set(card.id, entry);
      }
      if (card.status === "conflict") {
        conflictNodes.push(entry.node);
      } else {
        if (!byPath.has(card.path)) byPath.set(card.path, []);
        byPath.get(card.path).push(entry.node);
      }
    }
    for (const id of [...cache.keys()]) {
      if (!seen.has(id)) {
        cache.get(id).node.remove();
        cache.delete(id);
        opened.delete(id);
      }
    }
    conflicts.replaceChildren(...conflictNodes);
    const docNodes = [];
    for (const [docPath, nodes] of byPath) {
      const group = groupFor(docPath, !path);
      group.count.textContent = `${nodes.length}`;
      group.body.replaceChildren(...nodes);
      docNodes.push(group.node);
    }
    for (const docPath of [...groups.keys()]) {
      if (!byPath.has(docPath)) groups.delete(docPath);
    }
    list.replaceChildren(...docNodes);
    empty.textContent = model.get("loaded") ? "No suggestions are waiting for review." : "Loading…";
    empty.hidden = cards.length > 0;
    drawDiffs();
    drawBusy();
    drawErrors();
  }

  function drawBusy() {
    const busy = model.get("busy");
    for (const [id, entry] of cache) {
      const docBusy = `path:${entry.node.dataset.path}` in busy || `path:` in busy;
      const verb = busy[id] || (docBusy ? "all" : null);
      entry.node.classList.toggle("mcpw-card-busy", Boolean(verb));
      for (const b of entry.node.querySelectorAll("button")) b.disabled = Boolean(verb);
      const accept = entry.node.querySelector(".mcpw-accept");
      if (accept) setBusy(accept, busy[id] === "accept", "Accepting…", "Accept");
      const reject = entry.node.querySelector(".mcpw-reject");
      if (reject) setBusy(reject, busy[id] === "reject", "Rejecting…", "Reject");
    }
    for (const [docPath, group] of groups) {
      const verb = busy[`path:${docPath}`];
      group.accept.disabled = group.reject.disabled = Boolean(verb);
      setBusy(group.accept, verb === "accept", "Accepting…", "Accept all");
      setBusy(group.reject, verb === "reject", "Rejecting…", "Reject all");
    }
    const own = busy[`path:${model.get("path") || ""}`];
    acceptAll.disabled = rejectAll.disabled = Boolean(own);
    setBusy(acceptAll, own === "accept", "Accepting…", "Accept all");
    setBusy(rejectAll, own === "reject", "Rejecting…", "Reject all");
  }

  function drawErrors() {
    const errors = model.get("errors");
    listError.textContent = errors[""] || errors[`path:${model.get("path") || ""}`] || "";
    listError.hidden = !listError.textContent;
    for (const [id, entry] of cache) {
      const box = entry.node.querySelector(".mcpw-card-error");
      box.textContent = errors[id] || "";
      box.hidden = !errors[id];
    }
    for (const [docPath, group] of groups) {
      group.error.textContent = errors[`path:${docPath}`] || "";
      group.error.hidden = !group.error.textContent;
    }
  }

  function tickAges() {
    for (const node of root.querySelectorAll(".mcpw-age")) {
      node.textContent = age(Number(node.dataset.created));
    }
  }

  model.on("change:cards", draw);
  model.on("change:loaded", draw);
  model.on("change:busy", drawBusy);
  model.on("change:errors", drawErrors);
  model.on("change:diffs", drawDiffs);
  const timer = setInterval(tickAges, AGE_TICK_MS);
  draw();
  return () => {
    clearInterval(timer);
    model.off("change:cards", draw);
    model.off("change:loaded", draw);
    model.off("change:busy", drawBusy);
    model.off("change:errors", drawErrors);
    model.off("change:diffs", drawDiffs);
  };
}

export default { render };
