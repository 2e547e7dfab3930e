// The small DOM parts that several widgets build alike: an action button, a
// grid of live numbers, a run's bar and a plot's figure. Pure DOM; the words come from the
// widget's t.
import { element, liveElement } from './dom.js';

// A button of an action bar: its label key, its data-action (what tests press), what it does
export function actionButton(t, label, action, onClick) {
  const b = element('button', 'action-button', t.rich(label));
  b.type = 'button';
  b.dataset.action = action;
  b.addEventListener('click', onClick);
  return b;
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

// A run's bar: its button, a progress bar named `label` and a status line announced
// as it changes, classed prefix-run, prefix-progress and statusClass
//   -> { bar, progress, status }
export function runBar(button, label, prefix, statusClass = `${prefix}-status`) {
  const progress = element('progress', `${prefix}-progress`);
  progress.setAttribute('aria-label', label);
  const status = liveElement('p', statusClass);
  const bar = element('div', `${prefix}-run`);
  bar.append(button, progress, status);
  return { bar, progress, status };
}

// a figure with its caption (a node) and the box its plot goes into
export function plotFigure(caption, className = 'plot-figure') {
  const figure = element('figure', className);
  const box = element('div', 'plot-box');
  figure.append(element('figcaption', '', caption), box);
  return { figure, box };
}
