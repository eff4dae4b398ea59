/**
 * Small DOM helpers shared by the panel's sections (no framework: the panel
 * is plain Lumino widgets and DOM).
 */

/** An element with an optional class and text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

/** A JupyterLab-styled button with a tooltip. */
export function button(
  label: string,
  className: string,
  title: string,
  onClick: () => void
): HTMLButtonElement {
  const node = el('button', `jp-Button jp-mod-styled ${className}`, label);
  node.title = title;
  node.addEventListener('click', onClick);
  return node;
}

/** The frame of a panel section: a <section> with an <h3> and a body. */
export interface ISectionFrame {
  node: HTMLElement;
  heading: HTMLHeadingElement;
  body: HTMLDivElement;
}

/**
 * A section of the panel, e.g. `sectionFrame('Activity', 'jp-McpLab-activity')`;
 * the body gets `<className>Body`.
 */
export function sectionFrame(title: string, className: string): ISectionFrame {
  const node = el('section', `jp-McpLab-section ${className}`);
  const heading = el('h3', 'jp-McpLab-sectionHeading', title);
  const body = el('div', `jp-McpLab-sectionBody ${className}Body`);
  node.append(heading, body);
  return { node, heading, body };
}

/** A server message as a sentence: capitalized (they start lower-case). */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/**
 * Put `children` in `parent` unless they would draw exactly what is there:
 * a refresh that brings nothing new (a replayed event, a second fetch) then
 * leaves the DOM alone. Replacing a button under the pointer between its
 * press and release drops the person's click. Returns whether it replaced.
 */
export function replaceChildrenIfChanged(
  parent: HTMLElement,
  children: readonly Node[]
): boolean {
  const next = document.createElement(parent.tagName);
  next.append(...children);
  if (next.innerHTML === parent.innerHTML) {
    return false;
  }
  parent.replaceChildren(...Array.from(next.childNodes));
  return true;
}
