// The one place that makes elements: every screen builds its DOM with these three helpers, so an
// element, a button and a link are made the same way on every page.

/** An element `tag` with a class and (optionally) text; null or undefined leaves it empty. */
export function el(tag, className = "", text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** A button with a label, a class and what a click does. */
export function button(label, className, onClick) {
  const node = el("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

/** A link to `href` inside the app. */
export function link(text, href, className = "") {
  const node = el("a", className, text);
  node.href = href;
  return node;
}
