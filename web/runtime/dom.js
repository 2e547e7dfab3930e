// The DOM helpers the widgets share: an element with a class and its content,
// a string (set as textContent, never innerHTML, so data can never become markup)
// or nodes (a message typeset by t.rich, with its <sup>/<sub>).
export function element(tag, className, content) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (content instanceof Node) node.append(content);
  else if (content !== undefined) node.textContent = content;
  return node;
}

// The same, announced to screen readers when its content changes
// (aria-live="polite"): for what a widget rewrites as the reader works it.
export function liveElement(tag, className, content) {
  const node = element(tag, className, content);
  node.setAttribute('aria-live', 'polite');
  return node;
}

// Calls then() once element comes within margin (an IntersectionObserver
// rootMargin) of the viewport, at once where there is no IntersectionObserver;
// never after signal aborts.
export function whenNear(element, then, signal, margin) {
  if (typeof IntersectionObserver !== 'function') {
    then();
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    observer.disconnect();
    then();
  }, { rootMargin: margin });
  observer.observe(element);
  signal.addEventListener('abort', () => observer.disconnect(), { once: true });
}
