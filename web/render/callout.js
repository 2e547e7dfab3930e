// A callout: a boxed section with a title and paragraphs, for the one thing
// a reader should take away (is-key: the main point, with an accent border).
import { element } from './dom.js';

// part: data-part of the box (tests and styles find it by that); texts: the
// paragraphs' initial text ('' for one that render fills). Returns the box and its paragraphs.
export function callout(title, { part, key = false, className = '', texts = [''] } = {}) {
  const box = element('section', ['callout', key ? 'is-key' : '', className].filter(Boolean).join(' '));
  if (part) box.dataset.part = part;
  const paragraphs = texts.map((text) => element('p', 'callout-text', text));
  box.append(element('h3', 'callout-title', title), ...paragraphs);
  return { box, paragraphs };
}
