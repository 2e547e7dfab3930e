// What the two widgets that train (training, language-model) build alike: the
// Train / One step / Reset bar, the grid of live numbers and a plot's figure.
// Pure DOM; the sentences come from the widget's t.
import { element } from '../dom.js';

// controller() gives the widget's controller (made after its view)
export function trainingBar(t, controller) {
  const button = (label, action, onClick) => {
    const b = element('button', 'action-button', t.rich(label));
    b.type = 'button';
    b.dataset.action = action;
    b.addEventListener('click', onClick);
    return b;
  };
  const play = button('train', 'train', () => (controller().status.running ? controller().pause() : controller().train()));
  play.setAttribute('aria-pressed', 'false');
  const one = button('stepOnce', 'step', () => controller().stepOnce());
  const reset = button('reset', 'reset', () => controller().reset());
  const bar = element('div', 'action-bar');
  bar.append(play, one, reset);
  return { bar, play, one, reset };
}

// stats: [[label key, field name]] -> { grid, fields: { field: <output> } }
export function statGrid(t, stats) {
  const grid = element('div', 'stat-grid');
  const fields = {};
  for (const [label, field] of stats) {
    const box = element('div', 'stat-box');
    const value = element('output', 'stat-value', '—');
    value.dataset.field = field;
    box.append(element('span', 'stat-label', t.rich(label)), value);
    grid.append(box);
    fields[field] = value;
  }
  return { grid, fields };
}

// a figure with its caption (a node) and the box its plot goes into
export function plotFigure(caption, className = 'plot-figure') {
  const figure = element('figure', className);
  const box = element('div', 'plot-box');
  figure.append(element('figcaption', '', caption), box);
  return { figure, box };
}
