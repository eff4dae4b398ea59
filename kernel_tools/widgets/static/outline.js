// OutlineView's view (anywidget): the kernel's `nodes` (outline_model.tree: rows in document
// order with their pending suggestions) as an ARIA tree. Expanding, collapsing and the search
// box set `collapsed` and `query` (the kernel answers `matches` and `shown`); Accept and Reject
// go to the kernel as messages ({action, id?}), which calls the REST API and sends back
// `busy`, `errors` and new `nodes`. Keyboard: arrows move and open/close, Home/End, Enter
// toggles, "a"/"r" accept/reject the current row's first suggestion. A change redraws only the
// rows it changes (keyed.js): a fold on 5,000 rows is one row drawn again, not 5,000.

const STATE_GLYPH = { checked: "☑", unchecked: "☐", mixed: "◩" };
const STATUS_WORD = {
  added: "added",
  changed: "changed",
  moved: "moved away",
  "moved-here": "moved here",
  deleted: "deleted",
};

function render({ model, el }) {
  const root = h("div", "mcpw mcpw-outline");
  const header = h("div", "mcpw-outline-header");
  const title = h("span", "mcpw-outline-title");
  const numbers = h("span", "mcpw-outline-counts");
  const search = h("input", "mcpw-outline-search");
  search.type = "search";
  search.placeholder = "Search rows and notes";
  search.setAttribute("aria-label", "Search the outline");
  const tools = h("span", "mcpw-outline-tools");
  const listError = h("div", "mcpw-error mcpw-list-error");
  const body = h("div", "mcpw-outline-tree");
  body.setAttribute("role", "tree");
  body.tabIndex = 0;
  // Its keys are the tree's: JupyterLab's notebook shortcuts ("a" inserts a cell) stay out.
  body.dataset.lmSuppressShortcuts = "true";
  const rowsBox = h("div", "mcpw-outline-rows");
  rowsBox.setAttribute("role", "none");
  const empty = h("div", "mcpw-empty");
  body.append(rowsBox);
  header.append(title, numbers, search, tools);
  root.append(header, listError, body);
  el.append(root);

  const send = (action, extra) => model.send({ action, ...extra });
  let current = null; // the row the keyboard is on
  let visible = []; // ids in the order drawn
  const uid = Math.random().toString(36).slice(2); // row element ids, for aria-activedescendant
  const elementIds = new Map(); // row id → its element's id (the same across redraws)
  const rows = keyedRows(rowsBox, "mcpw-outline-chunk");
  const texts = new WeakMap(); // a node (as the kernel sent it) → what it draws, as a string
  let lit = null; // the element marked current

  const setCollapsed = (ids) => {
    model.set("collapsed", ids);
    model.save_changes();
  };
  const acceptAll = button("Accept all", "mcpw-accept", "Accept every suggestion shown in the tree", () =>
    send("accept_all"),
  );
  const rejectAll = button("Reject all", "mcpw-reject", "Reject every suggestion shown in the tree", () =>
    send("reject_all"),
  );
  tools.append(
    button("Expand all", "mcpw-link", "Show every row", () => setCollapsed([])),
    button("Collapse all", "mcpw-link", "Show the top rows only", () =>
      setCollapsed(model.get("nodes").filter((n) => n.children.length).map((n) => n.id)),
    ),
    button("Refresh", "mcpw-link", "Read the outline again", () => send("refresh")),
    acceptAll,
    rejectAll,
  );

  let typing = null;
  search.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      model.set("query", search.value);
      model.save_changes();
    }, 150);
  });

  function toggle(id) {
    const collapsed = model.get("collapsed");
    setCollapsed(collapsed.includes(id) ? collapsed.filter((c) => c !== id) : [...collapsed, id]);
  }

  function markNode(mark, busy, errors) {
    const box = h("div", "mcpw-mark");
    box.dataset.id = mark.id;
    box.dataset.status = mark.status;
    const head = h("div", "mcpw-mark-head");
    head.append(h("span", "mcpw-author", mark.author));
    for (const text of mark.changes) head.append(h("span", "mcpw-part-change", text));
    const actions = h("span", "mcpw-card-actions");
    const verb = busy[mark.id] || (busy.all ? "all" : null);
    const accept = button("Accept", "mcpw-accept", "Apply this change to the outline", () =>
      send("accept", { id: mark.id }),
    );
    const reject = button("Reject", "mcpw-reject", "Discard this change", () => send("reject", { id: mark.id }));
    accept.disabled = reject.disabled = Boolean(verb);
    if (verb === "accept") accept.textContent = "Accepting…";
    if (verb === "reject") reject.textContent = "Rejecting…";
    actions.append(accept, reject);
    head.append(actions);
    box.append(head);
    if (mark.rationale) box.append(h("div", "mcpw-rationale", mark.rationale));
    if (mark.diff) box.append(diffNode(mark.diff));
    if (errors[mark.id]) box.append(h("div", "mcpw-error", errors[mark.id]));
    return box;
  }

  function elementId(id) {
    if (!elementIds.has(id)) elementIds.set(id, `mcpw-outline-${uid}-${elementIds.size}`);
    return elementIds.get(id);
  }

  // What a row draws: the node's parts rowNode reads (not its children's ids or parent), folded,
  // matched, its suggestions' busy and error states.
  function signature(node, collapsed, matches, busy, errors) {
    if (!texts.has(node)) {
      const marks = node.marks.length ? JSON.stringify(node.marks) : "";
      const parts = [node.level, node.children.length, node.state, node.status, node.topic, node.note, marks];
      texts.set(node, parts.join("\u0001"));
    }
    const marks = node.marks.map((m) => `${busy[m.id] || ""}:${errors[m.id] || ""}`).join(",");
    return `${collapsed.has(node.id) ? 1 : 0}${matches.has(node.id) ? 1 : 0}${busy.all || ""}|${marks}|${texts.get(node)}`;
  }

  function rowNode(node, collapsed, matches, busy, errors) {
    const row = h("div", "mcpw-row");
    row.id = elementId(node.id);
    row.dataset.id = node.id;
    if (node.status) row.dataset.status = node.status;
    row.setAttribute("role", "treeitem");
    row.setAttribute("aria-level", String(node.level + 1));
    row.style.paddingLeft = `${node.level * 18 + 4}px`;
    const line = h("div", "mcpw-row-line");
    const twisty = h("span", "mcpw-twisty", node.children.length ? (collapsed.has(node.id) ? "▸" : "▾") : "");
    if (node.children.length) {
      row.setAttribute("aria-expanded", String(!collapsed.has(node.id)));
      twisty.addEventListener("click", (event) => {
        event.stopPropagation();
        toggle(node.id);
      });
    }
    line.append(twisty);
    if (node.state !== "none") {
      const box = h("span", "mcpw-check", STATE_GLYPH[node.state] || "");
      box.dataset.state = node.state;
      box.title = node.state;
      line.append(box);
    }
    line.append(h("span", "mcpw-topic", node.topic || " "));
    if (node.status) line.append(h("span", "mcpw-status", STATUS_WORD[node.status] || node.status));
    row.append(line);
    if (node.note) row.append(h("div", "mcpw-note", node.note));
    for (const mark of node.marks) row.append(markNode(mark, busy, errors));
    row.classList.toggle("mcpw-match", matches.has(node.id));
    row.setAttribute("aria-selected", "false"); // highlight() marks the current row
    row.addEventListener("click", () => focusRow(node.id));
    return row;
  }

  function draw() {
    const nodes = model.get("nodes");
    const collapsed = new Set(model.get("collapsed"));
    const query = model.get("query");
    const matches = new Set(model.get("matches"));
    const shown = new Set(model.get("shown"));
    const busy = model.get("busy");
    const errors = model.get("errors");
    const n = model.get("counts");
    title.textContent = model.get("path");
    const parts = [`${n.rows ?? 0} rows`, `${n.pending ?? 0} pending`];
    for (const s of ["added", "changed", "moved", "deleted"]) if (n[s]) parts.push(`${n[s]} ${s}`);
    if (query) parts.push(`${matches.size} match${matches.size === 1 ? "" : "es"}`);
    numbers.textContent = model.get("loaded") ? parts.join(" · ") : "Loading…";
    acceptAll.hidden = rejectAll.hidden = !n.pending;
    acceptAll.disabled = rejectAll.disabled = Boolean(busy.all);
    if (search.value !== query && document.activeElement !== search) search.value = query;

    const hidden = new Set(); // rows below a collapsed one
    const shownRows = [];
    visible = [];
    for (const node of nodes) {
      const under = node.parent !== null && (hidden.has(node.parent) || collapsed.has(node.parent));
      if (under) hidden.add(node.id);
      if (query ? !shown.has(node.id) : under) continue;
      visible.push(node.id);
      shownRows.push({
        key: node.id,
        sig: signature(node, collapsed, matches, busy, errors),
        make: () => rowNode(node, collapsed, matches, busy, errors),
      });
    }
    if (!visible.includes(current)) current = visible[0] ?? null;
    rows.update(shownRows);
    if (!shownRows.length) {
      empty.textContent = model.get("loaded") ? (query ? "No row matches." : "No rows.") : "Loading…";
      body.append(empty);
    } else empty.remove();
    listError.textContent = errors[""] || errors.all || "";
    listError.hidden = !listError.textContent;
    highlight();
  }

  function highlight() {
    const row = (current !== null && rows.item(current)) || null;
    if (lit && lit !== row) {
      lit.classList.remove("mcpw-current");
      lit.setAttribute("aria-selected", "false");
    }
    lit = row;
    if (row) {
      row.classList.add("mcpw-current");
      row.setAttribute("aria-selected", "true");
      body.setAttribute("aria-activedescendant", row.id);
    } else body.removeAttribute("aria-activedescendant");
  }

  function focusRow(id) {
    current = id;
    highlight();
    if (lit) lit.scrollIntoView({ block: "nearest" });
  }

  body.addEventListener("keydown", (event) => {
    if (event.target !== body || !visible.length) return;
    const nodes = new Map(model.get("nodes").map((n) => [n.id, n]));
    const at = Math.max(visible.indexOf(current), 0);
    const node = nodes.get(visible[at]);
    const collapsed = model.get("collapsed");
    let handled = true;
    if (event.key === "ArrowDown") focusRow(visible[Math.min(at + 1, visible.length - 1)]);
    else if (event.key === "ArrowUp") focusRow(visible[Math.max(at - 1, 0)]);
    else if (event.key === "Home") focusRow(visible[0]);
    else if (event.key === "End") focusRow(visible[visible.length - 1]);
    else if (event.key === "ArrowRight") {
      if (node.children.length && collapsed.includes(node.id)) toggle(node.id);
      else if (node.children.length) focusRow(node.children[0]);
    } else if (event.key === "ArrowLeft") {
      if (node.children.length && !collapsed.includes(node.id)) toggle(node.id);
      else if (node.parent !== null) focusRow(node.parent);
    } else if (event.key === "Enter" || event.key === " ") {
      if (node.children.length) toggle(node.id);
    } else if ((event.key === "a" || event.key === "r") && node.marks.length) {
      send(event.key === "a" ? "accept" : "reject", { id: node.marks[0].id });
    } else handled = false;
    if (handled) event.preventDefault();
  });

  const names = ["nodes", "collapsed", "matches", "shown", "busy", "errors", "loaded", "counts"];
  for (const name of names) model.on(`change:${name}`, draw);
  draw();
  return () => {
    clearTimeout(typing);
    for (const name of names) model.off(`change:${name}`, draw);
  };
}

export default { render };
