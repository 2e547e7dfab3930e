// Messages with formulas: a tiny markup inside catalog strings, ^{…} for a
// superscript and _{…} for a subscript (W^{Q}, d_{k}, 10000^{2i/d}), and
// {name} placeholders, also inside them (Z_{{h}}); [[id:text]] marks a term of
// the glossary (its first use in a section: [[entropy:entropy]], [[nats:nats]]).
// The template is parsed before any value is put in, so what a placeholder
// holds (a user's sentence) is never read as markup: it always ends up as plain text.
//
//   layout(template, vars)  -> runs [{ text, shift: null | 'sup' | 'sub', term? }]   (pure)
//   plainText(runs)         -> a string: Unicode superscripts and subscripts where
//                              they exist (attributes, <option>, CSV, titles); a term as its text
//   typeset(runs, { svg, define, more }) -> a DocumentFragment: text nodes and <sup>/<sub>,
//                              or <tspan baseline-shift> inside SVG text; with
//                              define(id) -> the definition's runs, a term is a
//                              button that opens its definition in a popover
//                              (and names it as its description for screen readers);
//                              more: the words of a link from the popover to the term's
//                              entry in the page's glossary (#glossary-<id>), shown
//                              when the document has that entry (the page, not an embed)
import { doc as pageDocument } from '../render/dom.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// one piece of a template: literal text, or a {name} placeholder
function pieces(text) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    if (match.index > last) out.push({ text: text.slice(last, match.index) });
    out.push({ name: match[1] });
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

// The end of a ^{ or _{ group opened at `open` (the index of its "{"): the
// first "}" that does not close a {name} placeholder.
function groupEnd(template, open) {
  let i = open + 1;
  while (i < template.length) {
    const placeholder = /^\{\w+\}/.exec(template.slice(i));
    if (placeholder) { i += placeholder[0].length; continue; }
    if (template[i] === '}') return i;
    i += 1;
  }
  return -1;
}

// template -> [{ shift, pieces }], the markup resolved and the placeholders kept
export function parseMessage(template) {
  const groups = [];
  let plain = '';
  let i = 0;
  const flush = () => { if (plain) groups.push({ shift: null, pieces: pieces(plain) }); plain = ''; };
  while (i < template.length) {
    const ch = template[i];
    const term = ch === '[' ? /^\[\[([a-z][\w-]*):([^\]]+)\]\]/.exec(template.slice(i)) : null;
    if (term) {
      flush();
      groups.push({ shift: null, term: term[1], pieces: pieces(term[2]) });
      i += term[0].length;
      continue;
    }
    if ((ch === '^' || ch === '_') && template[i + 1] === '{') {
      const end = groupEnd(template, i + 1);
      if (end > i + 2) {
        flush();
        groups.push({ shift: ch === '^' ? 'sup' : 'sub', pieces: pieces(template.slice(i + 2, end)) });
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i += 1;
  }
  flush();
  return groups;
}

// each template parsed once: a map of a few hundred cells labels each with the same message
const parsed = new Map();
function parsedMessage(template) {
  let groups = parsed.get(template);
  if (!groups) {
    if (parsed.size >= 4096) parsed.clear();  // the catalogs hold fewer; a bound all the same
    groups = parseMessage(template);
    parsed.set(template, groups);
  }
  return groups;
}

// The runs of a message with its placeholders filled (a missing one stays "{name}").
export function layout(template, vars = {}) {
  const has = (name) => Object.prototype.hasOwnProperty.call(vars, name);
  return parsedMessage(String(template)).map(({ shift, term, pieces: parts }) => ({
    shift,
    ...(term ? { term } : {}),
    text: parts.map((p) => ('name' in p ? (has(p.name) ? String(vars[p.name]) : `{${p.name}}`) : p.text)).join(''),
  })).filter((run) => run.text);
}

const SUP = Object.fromEntries([...'0123456789+−-=()'].map((c, i) => [c, '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾'[i]])
  .concat([...'abcdefghijklmnoprstuvwxyz'].map((c, i) => [c, [...'ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ'][i]]))
  .concat([...'ABDEGHIJKLMNOPRTUVW'].map((c, i) => [c, [...'ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ'][i]])));
const SUB = Object.fromEntries([...'0123456789+−-=()'].map((c, i) => [c, '₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎'[i]])
  .concat([...'aehijklmnoprstuvx'].map((c, i) => [c, [...'ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ'][i]])));

// Runs as one string: each raised or lowered character by its Unicode form
// where there is one (d_{k} -> dₖ, QK^{T} -> QKᵀ), else as it is.
export function plainText(runs) {
  return runs.map(({ text, shift }) => {
    if (!shift) return text;
    const table = shift === 'sup' ? SUP : SUB;
    return [...text].map((ch) => table[ch] ?? ch).join('');
  }).join('');
}

// Runs as DOM nodes (text nodes only: nothing is ever parsed as HTML).
// svg: for inside an SVG <text>, where <sup>/<sub> do not exist.
export function typeset(runs, { svg = false, doc = pageDocument, define = null, more = '' } = {}) {
  const fragment = doc.createDocumentFragment();
  for (const { text, shift, term } of runs) {
    const definition = term && !svg && define ? define(term) : null;
    if (definition) { fragment.append(termNode(doc, term, text, typeset(definition, { doc }), more)); continue; }
    if (!shift) { fragment.append(doc.createTextNode(text)); continue; }
    let node;
    if (svg) {
      node = doc.createElementNS(SVG_NS, 'tspan');
      node.setAttribute('baseline-shift', shift === 'sup' ? 'super' : 'sub');
      node.setAttribute('font-size', '75%');
    } else {
      node = doc.createElement(shift);
    }
    node.textContent = text;
    fragment.append(node);
  }
  return fragment;
}

// A glossary term: a button that opens its definition in a popover (the
// Popover API: Enter or Space opens it, Escape or a click elsewhere closes it),
// the definition its accessible description, and below it a link to the
// term's entry in the page's glossary where there is one. Each use gets its own ids.
let terms = 0;
function termNode(doc, id, text, definition, more) {
  const key = `term-${id}-${++terms}`;
  const wrap = doc.createElement('span');
  wrap.className = 'term';
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'term-button';
  button.dataset.term = id;
  button.textContent = text;
  button.setAttribute('popovertarget', key);
  button.setAttribute('aria-describedby', `${key}-text`);
  const box = doc.createElement('span');
  box.id = key;
  box.className = 'term-definition';
  box.setAttribute('popover', '');
  const words = doc.createElement('span');
  words.id = `${key}-text`;
  words.append(definition);
  box.append(words);
  const link = more ? doc.createElement('a') : null;
  if (link) {
    link.className = 'term-more';
    link.href = `#glossary-${id}`;
    link.textContent = more;
    link.hidden = true;
    link.addEventListener('click', () => box.hidePopover?.());
    box.append(link);
  }
  // below the word, inside the window (the top layer ignores the page's layout)
  box.addEventListener('toggle', (event) => {
    if (event.newState !== 'open') return;
    if (link) link.hidden = !doc.getElementById(`glossary-${id}`);
    const view = doc.defaultView, at = button.getBoundingClientRect();
    const width = box.offsetWidth, height = box.offsetHeight;
    box.style.left = `${Math.max(4, Math.min(at.left, view.innerWidth - width - 4))}px`;
    box.style.top = `${at.bottom + 4 + height <= view.innerHeight ? at.bottom + 4 : Math.max(4, at.top - height - 4)}px`;
  });
  wrap.append(button, box);
  return wrap;
}
