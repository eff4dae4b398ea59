// Forms from the form specs made in Python (kernel_tools/widgets/schema_form.py), and the
// server's pending requests. A library module shared by the tool browser and the inspector:
// each widget sends this file's text in its `_form_js` traitlet and imports it from a blob URL,
// the way anywidget loads the widget itself, so there is no build step and no second copy.
//
// The form edits a *raw* value tree shaped like the spec (see form_values.py); Python turns it
// into arguments and reports problems by path ("edits[0].op"), shown beside the fields.

let uid = 0;

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "html") el.innerHTML = value;
    else if (key === "value") el.value = value; // a textarea's text is its property, not an attribute
    else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace `el`'s children (nested lists flattened, empty ones skipped). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

const join = (path, name) => (path ? `${path}.${name}` : name);
const empty = (v) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);
const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

// Gated fields: a composite tool's `action` picks which of the other fields apply.
function applies(field, chosen) {
  return !field.actions || chosen === null || chosen === undefined || field.actions.includes(chosen);
}

function hint(spec) {
  const parts = [];
  if (spec.kind === "integer" || spec.kind === "number") {
    parts.push(spec.kind);
    if (spec.minimum !== undefined) parts.push(`≥ ${spec.minimum}`);
    if (spec.exclusiveMinimum !== undefined) parts.push(`> ${spec.exclusiveMinimum}`);
    if (spec.maximum !== undefined) parts.push(`≤ ${spec.maximum}`);
    if (spec.exclusiveMaximum !== undefined) parts.push(`< ${spec.exclusiveMaximum}`);
  } else if (spec.kind === "string" && spec.format) parts.push(spec.format);
  else if (spec.kind === "json") parts.push(spec.object ? "JSON object" : "JSON or text");
  return parts.join(" ");
}

/**
 * Render `spec` editing `raw` into `container`. `onChange(raw)` gets a fresh copy after every
 * edit; `errors` is a list of {path, message}. Returns {get(), rerender(errors)}.
 */
