// The SVG helper the drawing functions share: an element with attributes and
// its content, a string set with textContent (never markup) or nodes (a
// message typeset by t.svg, with <tspan>s for its superscripts and subscripts).
import { doc } from '../runtime/dom.js';

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(name, attributes = {}, text) {
  const node = doc.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (text instanceof Node) node.append(text);
  else if (text !== undefined) node.textContent = text;
  return node;
}

// Rough width of a label in px at a font size, for margins (no layout pass).
export function textWidth(text, fontSize = 12) {
  let w = 0;
  for (const ch of String(text)) w += ch.charCodeAt(0) > 0x2e80 ? fontSize : fontSize * 0.58;
  return w;
}
