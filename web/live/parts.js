// What the widgets that train live (training, language-model) build alike:
// the Train / One step / Reset bar and the controller's status on it. Pure
// DOM; the sentences come from the widget's t.
import { element } from '../render/dom.js';
import { formatNumber } from '../render/format.js';
import { actionButton } from '../render/parts.js';

// controller() gives the widget's controller (made after its view)
export function trainingBar(t, controller) {
  const button = (label, action, onClick) => actionButton(t, label, action, onClick);
  // Pause while it trains or replays a link's steps
  const play = button('train', 'train', () => {
    const { running, replaying } = controller().status;
    if (running || replaying) controller().pause();
    else controller().train();
  });
  play.setAttribute('aria-pressed', 'false');
  const one = button('stepOnce', 'step', () => controller().stepOnce());
  const reset = button('reset', 'reset', () => controller().reset());
  const bar = element('div', 'action-bar');
  bar.append(play, one, reset);
  return { bar, play, one, reset };
}

// The controller's status (c.status) on the bar, the status line and the
// fallback note of a view { play, one, note, status }; the status line's
// data-mode, data-running (until the step where it stopped is shown) and
// data-replaying say it to tests and styles.
export function showStatus(view, s, t, { rateDigits = 0 } = {}) {
  const busy = s.running || Boolean(s.replaying);
  view.play.replaceChildren(t.rich(busy ? 'pause' : 'train'));
  view.play.setAttribute('aria-pressed', String(busy));
  view.note.hidden = s.mode !== 'main';
  view.one.disabled = Boolean(s.replaying);
  const where = t(s.mode === 'worker' ? 'inWorker' : s.mode === 'main' ? 'onMainThread' : 'starting');
  const step = formatNumber(s.step, { digits: 0 });
  const text = s.replaying ? t('replaying', { step, target: formatNumber(s.replaying, { digits: 0 }) })
    : s.running ? t('running', { rate: formatNumber(s.stepsPerSecond, { digits: rateDigits }) })
      : t('resting', { step });
  view.status.textContent = `${text} · ${where}`;
  view.status.dataset.mode = s.mode;
  view.status.dataset.running = String(s.running || s.stopping);  // stopping: its last step is still to come
  view.status.dataset.replaying = String(Boolean(s.replaying));
}
