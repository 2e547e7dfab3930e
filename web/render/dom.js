// The DOM helpers under everything that draws (render/, runtime/, the widgets,
// the embed): the page's document read safely, an element with its content, a
// live element, a wait until an element is near. It imports nothing.

// The page's document as the platform defines it. On a host page, markup can
// shadow the document's own names: a document's named elements come before its
// built-in properties, so <img name="currentScript" src="…">, <form
// name="createElement"> or <img name="body"> (markup many forums allow in a
// comment) make document.currentScript, document.createElement or
// document.body that element. Everything the embed reads from the host's
// document goes through doc instead: Document.prototype's and Node.prototype's
// own getters and methods, called on the document, which no element can
// shadow. (A host's own scripts could change those prototypes too: what is
// guarded against here is markup.) Where the platform has no Document (Node)
// a stand-in globalThis.document is used as it is (the tests'); where there is
// none either (a worker), each member throws when used.
//   doc.createElement('div'), doc.currentScript, doc.baseURI, doc.body, …
function documentMember(name) {
  if (typeof Document !== 'function' || typeof document !== 'object') return null;
  for (let p = Document.prototype; p; p = Object.getPrototypeOf(p)) {
    const found = Object.getOwnPropertyDescriptor(p, name);
    if (found) return found.get ?? found.value;
  }
  return null;
}
function documentCall(name) {
  const member = documentMember(name);
  return (...args) => {
    if (member) return member.apply(document, args);
    const standIn = globalThis.document;
    if (!standIn) throw new Error(`document.${name}: there is no document here`);
    return typeof standIn[name] === 'function' ? standIn[name](...args) : standIn[name];
  };
}
const METHODS = ['createElement', 'createElementNS', 'createDocumentFragment', 'createTextNode', 'createRange', 'addEventListener', 'getElementById'];
const GETTERS = ['currentScript', 'baseURI', 'readyState', 'documentElement', 'head', 'body', 'activeElement', 'defaultView'];
export const doc = Object.freeze(Object.defineProperties({}, Object.fromEntries([
  ...METHODS.map((name) => [name, { value: documentCall(name), enumerable: true }]),
  ...GETTERS.map((name) => [name, { get: documentCall(name), enumerable: true }]),
])));

// An element with a class and its content, a string (set as textContent, never
// innerHTML, so data can never become markup) or nodes (a message typeset by
// t.rich, with its <sup>/<sub>).
export function element(tag, className, content) {
  const node = doc.createElement(tag);
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
