// The one DOM helper the widgets share: an element with a class and text
// (textContent, never innerHTML, so data can never become markup).
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
