// A matrix as an HTML table of numbers, with row and column labels: the text
// view of every map, readable by screen readers and copyable.
import { element } from './dom.js';
import { formatNumber } from './format.js';
import { cornerCell, headerCell, headerRow } from './table.js';

// m: { rows, cols, data }; rowLabels/colLabels: strings (default 1, 2, ...);
// allowed: optional mask (0 shows maskedText).
export function matrixTable({ m, rowLabels = null, colLabels = null, digits = 3, caption = '', allowed = null, maskedText = '−∞', maxCols = 64 }) {
  const table = element('table', 'matrix');
  if (caption) table.append(element('caption', '', caption));
  const cols = Math.min(m.cols, maxCols);
  const labels = Array.from({ length: cols }, (_, j) => (colLabels ? colLabels[j] : String(j + 1)));
  if (cols < m.cols) labels.push('…');
  const thead = headerRow([cornerCell(), ...labels.map((label) => headerCell(label))]);
  const body = element('tbody');
  for (let i = 0; i < m.rows; i++) {
    const tr = element('tr');
    tr.append(headerCell(rowLabels ? rowLabels[i] : String(i + 1), { scope: 'row' }));
    for (let j = 0; j < cols; j++) {
      const masked = allowed && !allowed[i * m.cols + j];
      tr.append(element('td', masked ? 'is-masked' : '', masked ? maskedText : formatNumber(m.data[i * m.cols + j], { digits })));
    }
    if (cols < m.cols) tr.append(element('td', '', '…'));
    body.append(tr);
  }
  table.append(thead, body);
  const box = element('div', 'table-scroll');
  box.append(table);
  return box;
}
