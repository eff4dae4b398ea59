// DocumentView's view (anywidget): the kernel sends the document as HTML with every pending
// suggestion marked (<del>/<ins> with data-id); hovering a mark shows who suggested it and
// why, clicking selects it for Accept / Reject (messages to the kernel, which calls the API).

function render({ model, el }) {
  const root = h("div", "mcpw mcpw-document");
  const header = h("div", "mcpw-document-header");
  const title = h("span", "mcpw-path");
  const info = h("span", "mcpw-document-info");
  const refresh = button("Refresh", "mcpw-link", "Read the document again", () =>
    model.send({ action: "refresh" }),
  );
  header.append(title, info, refresh);
  const error = h("div", "mcpw-error");
  const bar = h("div", "mcpw-selection");
  const body = h("div", "mcpw-document-body jp-RenderedHTMLCommon");
  const unplaced = h("div", "mcpw-unplaced");
  root.append(header, error, bar, body, unplaced);
  el.append(root);

  let selected = null;
  let offset = 0;
  const markById = () => new Map(model.get("marks").map((m) => [m.id, m]));
  const age = (created) => ageText(Math.max(0, Date.now() / 1000 + offset - created));
  const describe = (m) => `${m.author} · ${m.lines} · ${age(m.created)}${m.rationale ? ` — ${m.rationale}` : ""}`;

  function actions(id) {
    const busy = model.get("busy")[id];
    const accept = button(busy === "accept" ? "Accepting…" : "Accept", "mcpw-accept", "Apply this change", () =>
      model.send({ action: "accept", id }),
    );
    const reject = button(busy === "reject" ? "Rejecting…" : "Reject", "mcpw-reject", "Discard this change", () =>
      model.send({ action: "reject", id }),
    );
    accept.disabled = reject.disabled = Boolean(busy);
    accept.classList.toggle("mcpw-busy", busy === "accept");
    reject.classList.toggle("mcpw-busy", busy === "reject");
    return [accept, reject];
  }

  function drawBody() {
    offset = model.get("clock") - Date.now() / 1000;
    body.innerHTML = model.get("html"); // markdown-it output, raw HTML escaped (see document_model.py)
    const marks = markById();
    for (const node of body.querySelectorAll("[data-id]")) {
      const m = marks.get(node.dataset.id);
      if (m) node.title = describe(m);
    }
    if (selected && !marks.has(selected)) selected = null;
    const n = marks.size;
    const u = model.get("unplaced").length;
    title.textContent = model.get("path");
    const parts = [model.get("loaded") ? `${n} suggestion${n === 1 ? "" : "s"} marked` : "Loading…"];
    if (u) parts.push(`${u} not placed`);
    info.textContent = parts.join(" · ");
    drawSelection();
    drawUnplaced();
  }

  function drawSelection() {
    for (const node of body.querySelectorAll(".mcpw-selected")) node.classList.remove("mcpw-selected");
    const m = selected && markById().get(selected);
    bar.replaceChildren();
    bar.hidden = !m;
    if (!m) return;
    for (const node of body.querySelectorAll(`[data-id="${CSS.escape(m.id)}"]`)) node.classList.add("mcpw-selected");
    const close = button("×", "mcpw-link", "Close", () => {
      selected = null;
      drawSelection();
    });
    const text = h("span", "mcpw-selection-text", describe(m));
    const message = model.get("errors")[m.id];
    bar.append(text, ...actions(m.id), close);
    if (message) bar.append(h("div", "mcpw-error", message));
  }

  function drawUnplaced() {
    const cards = model.get("unplaced");
    unplaced.replaceChildren();
    if (!cards.length) return;
    unplaced.append(h("div", "mcpw-unplaced-title", "Not shown in the text"));
    for (const card of cards) {
      const item = h("div", "mcpw-card");
      item.dataset.id = card.id;
      const head = h("div", "mcpw-card-head");
      head.append(
        h("span", "mcpw-author", card.author),
        h("span", "mcpw-lines", card.lines),
        h("span", "mcpw-age", age(card.created)),
        h("span", "mcpw-card-actions"),
      );
      head.lastChild.append(...actions(card.id));
      item.append(head, h("div", "mcpw-reason", card.why));
      if (card.rationale) item.append(h("div", "mcpw-rationale", card.rationale));
      item.append(diffNode(card.diff));
      const message = model.get("errors")[card.id];
      if (message) item.append(h("div", "mcpw-error", message));
      unplaced.append(item);
    }
  }

  function drawError() {
    error.textContent = model.get("error");
    error.hidden = !error.textContent;
  }

  body.addEventListener("click", (event) => {
    const mark = event.target.closest("[data-id]");
    selected = mark ? mark.dataset.id : null;
    drawSelection();
  });
  body.addEventListener("mouseover", (event) => {
    const mark = event.target.closest("[data-id]");
    for (const node of body.querySelectorAll(".mcpw-hover")) node.classList.remove("mcpw-hover");
    if (!mark) return;
    for (const node of body.querySelectorAll(`[data-id="${CSS.escape(mark.dataset.id)}"]`)) {
      node.classList.add("mcpw-hover");
    }
  });

  // html, marks and loaded change together: one redraw after the batch.
  let scheduled = false;
  const scheduleBody = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      drawBody();
    });
  };
  const redrawActions = () => {
    drawSelection();
    drawUnplaced();
  };
  model.on("change:html", scheduleBody);
  model.on("change:marks", scheduleBody);
  model.on("change:loaded", scheduleBody);
  model.on("change:busy", redrawActions);
  model.on("change:errors", redrawActions);
  model.on("change:error", drawError);
  drawBody();
  drawError();
  return () => {
    model.off("change:html", scheduleBody);
    model.off("change:marks", scheduleBody);
    model.off("change:loaded", scheduleBody);
    model.off("change:busy", redrawActions);
    model.off("change:errors", redrawActions);
    model.off("change:error", drawError);
  };
}

export default { render };
