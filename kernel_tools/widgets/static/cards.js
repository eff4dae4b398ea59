// Shared by the review cards and the document view (kernel_tools/widgets/base.py `esm()` puts
// this before each widget's own module: one ES module per widget, no build step).

function h(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function button(label, cls, title, onClick) {
  const b = h("button", `mcpw-btn ${cls || ""}`.trim(), label);
  b.type = "button";
  if (title) b.title = title;
  b.addEventListener("click", (event) => {
    event.stopPropagation();
    onClick();
  });
  return b;
}

function ageText(seconds) {
  if (seconds < 10) return "just now";
  if (seconds < 60) return `${Math.floor(seconds)} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

function diffNode(segments) {
  const box = h("div", "mcpw-diff");
  for (const [op, text] of segments) {
    const cls = op === "-" ? "mcpw-del" : op === "+" ? "mcpw-ins" : op === "…" ? "mcpw-more" : "mcpw-same";
    const tag = op === "-" ? "del" : op === "+" ? "ins" : "span";
    box.append(h(tag, cls, op === "…" ? ` … ${text}` : text));
  }
  return box;
}
