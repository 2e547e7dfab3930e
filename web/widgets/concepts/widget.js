// Widget "concepts": the two kinds of attention of the source article —
// focused (top-down, volitional) and saliency (bottom-up) attention — and the
// cocktail-party effect that shows both, then how the focused kind maps onto
// query, key and value. Text and a drawn picture: nothing to compute, so
// compute() does not call the core.
import { element, liveElement } from '../../render/dom.js';
import { PALETTE } from '../../render/plot.js';
import { svg, FONT_FAMILY } from '../../render/svg.js';

export const name = 'concepts';
// what the reader does here: its row of the README's widget table (not shown on the page)
export const summary = 'meets the two kinds of attention (chosen and grabbed) and the cocktail party';

// the concepts, in the order they are shown and exported
const CONCEPTS = ['focused', 'saliency', 'party', 'qkv'];

export const defaults = { scene: 'focused' };

export const controls = [
  { key: 'scene', type: 'choice', label: 'scene', options: [{ value: 'focused', label: 'showFocused' }, { value: 'saliency', label: 'showSaliency' }] },
];

// Nothing to compute: the section is text and a picture (the core is not called).
export function compute(att, state) {
  return { scene: state.scene };
}

export function build(body, { t }) {
  const cards = element('div', 'cc-cards');
  const card = (id) => {
    const box = element('section', 'cc-card');
    box.dataset.concept = id;
    box.append(element('h3', 'cc-term', t.rich(`${id}Term`)), element('p', 'cc-tag', t.rich(`${id}Tag`)), element('p', 'cc-def', t.rich(`${id}Def`)));
    cards.append(box);
    return box;
  };
  const focused = card('focused'), saliency = card('saliency');
  const figure = element('figure', 'cc-figure');
  const picture = element('div', 'cc-picture');
  const caption = liveElement('figcaption', 'cc-caption');
  figure.append(picture, caption);
  const text = (id) => {
    const box = element('section', 'cc-text');
    box.dataset.concept = id;
    box.append(element('h3', 'cc-term', t.rich(`${id}Term`)), element('p', 'cc-def', t.rich(`${id}Def`)));
    return box;
  };
  body.append(cards, text('party'), figure, text('qkv'));
  return { focused, saliency, picture, caption };
}

// An arrow from (x1, y1) to (x2, y2) with a drawn head (no marker ids to collide).
function arrow(x1, y1, x2, y2, { color, width, dash = '', opacity = 1, head = true }) {
  const g = svg('g', { 'stroke-opacity': opacity, 'fill-opacity': opacity });
  g.append(svg('line', { x1, y1, x2, y2, stroke: color, 'stroke-width': width, 'stroke-dasharray': dash, 'stroke-linecap': 'round' }));
  if (head) {
    const a = Math.atan2(y2 - y1, x2 - x1), s = 6 + width * 1.6;
    const p = (da) => `${(x2 - s * Math.cos(a + da)).toFixed(1)},${(y2 - s * Math.sin(a + da)).toFixed(1)}`;
    g.append(svg('polygon', { points: `${x2},${y2} ${p(0.42)} ${p(-0.42)}`, fill: color }));
  }
  return g;
}

