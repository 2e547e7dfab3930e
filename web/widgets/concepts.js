// Widget "concepts": the two kinds of attention of the source article —
// focused (top-down, volitional) and saliency (bottom-up) attention — and the
// cocktail-party effect that shows both, then how the focused kind maps onto
// query, key and value. Text and a drawn picture: nothing to compute, so
// compute() does not call the core.
import { element } from '../dom.js';
import { PALETTE } from '../render/plot.js';
import { svg } from '../render/svg.js';

export const name = 'concepts';

// the concepts, in the order they are shown and exported
const CONCEPTS = ['focused', 'saliency', 'party', 'qkv'];

export const strings = {
  en: {
    title: 'Two kinds of attention, and the cocktail party',
    intro: 'Before the numbers: what attention means for people, and which of its two kinds the attention mechanism imitates.',
    scene: 'Show in the picture', showFocused: 'Focused attention', showSaliency: 'Saliency attention',
    focusedTerm: 'Focused attention', focusedTag: 'top-down · conscious · volitional cue',
    focusedDef: 'Top-down, conscious attention. It is driven by a volitional cue: a goal you hold decides what to attend to.',
    saliencyTerm: 'Saliency attention', saliencyTag: 'bottom-up · unconscious · non-volitional cue',
    saliencyDef: 'Bottom-up, unconscious attention. It is driven by a non-volitional cue: the input itself stands out. It leans on the sensory input and can be modelled by a simple fully-connected layer, by max pooling or by a gating mechanism.',
    partyTerm: 'The cocktail-party effect',
    partyDef: 'At a noisy cocktail party you can still follow what your friend says and ignore the other voices, despite all the noise (focused attention). Yet if a word that matters to you, such as your name, comes up in the background, you notice it at once (saliency attention).',
    qkvTerm: 'From the party to query, key and value',
    qkvDef: 'The attention mechanism usually means focused attention. The volitional cue is called the query Q; attention pooling steers the selection towards the sensory inputs, called the values V. Each value V is paired with a key K, the non-volitional cue. The widgets below compute exactly this, with numbers.',
    figureTitle: 'The cocktail party: who you listen to',
    figureFocused: 'Focused (top-down): your goal, “follow my friend”, acts as the query and picks the friend’s voice among the keys; the other voices fade.',
    figureSaliency: 'Saliency (bottom-up): nobody asked for it, but your name stands out from the background and grabs your attention.',
    you: 'you', goal: 'query: “follow my friend”', heard: 'noticed!',
    voiceFriend: 'friend’s voice', voiceMusic: 'music', voiceChatter: 'other guests chatting', voiceName: '“… Alex …” (your name)', voiceGlasses: 'clinking glasses',
    keys: 'keys', topDown: 'top-down', bottomUp: 'bottom-up',
    csvConcept: 'concept', csvTermEn: 'term (English)', csvDefEn: 'definition (English)', csvTermZh: 'term (Chinese)', csvDefZh: 'definition (Chinese)',
  },
  zh: {
    title: '注意力的两种类型与鸡尾酒会效应',
    intro: '在进入数字之前：人的注意力是什么，注意力机制模仿的是其中哪一种。',
    scene: '图中显示', showFocused: '聚焦式注意力', showSaliency: '显著性注意力',
    focusedTerm: '聚焦式注意力', focusedTag: '自上而下 · 有意识 · 自主性提示',
    focusedDef: '自上而下的有意识的注意力，包含自主性提示：由你心中的目标决定关注什么。',
    saliencyTerm: '显著性注意力', saliencyTag: '自下而上 · 无意识 · 非自主性提示',
    saliencyDef: '自下而上的无意识的注意力，包含非自主性提示：输入本身足够突出。显著性注意力偏向于感官输入，可以用简单的全连接层，或者是最大汇聚、门控机制进行模拟和实现。',
    partyTerm: '鸡尾酒会效应',
    partyDef: '当一个人在吵闹的鸡尾酒会上和朋友聊天时，尽管周围噪音干扰很多，他还是可以听到朋友的谈话内容，而忽略其他人的声音（聚焦式注意力）。同时，如果背景声中有重要的词（比如他的名字），他会马上注意到（显著性注意力）。',
    qkvTerm: '从酒会到查询、键和值',
    qkvDef: '注意力机制，通常指的是聚焦式注意力。自主性提示被称为查询 Q（query），通过注意力汇聚将选择引导至感官输入，感官输入被称为值 V（value）。其中，每一个值 V 都和一个键 K（key）配对，作为非自主性提示。下面的组件用真实的数字计算的正是这一过程。',
    figureTitle: '鸡尾酒会：你在听谁说话',
    figureFocused: '聚焦式（自上而下）：你的目标“听朋友说话”就是查询，它在各个键中选出朋友的声音；其他声音被忽略。',
    figureSaliency: '显著性（自下而上）：没有人刻意去找，但你的名字从背景声中凸显出来，立刻吸引了你的注意。',
    you: '你', goal: '查询：“听朋友说话”', heard: '注意到了！',
    voiceFriend: '朋友的声音', voiceMusic: '音乐', voiceChatter: '其他客人的闲聊', voiceName: '“……小明……”（你的名字）', voiceGlasses: '碰杯声',
    keys: '键', topDown: '自上而下', bottomUp: '自下而上',
    csvConcept: '概念', csvTermEn: '术语（英文）', csvDefEn: '定义（英文）', csvTermZh: '术语（中文）', csvDefZh: '定义（中文）',
  },
};

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
    box.append(element('h3', 'cc-term', t(`${id}Term`)), element('p', 'cc-tag', t(`${id}Tag`)), element('p', 'cc-def', t(`${id}Def`)));
    cards.append(box);
    return box;
  };
  const focused = card('focused'), saliency = card('saliency');
  const figure = element('figure', 'cc-figure');
  const picture = element('div', 'cc-picture');
  const caption = element('figcaption', 'cc-caption');
  caption.setAttribute('aria-live', 'polite');
  figure.append(picture, caption);
  const text = (id) => {
    const box = element('section', 'cc-text');
    box.dataset.concept = id;
    box.append(element('h3', 'cc-term', t(`${id}Term`)), element('p', 'cc-def', t(`${id}Def`)));
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
    'aria-label': `${t('figureTitle')}. ${t(focused ? 'figureFocused' : 'figureSaliency')}`, 'font-family': 'system-ui, sans-serif' });
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
  view.caption.textContent = t(data.scene === 'focused' ? 'figureFocused' : 'figureSaliency');
}

export function exports(data, state, t) {
  const en = (key) => strings.en[key], zh = (key) => strings.zh[key];
  return {
    visual: () => diagram(data.scene, t),
    csv: () => ({
      header: [t('csvConcept'), t('csvTermEn'), t('csvDefEn'), t('csvTermZh'), t('csvDefZh')],
      rows: CONCEPTS.map((id) => [id, en(`${id}Term`), en(`${id}Def`), zh(`${id}Term`), zh(`${id}Def`)]),
    }),
    json: () => ({
      concepts: CONCEPTS.map((id) => ({ id, en: { term: en(`${id}Term`), definition: en(`${id}Def`) }, zh: { term: zh(`${id}Term`), definition: zh(`${id}Def`) } })),
    }),
  };
}
