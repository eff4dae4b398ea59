// Rows kept by key (the outline widget's tree; the same way as the lab's tree view,
// labext/src/outline_tree_keyed.ts): `update(rows)` shows `rows` ({key, sig, make}) in order,
// reusing the element of every row whose `sig` (what it draws) is the one it was drawn with and
// moving the others into place, instead of building every row again. The rows sit in chunks of
// about CHUNK_ROWS (role="none", CSS containment: the rows below a fold move with their chunk,
// so the browser moves a few dozen boxes instead of every row's).

const CHUNK_ROWS = 100;

function keyedRows(container, chunkClass) {
  let drawn = new Map(); // key → {sig, item}

  function chunk(items) {
    const c = document.createElement("div");
    c.className = chunkClass;
    c.setAttribute("role", "none");
    c.append(...items);
    return c;
  }

  function first() {
    return container.firstElementChild || container.appendChild(chunk([]));
  }

  // The row element after `item` (null: the first), across chunks.
  function after(item) {
    if (item && item.nextElementSibling) return item.nextElementSibling;
    let c = item ? item.parentElement.nextElementSibling : container.firstElementChild;
    while (c && !c.firstElementChild) c = c.nextElementSibling;
    return c ? c.firstElementChild : null;
  }

  // Empty chunks go; a chunk grown past twice the size is split.
  function balance() {
    for (const c of [...container.children]) {
      const n = c.childElementCount;
      if (n === 0) c.remove();
      else if (n > 2 * CHUNK_ROWS) {
        const rows = [...c.children];
        const parts = [];
        for (let i = CHUNK_ROWS; i < n; i += CHUNK_ROWS) parts.push(chunk(rows.slice(i, i + CHUNK_ROWS)));
        c.after(...parts);
      }
    }
  }

  function update(rows) {
    const next = new Map();
    const items = [];
    let kept = 0;
    for (const { key, sig, make } of rows) {
      let entry = drawn.get(key);
      if (entry && entry.sig === sig) kept++;
      else entry = { sig, item: make() };
      next.set(key, entry);
      items.push(entry.item);
    }
    const before = drawn;
    drawn = next;
    if (!kept) {
      const chunks = [];
      for (let i = 0; i < items.length; i += CHUNK_ROWS) chunks.push(chunk(items.slice(i, i + CHUNK_ROWS)));
      container.replaceChildren(...chunks);
      return;
    }
    for (const [key, entry] of before) if (next.get(key) !== entry) entry.item.remove();
    // What is left is the kept elements in their old order: put each in place.
    let prev = null;
    let at = after(null);
    for (const item of items) {
      if (item === at) at = after(item);
      else if (prev) prev.after(item);
      else first().prepend(item);
      prev = item;
    }
    balance();
  }

  return { update, item: (key) => (drawn.get(key) || {}).item };
}
