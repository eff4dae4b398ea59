// The tool browser (kernel_tools/widgets/tool_form.py): the server's tools, a form generated
// from the chosen tool's schema, Call, the result, the call history and its code.
// Python does the work (coercion, validation, the call); this module shows the model and
// sends {do: "call" | "replay" | "refresh" | "answer"}.

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Select + Ctrl-C"; // no clipboard here (an insecure origin)
  }
  setTimeout(() => (button.textContent = "Copy"), 1500);
}

export async function renderToolBrowser(model, el, { h, fill, renderForm, errorSummary, renderPending }) {
  const subscriptions = [];
  const on = (names, fn) => {
    for (const name of names.split(" ")) {
      model.on(`change:${name}`, fn);
      subscriptions.push([`change:${name}`, fn]);
    }
  };
  let form = null;
  let sent = null; // the last values this view sent: their echo must not re-render the form
  let listOpen = !model.get("compact");
  const drafts = new Map();

  const search = h("input", { class: "mcpw-search", type: "search", placeholder: "Filter tools", "aria-label": "Filter tools" });
  const list = h("ul", { class: "mcpw-toollist", role: "listbox", "aria-label": "Tools" });
  const aside = h("aside", { class: "mcpw-aside" }, search, list);
  const head = h("div", { class: "mcpw-head" });
  const pending = h("div", { class: "mcpw-pending", hidden: true });
  const formBox = h("form", { class: "mcpw-form", onsubmit: (e) => { e.preventDefault(); call(); } });
  const problems = h("div");
  const callButton = h("button", { class: "mcpw-btn mcpw-primary mcpw-call", type: "button", text: "Call", onclick: () => call() });
  const status = h("span", { class: "mcpw-status", role: "status" });
  const result = h("div", { class: "mcpw-result" });
  const codeBox = h("div", { class: "mcpw-code" });
  const history = h("div", { class: "mcpw-history" });
  const notice = h("div", { class: "mcpw-alert mcpw-alert-error", hidden: true });
  const actions = h("div", { class: "mcpw-actions" }, callButton, status);
  const main = h("div", { class: "mcpw-main" }, head, pending, formBox, problems, actions, result, codeBox, history, notice);
  const root = h("div", { class: "mcpw mcpw-tools" }, aside, main);
  fill(el, root);

  // The values travel inside the call message: ipywidgets holds back a state update while an
  // earlier one is unanswered, but sends a custom message at once, so "call" could overtake them.
  function call() {
    if (!form) return model.send({ do: "call" });
    const values = form.get();
    sent = JSON.stringify(values);
    model.set("values", values);
    model.save_changes();
    model.send({ do: "call", values });
  }

  const tool = () => model.get("tools").find((t) => t.name === model.get("selected"));

  // Choosing a tool starts its form here at once (with the values Python would give it), so
  // what the person types next is not overwritten by a late answer from the kernel.
  function choose(name) {
    const chosen = model.get("tools").find((t) => t.name === name);
    const start = chosen && chosen.spec.start !== undefined ? chosen.spec.start : {};
    sent = JSON.stringify(start);
    model.set("values", start);
    model.set("selected", name);
    model.save_changes();
  }
  const badges = (t) => t.badges.map((b) => h("span", { class: `mcpw-badge mcpw-tone-${b.tone}`, text: b.label }));

  function renderList() {
    root.classList.toggle("mcpw-list-closed", !listOpen);
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = model.get("tools").filter((t) => words.every((w) => `${t.name} ${t.title} ${t.description}`.toLowerCase().includes(w)));
    fill(list, 
      ...shown.map((t) =>
        h(
          "li",
          {
            class: `mcpw-toolitem${t.name === model.get("selected") ? " mcpw-selected" : ""}`,
            role: "option",
            tabindex: "0",
            "aria-selected": t.name === model.get("selected") ? "true" : "false",
            "data-tool": t.name,
            onclick: () => choose(t.name),
            onkeydown: (e) => { if (e.key === "Enter") choose(t.name); },
          },
          h("div", { class: "mcpw-toolname" }, h("b", { text: t.name }), t.title && t.title !== t.name ? h("span", { class: "mcpw-hint", text: t.title }) : null),
          h("div", { class: "mcpw-badges" }, badges(t)),
          h("div", { class: "mcpw-summary", text: t.summary }),
        ),
      ),
    );
    if (!shown.length) list.append(h("li", { class: "mcpw-empty", text: "No tool matches." }));
  }

  function renderHead() {
    const t = tool();
    actions.hidden = codeBox.hidden = !t;
    const toggle = h("button", { class: "mcpw-btn mcpw-link", type: "button", text: listOpen ? "◂ Hide tools" : "All tools ▸", onclick: () => { listOpen = !listOpen; renderList(); renderHead(); } });
    if (!t) {
      fill(head, h("div", { class: "mcpw-title" }, toggle), h("div", { class: "mcpw-help", text: `${model.get("tools").length} tools: choose one.` }));
      fill(formBox);
      form = null;
      return;
    }
    const rest = t.description.slice(t.summary.length).trim();
    fill(head, 
      h("div", { class: "mcpw-title" }, h("b", { class: "mcpw-toolname", text: t.name }), t.title && t.title !== t.name ? h("span", { class: "mcpw-hint", text: t.title }) : null, badges(t), h("span", { class: "mcpw-spacer" }), toggle),
      rest ? h("details", { class: "mcpw-desc" }, h("summary", { text: t.summary }), h("div", { text: rest })) : h("div", { class: "mcpw-desc", text: t.summary }),
      t.problem ? h("div", { class: "mcpw-alert", text: t.problem }) : null,
    );
  }

  function renderFormBox() {
    const t = tool();
    if (!t) return;
    form = renderForm(formBox, t.spec, model.get("values"), {
      errors: model.get("errors"),
      onChange: (v) => {
        sent = JSON.stringify(v);
        model.set("values", v);
        model.save_changes();
      },
    });
    fill(problems, errorSummary(model.get("errors")) || "");
  }

  function renderStatus() {
    const s = model.get("status");
    const p = model.get("progress") || {};
    callButton.disabled = s === "running";
    let text = "";
    if (s === "running") {
      text = "Running…";
      if (p.progress !== undefined) text += p.total ? ` ${p.progress}/${p.total}` : ` ${p.progress}`;
      if (p.message) text += ` ${p.message}`;
    } else if (model.get("loading")) text = "Loading tools…";
    status.textContent = text;
    status.className = `mcpw-status${text ? " mcpw-busy" : ""}`;
    const n = model.get("notice");
    notice.hidden = !n;
    notice.textContent = n;
  }

  function renderResult() {
    const r = model.get("result");
    if (!r || !r.tool) return fill(result);
    const head = h(
      "div",
      { class: `mcpw-result-head ${r.ok ? "mcpw-ok" : "mcpw-failed"}` },
      h("b", { text: r.ok ? "✓ Result" : "✗ Error" }),
      r.ok ? null : h("code", { class: "mcpw-errcode", text: r.code }),
      r.ok ? null : h("span", { class: "mcpw-errmsg", text: r.message }),
      h("span", { class: "mcpw-hint", text: `${r.tool} · ${Math.round(r.elapsed * 1000)} ms` }),
    );
    fill(result, head, r.html ? h("div", { class: "mcpw-result-body", html: r.html }) : "");
  }

  function codeLine(text) {
    const button = h("button", { class: "mcpw-btn mcpw-copy", type: "button", text: "Copy", onclick: () => copy(text, button) });
    return h("div", { class: "mcpw-codeline" }, h("pre", { class: "mcpw-mono", text }), button);
  }

  function renderCode() {
    const code = model.get("code");
    fill(codeBox, ...(code ? [h("div", { class: "mcpw-hint", text: "As code" }), codeLine(code)] : []));
  }

  function renderHistory() {
    const entries = model.get("history");
    if (!entries.length) return fill(history);
    fill(history, 
      h(
        "details",
        { open: true },
        h("summary", { text: `History (${entries.length})` }),
        entries.map((e) =>
          h(
            "div",
            { class: `mcpw-entry ${e.ok ? "mcpw-ok" : "mcpw-failed"}`, "data-entry": e.id },
            h("div", { class: "mcpw-entry-head" },
              h("span", { text: e.ok ? "✓" : "✗" }),
              h("b", { text: e.tool }),
              e.ok ? null : h("code", { class: "mcpw-errcode", text: e.code }),
              h("span", { class: "mcpw-hint", text: `${new Date(e.time * 1000).toLocaleTimeString()} · ${Math.round(e.elapsed * 1000)} ms` }),
              h("span", { class: "mcpw-spacer" }),
              h("button", { class: "mcpw-btn", type: "button", text: "Replay", title: "Fill the form with these arguments and call again", onclick: () => model.send({ do: "replay", id: e.id }) }),
            ),
            codeLine(e.python),
          ),
        ),
      ),
    );
  }

  function renderRequests() {
    renderPending(pending, model.get("pending"), {
      errors: model.get("pending_errors"),
      drafts,
      onAnswer: (id, action, values) => model.send({ do: "answer", id, action, values }),
    });
  }

  search.addEventListener("input", renderList);
  on("tools", () => { renderList(); renderHead(); renderFormBox(); });
  on("selected", () => { renderList(); renderHead(); renderFormBox(); });
  on("values", () => { if (JSON.stringify(model.get("values")) !== sent) renderFormBox(); });
  on("errors", renderFormBox);
  on("status progress notice loading", renderStatus);
  on("result", renderResult);
  on("code", renderCode);
  on("history", renderHistory);
  on("pending pending_errors", renderRequests);
  renderList();
  renderHead();
  renderFormBox();
  renderStatus();
  renderResult();
  renderCode();
  renderHistory();
  renderRequests();
  return () => subscriptions.forEach(([name, fn]) => model.off(name, fn));
}

export default {
  async render({ model, el }) {
    const lib = await load(model.get("_form_js"));
    return renderToolBrowser(model, el, lib);
  },
};
