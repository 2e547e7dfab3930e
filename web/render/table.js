// Table headers, built one way for every widget. A header cell always has
// text a screen reader can read: a name, and optionally a second line (a unit,
// a formula). The top-left corner of a matrix heads nothing, so it is a <td>.
import { element } from './dom.js';

// <th scope=col|row class=className>: <span.th-name>name</span><span.th-sub>sub</span>.
// With no sub, the name is the cell's only content (no span), as a plain header.
// name and sub: a string, or nodes (a message typeset by t.rich).
export function headerCell(name, { sub, className = '', scope = 'col' } = {}) {
  const cell = sub === undefined ? element('th', className, name) : element('th', className);
  cell.scope = scope;
  if (sub !== undefined) cell.append(element('span', 'th-name', name), element('span', 'th-sub', sub));
  return cell;
}

// The empty top-left cell above the row labels.
export const cornerCell = () => element('td', 'corner');

// A <thead> of one row of cells (elements).
export function headerRow(cells) {
  const row = element('tr');
  row.append(...cells);
  const head = element('thead');
  head.append(row);
  return head;
}
