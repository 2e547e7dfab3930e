// The SVG helper the drawing functions share: an element with attributes and
// its content, a string set with textContent (never markup) or nodes (a
// message typeset by t.svg, with <tspan>s for its superscripts and subscripts).
import { doc } from './dom.js';

export const SVG_NS = 'http://www.w3.org/2000/svg';

// The font of the drawings, as the page's --font (styles/frame.css): the
// system's sans-serif for Latin, then the common Chinese faces of macOS,
// Windows and Linux, so that a word of a Chinese sentence finds its glyphs
// (an exported SVG keeps it too)
export const FONT_FAMILY = `system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", sans-serif`;

export function svg(name, attributes = {}, text) {
  const node = doc.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (text instanceof Node) node.append(text);
  else if (text !== undefined) node.textContent = text;
  return node;
}

// Rough width of a label in px at a font size, for margins (no layout pass):
// 1 em for a CJK character, `narrow` em for any other (0.62: an upper bound
// over the faces of FONT_FAMILY, for a layout that must not overlap).
export function textWidth(text, fontSize = 12, { narrow = 0.58 } = {}) {
  let w = 0;
  for (const ch of String(text)) w += ch.charCodeAt(0) > 0x2e80 ? fontSize : fontSize * narrow;
  return w;
}
