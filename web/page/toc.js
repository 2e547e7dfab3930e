// The table of contents: one link per <section id> of main, built from the
// sections present (page/app.js builds one per widget of the list), each
// named by its widget's title in the current language. A sticky sidebar on wide
// screens; below that, a sticky bar with a disclosure button (Escape closes it).
// The section being read carries aria-current="location".
//
//   const toc = createToc(document.querySelector('.toc'));
//   toc.refresh();   // after the widgets (re)mount: titles in the new language
//   toc.land();      // once, after the first mount: back to the address's #section
import { element } from '../render/dom.js';

// how long land() holds its section in place while the widgets above it grow
const HOLD_MS = 15000;

// A section's name: its widget's heading once mounted, else its id in words.
function sectionTitle(section) {
  const heading = section.querySelector('.widget-title, h2');
  const text = heading?.textContent.trim();
  return text || section.id.replace(/-/g, ' ');
}

// The section id a fragment (#masking) names; '' (no section) when its
// escapes are malformed (#%E0%A4%A), which decodeURIComponent refuses.
function fragmentId(hash) {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return '';
  }
}

// One link per section, in list: section id -> its <a> (its title comes later).
function linkList(list, sections) {
  const links = new Map();
  list.replaceChildren(...sections.map((section) => {
    const link = element('a', 'toc-link');
    link.href = `#${encodeURIComponent(section.id)}`;
    links.set(section.id, link);
    const item = element('li', 'toc-item');
    item.append(link);
    return item;
  }));
  return links;
}

// The menu's toggle, Escape, a chosen link (followed, the menu closed), and a
// click or focus outside the open menu, which closes it.
function listen(nav, toggle, list, { isOpen, setOpen, follow }) {
  toggle.addEventListener('click', () => setOpen(!isOpen()));
  nav.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && isOpen()) {
      event.preventDefault();
      setOpen(false, { focusToggle: true });
    }
  });
  list.addEventListener('click', (event) => {
    const link = event.target.closest('a.toc-link');
    if (!link) return;
    follow(fragmentId(link.hash));
    setOpen(false);
  });
  document.addEventListener('click', (event) => { if (isOpen() && !nav.contains(event.target)) setOpen(false); });
  nav.addEventListener('focusout', (event) => { if (isOpen() && event.relatedTarget && !nav.contains(event.relatedTarget)) setOpen(false); });
}

// Keeps visible (a set of section ids) to the sections crossing the reading
// line, a thin band a third of the way down the viewport, and calls changed()
// after each change. Returns the observer, or null where there is none.
function watchReadingLine(sections, visible, changed) {
  if (typeof IntersectionObserver !== 'function') return null;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) visible.add(entry.target.id);
      else visible.delete(entry.target.id);
    }
    changed();
  }, { rootMargin: '-33% 0px -66% 0px' });
  for (const section of sections) observer.observe(section);
  return observer;
}

// Holds target where it landed while the content above it grows, until the
// reader scrolls, types or touches, or HOLD_MS have passed.
function holdInPlace(target) {
  const view = target.ownerDocument.defaultView;
  if (!view?.ResizeObserver) return;
  const landed = target.getBoundingClientRect().top;
  const observer = new view.ResizeObserver(() => {
    if (Math.abs(target.getBoundingClientRect().top - landed) > 1) target.scrollIntoView();
  });
  for (let above = target.previousElementSibling; above; above = above.previousElementSibling) observer.observe(above);
  const done = new AbortController();
  const release = () => { observer.disconnect(); done.abort(); };
  for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown']) view.addEventListener(type, release, { signal: done.signal, passive: true });
  view.setTimeout(release, HOLD_MS);
}

// A link to target (a section, or null) followed: once the browser has jumped
// there, target is held there while the sections near it, mounting as they
// come near, grow (the browser's scroll anchoring gives up when a section's
// own height changes).
function holdAfterJump(target) {
  const view = target?.ownerDocument.defaultView;
  if (view) view.requestAnimationFrame(() => holdInPlace(target));
}

// nav: the <nav class="toc"> of index.html, holding .toc-toggle, .toc-list
// and .toc-current. root: where the sections are (document by default).
export function createToc(nav, { root = document } = {}) {
  const toggle = nav.querySelector('.toc-toggle');
  const list = nav.querySelector('.toc-list');
  const current = nav.querySelector('.toc-current');
  let links = new Map();   // section id -> <a>
  let shown = null;        // the id marked current
  let observer = null;
  const visible = new Set();  // ids of the sections crossing the reading line

  const isOpen = () => toggle.getAttribute('aria-expanded') === 'true';
  function setOpen(open, { focusToggle = false } = {}) {
    toggle.setAttribute('aria-expanded', String(open));
    nav.classList.toggle('is-open', open);
    if (!open && focusToggle) toggle.focus();
  }

  function mark(id) {
    if (!links.has(id) || id === shown) return;
    shown = id;
    for (const [key, link] of links) {
      if (key === id) link.setAttribute('aria-current', 'location');
      else link.removeAttribute('aria-current');
    }
    current.textContent = links.get(id).textContent;
  }

  // The current section: the first, in page order, that crosses the reading
  // line; when none does (a gap between two sections), the last one kept.
  function pick() {
    for (const id of links.keys()) if (visible.has(id)) return mark(id);
  }

  function observe(sections) {
    observer?.disconnect();
    visible.clear();
    observer = watchReadingLine(sections, visible, pick);
  }

  // (Re)builds the links from the sections present, with their titles now.
  function refresh() {
    const sections = [...root.querySelectorAll('main section[id]')];
    const ids = sections.map((s) => s.id);
    const same = ids.length === links.size && ids.every((id) => links.has(id));
    if (!same) {
      links = linkList(list, sections);
      observe(sections);
    }
    for (const section of sections) links.get(section.id).textContent = sectionTitle(section);
    const keep = shown;
    shown = null;
    mark(links.has(keep) ? keep : ids[0]);
    pick();
  }

  // a link chosen: its section marked, and held where the browser jumps
  const follow = (id) => { mark(id); holdAfterJump(links.has(id) ? root.getElementById?.(id) : null); };

  listen(nav, toggle, list, { isOpen, setOpen, follow });

  // A link to a section (#masking) was followed while the widgets were still
  // empty: the browser jumped to where the section was then. Jump again once
  // they show their titles, and hold the section there while the widgets above
  // it still grow (a model that loads, a map drawn in slices: the browser's
  // scroll anchoring does not follow every such change), until the reader
  // scrolls, types or touches, or HOLD_MS have passed.
  function land() {
    const id = fragmentId(location.hash);
    const target = links.has(id) ? root.getElementById?.(id) : null;
    if (!target) return;
    target.scrollIntoView();
    mark(id);
    holdInPlace(target);
  }

  setOpen(false);
  refresh();
  return { refresh, land, get current() { return shown; }, setOpen, get isOpen() { return isOpen(); } };
}
