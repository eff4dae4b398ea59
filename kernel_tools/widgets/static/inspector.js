// The MCP inspector (kernel_tools/widgets/inspector.py): server info, the server's pending
// requests, and tabs for Tools (the tool browser's own view code, on its own model), Resources,
// Prompts, Ping and the Log. Python does the work; this module shows the model and sends
// {do: "read" | "read_template" | "get_prompt" | "ping" | "answer" | "refresh" | "clear_log"}.

const TABS = [["tools", "Tools"], ["resources", "Resources"], ["prompts", "Prompts"], ["ping", "Ping"], ["log", "Log"]];

function size(n) {
  if (n === null || n === undefined) return "";
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
}

async function render({ model, el }) {
  const lib = await load(model.get("_form_js"));
  const { h, fill, renderForm, errorSummary, renderPending } = lib;
  const cleanups = [];
  const on = (names, fn) => {
    for (const name of names.split(" ")) {
      model.on(`change:${name}`, fn);
      cleanups.push(() => model.off(`change:${name}`, fn));
    }
  };
  const drafts = new Map(); // what the person typed into request forms
  const formValues = new Map(); // and into template / prompt forms

  const header = h("div", { class: "mcpw-server" });
  const pending = h("div", { class: "mcpw-pending", hidden: true });
  const tabbar = h("div", { class: "mcpw-tabs", role: "tablist" });
  const panes = Object.fromEntries(TABS.map(([key]) => [key, h("div", { class: `mcpw-pane mcpw-pane-${key}`, role: "tabpanel", "data-pane": key })]));
  const root = h("div", { class: "mcpw mcpw-inspector" }, header, pending, tabbar, ...Object.values(panes));
  fill(el, root);

  function renderHeader() {
    const s = model.get("server");
    const caps = Object.keys(s.capabilities || {}).filter((k) => s.capabilities[k] !== null);
    fill(header, 
      h(
        "div",
        { class: "mcpw-title" },
        h("b", { class: "mcpw-servername", text: s.title || s.name || "MCP server" }),
        s.version ? h("span", { class: "mcpw-hint", text: `v${s.version}` }) : null,
        s.protocol ? h("span", { class: "mcpw-hint", text: `protocol ${s.protocol}` }) : null,
        h("span", { class: "mcpw-spacer" }),
        h("button", { class: "mcpw-btn", type: "button", text: "Refresh", onclick: () => model.send({ do: "refresh" }) }),
      ),
      h("div", { class: "mcpw-meta" },
        h("span", { class: "mcpw-hint", text: s.target }),
        h("span", { class: "mcpw-caps" }, caps.map((c) => h("span", { class: "mcpw-badge mcpw-tone-info", title: JSON.stringify(s.capabilities[c]), text: c }))),
      ),
      s.instructions ? h("details", { class: "mcpw-desc" }, h("summary", { text: "Instructions" }), h("div", { text: s.instructions })) : null,
      h("div", { class: "mcpw-roots" }, h("span", { class: "mcpw-hint", text: "Roots offered:" }), (s.roots || []).map((r) => h("code", { text: r }))),
    );
  }

  function renderTabs() {
    const tab = model.get("tab");
    const counts = { resources: model.get("resources").length + model.get("templates").length, prompts: model.get("prompts").length, log: model.get("log").length };
    fill(tabbar, 
      ...TABS.map(([key, text]) =>
        h("button", {
          class: `mcpw-tab${key === tab ? " mcpw-active" : ""}`,
          role: "tab",
          "aria-selected": key === tab ? "true" : "false",
          "data-tab": key,
          onclick: () => { model.set("tab", key); model.save_changes(); },
        }, text, counts[key] ? h("span", { class: "mcpw-count", text: String(counts[key]) }) : null),
      ),
    );
    for (const [key, pane] of Object.entries(panes)) pane.hidden = key !== tab;
  }

  const problem = (section) => {
    const p = model.get("problems")[section];
    return p ? h("div", { class: "mcpw-alert mcpw-alert-error", text: p }) : null;
  };
  const busy = (section) => (model.get("busy").includes(section) ? h("span", { class: "mcpw-status mcpw-busy", text: "Loading…" }) : null);

  function filledForm(key, spec, values, button, send) {
    const box = h("div", { class: "mcpw-form" });
    if (!formValues.has(key)) formValues.set(key, values);
    const errors = model.get("form_errors")[key] || [];
    renderForm(box, spec, formValues.get(key), { errors, onChange: (v) => formValues.set(key, v) });
    return [box, errorSummary(errors), h("div", { class: "mcpw-actions" }, h("button", { class: "mcpw-btn mcpw-primary", type: "button", text: button, onclick: () => send(formValues.get(key)) }))];
  }

  function renderResources() {
    const resources = model.get("resources");
    const templates = model.get("templates");
    const current = model.get("resource");
    fill(panes.resources, 
      problem("resources"), problem("templates"), busy("resources"),
      h("div", { class: "mcpw-cols" },
        h("div", { class: "mcpw-col" },
          h("div", { class: "mcpw-section", text: `Resources (${resources.length})` }),
          resources.length ? null : h("div", { class: "mcpw-empty", text: "None listed." }),
          resources.map((r) =>
            h("div", { class: `mcpw-row${current.uri === r.uri ? " mcpw-selected" : ""}`, "data-uri": r.uri, tabindex: "0", onclick: () => model.send({ do: "read", uri: r.uri }), onkeydown: (e) => e.key === "Enter" && model.send({ do: "read", uri: r.uri }) },
              h("b", { text: r.title || r.name }), h("span", { class: "mcpw-hint", text: r.mimeType }), h("div", { class: "mcpw-hint mcpw-uri", text: r.uri }),
              r.description ? h("div", { class: "mcpw-summary", text: r.description }) : null),
          ),
          h("div", { class: "mcpw-section", text: `Templates (${templates.length})` }),
          templates.map((t, i) =>
            h("details", { class: "mcpw-template", "data-template": t.uriTemplate },
              h("summary", {}, h("b", { text: t.title || t.name }), h("code", { class: "mcpw-hint", text: t.uriTemplate })),
              t.description ? h("div", { class: "mcpw-help", text: t.description }) : null,
              t.problem ? h("div", { class: "mcpw-alert", text: t.problem }) : null,
              filledForm(`template:${i}`, t.spec, t.values, "Read", (values) => model.send({ do: "read_template", index: i, values })),
            ),
          ),
        ),
        h("div", { class: "mcpw-col mcpw-view" }, renderContents(current), problem("resource")),
      ),
    );
  }

  function renderContents(current) {
    if (!current.uri) return h("div", { class: "mcpw-empty", text: "Choose a resource to read it." });
    if (current.loading) return h("div", { class: "mcpw-status mcpw-busy", text: `Reading ${current.uri}…` });
    return h("div", { class: "mcpw-contents" },
      h("div", { class: "mcpw-hint", text: current.uri }),
      (current.contents || []).map((c) =>
        h("div", { class: "mcpw-content" },
          h("div", { class: "mcpw-hint", text: `${c.mimeType || "no type"} · ${size(c.size)}${c.truncated ? " · cut" : ""}${c.uri !== current.uri ? ` · ${c.uri}` : ""}` }),
          c.blob ? (c.image ? h("img", { class: "mcpw-image", src: c.image, alt: c.uri }) : h("div", { text: `binary, ${size(c.size)}` })) : h("pre", { class: "mcpw-text", text: c.text }),
        ),
      ),
    );
  }

  function renderPrompts() {
    const prompts = model.get("prompts");
    const got = model.get("prompt");
    fill(panes.prompts, 
      problem("prompts"), busy("prompts"),
      h("div", { class: "mcpw-cols" },
        h("div", { class: "mcpw-col" },
          prompts.length ? null : h("div", { class: "mcpw-empty", text: "No prompts." }),
          prompts.map((p) =>
            h("details", { class: "mcpw-prompt", "data-prompt": p.name, open: got.name === p.name },
              h("summary", {}, h("b", { text: p.title || p.name }), p.description ? h("span", { class: "mcpw-hint", text: p.description }) : null),
              filledForm(`prompt:${p.name}`, p.spec, p.values, "Get prompt", (values) => model.send({ do: "get_prompt", name: p.name, values })),
            ),
          ),
        ),
        h("div", { class: "mcpw-col mcpw-view" },
          problem("prompt"),
          !got.name ? h("div", { class: "mcpw-empty", text: "Fill a prompt's arguments and get it." })
            : got.loading ? h("div", { class: "mcpw-status mcpw-busy", text: `Getting ${got.name}…` })
            : h("div", { class: "mcpw-conversation" },
                h("div", { class: "mcpw-hint", text: `${got.name}${got.description ? ` · ${got.description}` : ""}` }),
                (got.messages || []).map((m) => h("div", { class: `mcpw-msg mcpw-msg-${m.role}` }, h("b", { text: `${m.role} ` }), m.image ? h("img", { class: "mcpw-image", src: m.image }) : m.text, m.uri ? h("code", { class: "mcpw-hint", text: m.uri }) : null)),
              ),
        ),
      ),
    );
  }

  function renderPing() {
    const p = model.get("ping");
    fill(panes.ping, 
      h("div", { class: "mcpw-actions" },
        h("button", { class: "mcpw-btn mcpw-primary", type: "button", text: "Ping", onclick: () => model.send({ do: "ping" }) }),
        busy("ping"),
        p.ms !== undefined ? h("span", { class: "mcpw-pingms", text: `${p.ms} ms round trip` }) : null,
        p.time ? h("span", { class: "mcpw-hint", text: new Date(p.time * 1000).toLocaleTimeString() }) : null,
      ),
      problem("ping"),
    );
  }

  function renderLog() {
    const lines = model.get("log");
    fill(panes.log, 
      h("div", { class: "mcpw-actions" }, h("span", { class: "mcpw-hint", text: `${lines.length} messages, newest last` }), h("button", { class: "mcpw-btn", type: "button", text: "Clear", onclick: () => model.send({ do: "clear_log" }) })),
      h("div", { class: "mcpw-log", role: "log" },
        lines.length ? null : h("div", { class: "mcpw-empty", text: "Nothing yet: log messages and notifications appear here as they arrive." }),
        lines.map((l) =>
          h("div", { class: `mcpw-logline mcpw-level-${l.level || l.kind}` },
            h("span", { class: "mcpw-hint", text: new Date(l.time * 1000).toLocaleTimeString() }),
            h("span", { class: "mcpw-badge", text: l.level || l.kind }),
            l.source ? h("code", { class: "mcpw-hint", text: l.source }) : null,
            h("span", { class: "mcpw-logtext", text: l.text }),
          ),
        ),
      ),
    );
    const box = panes.log.querySelector(".mcpw-log");
    box.scrollTop = box.scrollHeight;
    if (model.get("tab") !== "log") renderTabs();
  }

  function renderRequests() {
    renderPending(pending, model.get("pending"), {
      errors: model.get("pending_errors"),
      drafts,
      onAnswer: (id, action, values) => model.send({ do: "answer", id, action, values }),
    });
  }

  // The tool browser: its own model (a child widget), rendered by its own module's code.
  async function renderTools() {
    let ref = model.get("tools");
    try {
      const id = typeof ref === "string" ? ref.replace(/^IPY_MODEL_/, "") : ref.model_id;
      const child = await model.widget_manager.get_model(id);
      const tools = await load(model.get("_tool_js"));
      const cleanup = await tools.renderToolBrowser(child, panes.tools, lib);
      cleanups.push(cleanup);
    } catch (err) {
      fill(panes.tools, h("div", { class: "mcpw-alert mcpw-alert-error", text: `The tool browser could not be shown here (${err}); display inspector.tools in a cell.` }));
    }
  }

  on("server", renderHeader);
  on("tab resources templates prompts", renderTabs);
  on("resources templates resource form_errors busy problems", renderResources);
  on("prompts prompt form_errors busy problems", renderPrompts);
  on("ping busy problems", renderPing);
  on("log", renderLog);
  on("pending pending_errors", renderRequests);
  renderHeader();
  renderTabs();
  renderResources();
  renderPrompts();
  renderPing();
  renderLog();
  renderRequests();
  await renderTools();
  return () => cleanups.forEach((fn) => fn());
}

export default { render };