export function renderForm(container, spec, raw, { errors = [], onChange = () => {} } = {}) {
  const state = { v: clone(raw) };
  let problems = new Map(errors.map((e) => [e.path, e.message]));
  const changed = () => onChange(clone(state.v));

  function rerender() {
    const focused = document.activeElement && container.contains(document.activeElement) ? document.activeElement.dataset.path : null;
    container.replaceChildren(render(spec, () => state.v, (v) => (state.v = v), "", true));
    if (focused) container.querySelector(`[data-path="${CSS.escape(focused)}"]`)?.focus();
  }

  function label(spec, path, id) {
    const text = spec.label || spec.name;
    if (!text) return null;
    return h(
      "label",
      { class: "mcpw-label", for: id, title: spec.help || null },
      h("span", { class: "mcpw-name", text }),
      spec.required ? h("span", { class: "mcpw-req", title: "required", text: "*" }) : null,
      hint(spec) ? h("span", { class: "mcpw-hint", text: hint(spec) }) : null,
    );
  }

  function wrap(spec, path, id, control) {
    const error = problems.get(path);
    const named = label(spec, path, id);
    const message = error ? h("div", { class: "mcpw-error", role: "alert", text: `${spec.label || path || "value"} ${error}` }) : null;
    const box = h(
      "div",
      { class: `mcpw-field mcpw-${spec.kind}${error ? " mcpw-invalid" : ""}${named ? "" : " mcpw-nolabel"}`, "data-field": path },
      named,
      control,
      spec.help ? h("div", { class: "mcpw-help", text: spec.help }) : null,
      message,
    );
    if (error) {
      // Once the person edits the field, its old problem no longer stands.
      const clear = () => { problems.delete(path); box.classList.remove("mcpw-invalid"); message.remove(); };
      control.addEventListener("input", clear, { once: true });
      control.addEventListener("change", clear, { once: true });
    }
    return box;
  }

  function render(spec, get, set, path, root = false) {
    const id = `mcpw-${++uid}`;
    const value = get();
    const common = { id, "data-path": path, name: path || spec.name || "value" };
    switch (spec.kind) {
      case "object":
        return object(spec, get, set, path, root);
      case "array":
        return array(spec, get, set, path);
      case "choice":
        return choice(spec, get, set, path);
      case "const":
        return wrap(spec, path, id, h("code", { class: "mcpw-const", text: JSON.stringify(spec.value) }));
      case "boolean":
        if (spec.tristate) {
          const select = h(
            "select",
            { ...common, onchange: (e) => { set(e.target.value === "" ? null : e.target.value === "true"); changed(); } },
            h("option", { value: "", text: "—" }),
            h("option", { value: "true", text: "true", selected: value === true }),
            h("option", { value: "false", text: "false", selected: value === false }),
          );
          return wrap(spec, path, id, select);
        }
        return wrap(spec, path, id, h("input", { ...common, type: "checkbox", checked: !!value, onchange: (e) => { set(e.target.checked); changed(); } }));
      case "enum": {
        const index = spec.options.findIndex((o) => JSON.stringify(o.value) === JSON.stringify(value));
        const select = h(
          "select",
          {
            ...common,
            onchange: (e) => {
              set(e.target.value === "" ? null : spec.options[Number(e.target.value)].value);
              changed();
              if (spec.gates) rerender(); // a composite tool's action: other fields come and go
            },
          },
          h("option", { value: "", text: spec.required ? "— choose —" : "—", selected: index < 0 }),
          spec.options.map((o, i) => h("option", { value: String(i), text: o.label, selected: i === index })),
        );
        return wrap(spec, path, id, select);
      }
      case "multi": {
        const chosen = Array.isArray(value) ? value : [];
        const boxes = spec.options.map((o) =>
          h(
            "label",
            { class: "mcpw-check" },
            h("input", {
              type: "checkbox",
              "data-path": `${path}=${JSON.stringify(o.value)}`,
              checked: chosen.some((c) => JSON.stringify(c) === JSON.stringify(o.value)),
              onchange: (e) => {
                const now = (get() || []).filter((c) => JSON.stringify(c) !== JSON.stringify(o.value));
                set(e.target.checked ? [...now, o.value] : now);
                changed();
              },
            }),
            o.label,
          ),
        );
        return wrap(spec, path, id, h("div", { class: "mcpw-multi", id }, boxes));
      }
      default:
        return wrap(spec, path, id, input(spec, common, value, set));
    }
  }

  function input(spec, common, value, set) {
    const text = value === null || value === undefined ? "" : String(value);
    const oninput = (e) => { set(e.target.value); changed(); };
    const placeholder = spec.default !== undefined ? `default: ${JSON.stringify(spec.default)}` : spec.format || "";
    if (spec.kind === "json" || (spec.kind === "string" && spec.input === "textarea")) {
      const rows = Math.min(12, Math.max(spec.kind === "json" ? 3 : 2, text.split("\n").length));
      return h("textarea", { ...common, rows, value: text, placeholder, oninput, class: spec.kind === "json" ? "mcpw-mono" : null });
    }
    const attrs = { ...common, value: text, placeholder, oninput };
    if (spec.kind === "integer" || spec.kind === "number") {
      Object.assign(attrs, { type: "number", step: spec.step ?? "any", min: spec.minimum ?? null, max: spec.maximum ?? null });
    } else {
      Object.assign(attrs, { type: spec.input || "text", minlength: spec.minLength ?? null, maxlength: spec.maxLength ?? null });
    }
    return h("input", attrs);
  }

  function object(spec, get, set, path, root) {
    if (!get() || typeof get() !== "object") set({});
    const key = spec.discriminator;
    const chosen = key ? get()[key] : null;
    const rows = [];
    const more = [];
    for (const field of spec.fields) {
      if (!applies(field, chosen)) continue;
      const sub = join(path, field.name);
      const el = render(
        key === field.name ? { ...field, gates: true } : field,
        () => get()[field.name],
        (v) => { get()[field.name] = v; },
        sub,
      );
      const optional = !field.required && field.name !== key;
      const value = get()[field.name];
      const filled = !empty(value) && JSON.stringify(value) !== JSON.stringify(field.start);
      (optional ? more : rows).push([el, optional && (filled || [...problems.keys()].some((p) => p.startsWith(sub)))]);
    }
    // Many optional fields (an edit op's thirty options): they fold, unless one is filled in.
    const folded = more.length > (root ? 12 : 6);
    const body = [
      ...rows.map(([el]) => el),
      folded
        ? h("details", { class: "mcpw-more", open: more.some(([, used]) => used) }, h("summary", { text: `${more.length} optional fields` }), more.map(([el]) => el))
        : more.map(([el]) => el),
    ];
    if (root) return h("div", { class: "mcpw-form-body" }, body.flat().length ? body : h("div", { class: "mcpw-help", text: "No arguments." }));
    const error = problems.get(path);
    return h(
      "fieldset",
      { class: `mcpw-fieldset${error ? " mcpw-invalid" : ""}`, "data-field": path },
      spec.label ? h("legend", {}, h("span", { class: "mcpw-name", text: spec.label }), spec.required ? h("span", { class: "mcpw-req", text: "*" }) : null) : null,
      spec.help ? h("div", { class: "mcpw-help", text: spec.help }) : null,
      body,
      error ? h("div", { class: "mcpw-error", text: error }) : null,
    );
  }

  function array(spec, get, set, path) {
    if (!Array.isArray(get())) set([]);
    const items = get();
    const max = spec.maxItems ?? Infinity;
    const rows = items.map((_, i) =>
      h(
        "div",
        { class: "mcpw-item" },
        render({ ...spec.item, label: spec.item.kind === "object" ? `#${i + 1}` : "" }, () => get()[i], (v) => { get()[i] = v; }, `${path}[${i}]`),
        h("button", { class: "mcpw-btn mcpw-icon", title: "Remove this item", "aria-label": `Remove item ${i + 1}`, text: "✕", onclick: () => { get().splice(i, 1); changed(); rerender(); } }),
      ),
    );
    const error = problems.get(path);
    return h(
      "fieldset",
      { class: `mcpw-fieldset mcpw-array${error ? " mcpw-invalid" : ""}`, "data-field": path },
      h("legend", {}, h("span", { class: "mcpw-name", text: spec.label || spec.name }), spec.required ? h("span", { class: "mcpw-req", text: "*" }) : null, h("span", { class: "mcpw-hint", text: `${items.length} item${items.length === 1 ? "" : "s"}` })),
      spec.help ? h("div", { class: "mcpw-help", text: spec.help }) : null,
      rows,
      h("button", { class: "mcpw-btn", disabled: items.length >= max, "data-path": `${path}+`, text: `+ Add ${spec.item.kind === "object" ? "item" : "value"}`, onclick: () => { get().push(clone(spec.item.start ?? null)); changed(); rerender(); } }),
      error ? h("div", { class: "mcpw-error", text: `${spec.label || spec.name} ${error}` }) : null,
    );
  }

  function choice(spec, get, set, path) {
    if (!get() || typeof get() !== "object" || !("variant" in get())) set({ variant: 0, value: clone(spec.variants[0].start ?? null) });
    const current = get();
    const id = `mcpw-${++uid}`;
    const picker = h(
      "select",
      {
        id,
        "data-path": `${path}#variant`,
        class: "mcpw-variant",
        onchange: (e) => {
          const i = Number(e.target.value);
          set({ variant: i, value: clone(spec.variants[i].start ?? null) });
          changed();
          rerender();
        },
      },
      spec.variants.map((v, i) => h("option", { value: String(i), text: v.label, selected: i === current.variant })),
    );
    const variant = spec.variants[current.variant].spec;
    const shown = variant.kind === "object" ? { ...variant, label: "", fields: variant.fields.filter((f) => f.name !== spec.key) } : { ...variant, label: "" };
    const inner = render(shown, () => get().value, (v) => { get().value = v; }, path, variant.kind === "object");
    return h(
      "fieldset",
      { class: "mcpw-fieldset mcpw-choice", "data-field": `${path}#choice` },
      h("legend", {}, h("span", { class: "mcpw-name", text: spec.label || spec.name || "one of" }), spec.required ? h("span", { class: "mcpw-req", text: "*" }) : null, " ", picker),
      spec.help ? h("div", { class: "mcpw-help", text: spec.help }) : null,
      inner,
    );
  }

  rerender();
  return {
    get: () => clone(state.v),
    set(raw) { state.v = clone(raw); rerender(); },
    showErrors(list) { problems = new Map((list || []).map((e) => [e.path, e.message])); rerender(); },
  };
}