// The cocktail party as a picture: you (the query) and the voices (the keys);
// focused attention picks the friend, saliency attention lets your name break
// through. Colour is never the only cue: the chosen link is also thick and
// solid, the others thin and dashed. compact: a narrow layout (you above the
// voices) that stays readable on a phone.
export function diagram(scene, t, { compact = false } = {}) {
  const focused = scene === 'focused';
  const blue = PALETTE[0], vermillion = PALETTE[1];
  const color = focused ? blue : vermillion;
  const L = compact
    ? { W: 340, H: 402, you: { x: 48, y: 62 }, box: { x: 100, w: 232, h: 38 }, top: 138, step: 52 }
    : { W: 560, H: 318, you: { x: 96, y: 158 }, box: { x: 318, w: 228, h: 40 }, top: 44, step: 56 };
  const { you, box } = L;
  const yOf = (k) => L.top + k * L.step;
  // where the links leave you: the right of the circle, or its bottom when compact
  const from = compact ? [you.x, you.y + 34] : [you.x + 34, you.y];
  const root = svg('svg', { class: `cc-diagram${compact ? ' is-compact' : ' is-wide'}`, viewBox: `0 0 ${L.W} ${L.H}`, width: L.W, height: L.H, role: 'img',
    'aria-label': `${t('figureTitle')}. ${t(focused ? 'figureFocused' : 'figureSaliency')}`, 'font-family': FONT_FAMILY });
  root.append(svg('title', {}, t('figureTitle')));
  const voices = ['voiceMusic', 'voiceFriend', 'voiceChatter', 'voiceName', 'voiceGlasses'];
  root.append(svg('text', { x: box.x + box.w / 2, y: yOf(0) - 12, 'text-anchor': 'middle', 'font-size': 12, fill: 'currentColor', 'fill-opacity': 0.75 }, t('keys')));

  voices.forEach((voice, k) => {
    const y = yOf(k);
    const chosen = (focused && voice === 'voiceFriend') || (!focused && voice === 'voiceName');
    // the link between you and this voice
    const to = [box.x - 4, y + box.h / 2];
    if (chosen && focused) root.append(arrow(...from, ...to, { color, width: 5 }));
    else if (chosen) root.append(arrow(...to, from[0] + (compact ? 0 : 4), from[1] + (compact ? 4 : 0), { color, width: 5 }));
    else root.append(arrow(...from, ...to, { color: 'currentColor', width: 1.2, dash: '3 4', opacity: 0.35, head: false }));
    // the voice
    const g = svg('g', { class: chosen ? 'cc-voice is-chosen' : 'cc-voice' });
    if (chosen && !focused) {
      // a second outline: the voice "stands out"
      g.append(svg('rect', { x: box.x - 5, y: y - 5, width: box.w + 10, height: box.h + 10, rx: 12, fill: 'none', stroke: color, 'stroke-width': 1.5, 'stroke-dasharray': '5 3' }));
    }
    g.append(svg('rect', { x: box.x, y, width: box.w, height: box.h, rx: 8,
      fill: chosen ? color : 'currentColor', 'fill-opacity': chosen ? 0.16 : 0.04,
      stroke: chosen ? color : 'currentColor', 'stroke-opacity': chosen ? 1 : 0.35, 'stroke-width': chosen ? 2.5 : 1 }));
    g.append(svg('text', { x: box.x + 12, y: y + box.h / 2, 'dominant-baseline': 'central', 'font-size': 12, fill: 'currentColor',
      'fill-opacity': chosen ? 1 : 0.6, 'font-style': 'italic' }, `k${'₁₂₃₄₅'[k]}`));
    g.append(svg('text', { x: box.x + 36, y: y + box.h / 2, 'dominant-baseline': 'central', 'font-size': 13, fill: 'currentColor',
      'fill-opacity': chosen ? 1 : 0.7, 'font-weight': chosen ? 700 : 400 }, t(voice)));
    root.append(g);
  });

  // you, the listener, and what drives your attention
  root.append(
    svg('circle', { cx: you.x, cy: you.y, r: 32, fill: color, 'fill-opacity': 0.14, stroke: color, 'stroke-width': 2.5 }),
    svg('text', { x: you.x, y: you.y, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 15, 'font-weight': 700, fill: 'currentColor' }, t('you')),
  );
  const [cue, direction] = focused ? [t('goal'), `↓ ${t('topDown')}`] : [t('heard'), `↑ ${t('bottomUp')}`];
  const label = (x, y, text, attrs) => root.append(svg('text', { x, y, 'font-size': 12, fill: 'currentColor', ...attrs }, text));
  if (compact) {
    label(you.x + 44, you.y - 6, cue, { 'font-weight': 600 });
    label(you.x + 44, you.y + 14, direction, { 'fill-opacity': 0.75 });
  } else {
    label(you.x, you.y - 48, cue, { 'font-weight': 600, 'text-anchor': 'middle' });
    label(you.x, you.y + 54, direction, { 'fill-opacity': 0.75, 'text-anchor': 'middle' });
  }
  return root;
}

export function render(view, data, state, { t }) {
  view.focused.classList.toggle('is-active', data.scene === 'focused');
  view.saliency.classList.toggle('is-active', data.scene === 'saliency');
  // both layouts; the style sheet shows the one that fits the screen
  view.picture.replaceChildren(diagram(data.scene, t), diagram(data.scene, t, { compact: true }));
  view.caption.replaceChildren(t.rich(data.scene === 'focused' ? 'figureFocused' : 'figureSaliency'));
}

// The export is bilingual: this widget's words in English and in Chinese,
// loaded when a file is asked for (a page in one language has only its own).
const bothLanguages = () => Promise.all([import('./en.js'), import('./zh.js')]).then(([en, zh]) => ({ en: en.default, zh: zh.default }));

export function exports(data, state, t) {
  return {
    visual: () => diagram(data.scene, t),
    csv: () => bothLanguages().then(({ en, zh }) => ({
      header: [t('csvConcept'), t('csvTermEn'), t('csvDefEn'), t('csvTermZh'), t('csvDefZh')],
      rows: CONCEPTS.map((id) => [id, en[`${id}Term`], en[`${id}Def`], zh[`${id}Term`], zh[`${id}Def`]]),
    })),
    json: () => bothLanguages().then(({ en, zh }) => ({
      concepts: CONCEPTS.map((id) => ({ id, en: { term: en[`${id}Term`], definition: en[`${id}Def`] }, zh: { term: zh[`${id}Term`], definition: zh[`${id}Def`] } })),
    })),
  };
}
