// The gradient check on screen: a button asks the model where it trains (its
// worker, or the page) for lm.gradientCheck(), which compares the
// backpropagated gradient of a few entries of every tensor with the slope of
// the loss found by finite differences in double; the panel shows each
// tensor's largest relative error and says what the numbers show, decided
// from them against the tolerance the core's tests hold every model to.
import { element, liveElement } from '../../render/dom.js';
import { formatCount, formatPower } from '../../render/format.js';
import { headerCell, headerRow } from '../../render/table.js';

export const TOLERANCE = 1e-6;

// ask(): the controller's answer to 'gradientCheck' ({ maxRelativeError, checked, worst, tensors, step }, or
// null before the model is there) -> { panel, clear() }
export function gradientCheckPanel(t, ask) {
  const panel = element('section', 'lm-check');
  const run = element('button', 'action-button', t.rich('checkButton'));
  run.type = 'button';
  run.dataset.action = 'gradient-check';
  const result = liveElement('div', 'lm-check-result');
  panel.append(element('h3', 'section-heading', t.rich('checkHeading')), element('p', 'small-note', t.rich('checkExplain')),
    run, result);
  let asked = 0;
  run.addEventListener('click', async () => {
    const mine = ++asked;
    run.disabled = true;
    result.replaceChildren(element('p', 'small-note', t('checkRunning')));
    try {
      const check = await ask();
      if (mine === asked) result.replaceChildren(...(check ? shown(check, t) : [element('p', 'small-note', t('checkNoModel'))]));
    } catch (error) {
      if (mine === asked) result.replaceChildren(element('p', 'widget-error', t('checkError', { message: error.message })));
    } finally {
      if (mine === asked) run.disabled = false;
    }
  });
  // a new model: the last check was of another one
  const clear = () => {
    asked += 1;
    run.disabled = false;
    result.replaceChildren();
  };
  return { panel, clear };
}

// the verdict, then one row per tensor: its name, its entries compared, its largest relative error
function shown(check, t) {
  const passed = check.maxRelativeError <= TOLERANCE;
  const verdict = element('p', `lm-check-verdict ${passed ? 'is-passed' : 'is-failed'}`, t.rich(passed ? 'checkPassed' : 'checkFailed', {
    step: formatCount(check.step), checked: formatCount(check.checked), tensors: formatCount(check.tensors.length),
    error: formatPower(check.maxRelativeError), worst: check.worst, tolerance: formatPower(TOLERANCE),
  }));
  verdict.dataset.field = 'checkVerdict';
  const table = element('table', 'lm-check-table');
  table.append(element('caption', '', t.rich('checkCaption', { step: formatCount(check.step) })),
    headerRow([headerCell(t.rich('checkTensor')), headerCell(t.rich('checkEntries')), headerCell(t.rich('checkLargest'))]));
  const body = element('tbody');
  for (const tensor of check.tensors) {
    const row = element('tr', tensor.maxRelativeError > TOLERANCE ? 'is-failed' : '');
    const name = headerCell(tensor.name, { scope: 'row' });
    const error = element('td', 'number', formatPower(tensor.maxRelativeError));
    error.dataset.field = 'tensorError';
    row.append(name, element('td', 'number', formatCount(tensor.checked)), error);
    body.append(row);
  }
  table.append(body);
  const scroll = element('div', 'table-scroll');
  scroll.append(table);
  return [verdict, scroll];
}
