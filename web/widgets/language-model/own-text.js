// The reader's own text for the language-model widget (corpus=own): a box to
// paste it into or drop a file on, a file chooser, and the button that trains
// on it. The text stays in the page: it goes into the widget's state under a
// key no control has (so never into the URL) and from there to the engine,
// whose core splits it (att.ownCorpus) or says why it cannot.
import { element } from '../../render/dom.js';
import { formatNumber } from '../../render/format.js';
import { actionButton } from '../../render/parts.js';

// the bytes the core reads at most (kOwnMaxBytes, cpp/attention/language_model/text.hpp): a larger file is not read
export const OWN_MAX_BYTES = 2000000;

// -> { panel, show(visible, text) }; onText(text): the reader asked to train on a text
export function ownTextPanel(t, onText) {
  const panel = element('div', 'lm-own');
  const box = element('textarea', 'lm-own-text');
  box.rows = 6;
  box.placeholder = t('ownPlaceholder');
  box.setAttribute('aria-label', t('ownLabel'));
  const count = element('span', 'lm-own-count small-note');
  count.setAttribute('role', 'status');
  const problem = element('p', 'widget-error lm-own-error');
  problem.setAttribute('role', 'alert');
  problem.hidden = true;
  const file = element('input', 'lm-own-file');
  file.type = 'file';
  file.accept = '.txt,.md,.csv,text/plain';
  file.setAttribute('aria-label', t('ownFile'));
  const counted = () => {
    count.textContent = t('ownCount', { n: formatNumber([...box.value].length, { digits: 0 }) });
  };
  // a file's text into the box, or why it was not read
  const read = async (f) => {
    problem.hidden = true;
    if (f.size > OWN_MAX_BYTES) {
      problem.textContent = t('ownTooBig', { name: f.name, bytes: formatNumber(f.size, { digits: 0 }), max: formatNumber(OWN_MAX_BYTES, { digits: 0 }) });
      problem.hidden = false;
      return;
    }
    box.value = await f.text();
    counted();
  };
  box.addEventListener('input', counted);
  file.addEventListener('change', () => { if (file.files[0]) read(file.files[0]); });
  panel.addEventListener('dragover', (event) => { event.preventDefault(); panel.classList.add('is-dropping'); });
  panel.addEventListener('dragleave', () => panel.classList.remove('is-dropping'));
  panel.addEventListener('drop', (event) => {
    event.preventDefault();
    panel.classList.remove('is-dropping');
    const f = event.dataTransfer?.files?.[0];
    if (f) read(f);
  });
  const use = actionButton(t, 'ownUse', 'own-use', () => onText(box.value));
  const actions = element('div', 'lm-own-actions');
  actions.append(use, file, count);
  panel.append(element('p', 'small-note', t.rich('ownExplain')), box, actions, problem);
  return {
    panel,
    show(visible, text) {
      panel.hidden = !visible;
      if (visible && text && !box.value) {
        box.value = text;
        counted();
      }
    },
  };
}