/** One line per problem, for the top of a form. */
export function errorSummary(errors) {
  if (!errors || !errors.length) return null;
  return h(
    "div",
    { class: "mcpw-alert mcpw-alert-error", role: "alert" },
    h("b", { text: errors.length === 1 ? "Fix this first: " : `Fix these ${errors.length} first: ` }),
    errors.map((e, i) => [i ? "; " : "", h("code", { text: e.path || "arguments" }), ` ${e.message}`]),
  );
}

/**
 * The server's requests waiting for the person: an elicitation as a form (Accept / Decline /
 * Cancel; URL mode shows the link), a sampling request as its conversation and a reply box
 * (Send / Reject). `drafts` keeps what was typed across re-renders; `onAnswer(id, action, values)`.
 */
export function renderPending(container, items, { errors = {}, drafts = new Map(), onAnswer }) {
  for (const id of [...drafts.keys()]) if (!items.some((item) => item.id === id)) drafts.delete(id);
  const cards = items.map((item) => {
    if (!drafts.has(item.id)) drafts.set(item.id, clone(item.values));
    const formBox = h("div", { class: "mcpw-request-form" });
    const problems = errors[String(item.id)] || [];
    const sampling = item.kind === "sampling";
    const buttons = sampling
      ? [["accept", "Send", "mcpw-primary"], ["decline", "Reject", ""]]
      : [["accept", "Accept", "mcpw-primary"], ["decline", "Decline", ""], ["cancel", "Cancel", ""]];
    const card = h(
      "div",
      { class: `mcpw-request mcpw-request-${item.kind}`, "data-request": item.id },
      h("div", { class: "mcpw-request-head" }, h("span", { class: "mcpw-badge mcpw-tone-warn", text: sampling ? "sampling" : "elicitation" }), h("span", { class: "mcpw-request-message", text: item.message })),
      sampling
        ? h(
            "div",
            { class: "mcpw-conversation" },
            item.systemPrompt ? h("div", { class: "mcpw-msg mcpw-msg-system" }, h("b", { text: "system " }), item.systemPrompt) : null,
            (item.messages || []).map((m) => h("div", { class: `mcpw-msg mcpw-msg-${m.role}` }, h("b", { text: `${m.role} ` }), m.text)),
            item.maxTokens ? h("div", { class: "mcpw-help", text: `at most ${item.maxTokens} tokens` }) : null,
          )
        : null,
      item.url ? h("div", { class: "mcpw-url" }, "Open: ", h("a", { href: item.url, target: "_blank", rel: "noopener noreferrer", text: item.url })) : null,
      formBox,
      errorSummary(problems),
      h(
        "div",
        { class: "mcpw-actions" },
        buttons.map(([action, text, cls]) =>
          h("button", { class: `mcpw-btn ${cls}`, "data-answer": action, text, onclick: () => onAnswer(item.id, action, drafts.get(item.id)) }),
        ),
      ),
    );
    if (!item.url) renderForm(formBox, item.spec, drafts.get(item.id), { errors: problems, onChange: (v) => drafts.set(item.id, v) });
    return card;
  });
  fill(container, cards);
  container.hidden = items.length === 0;
}
