// Two small helpers of the table's modules: an element with a class and text, and a button.

/** An element `tag` with a class and (optionally) text. */
export function el(tag, className = "", text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A button with a label, a class and what a click does. */
export function button(label, className, onClick) {
  const node = el("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

