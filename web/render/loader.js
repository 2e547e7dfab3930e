// The view of a model file loading (web/encoder/encoder.js reports its status): a
// progress bar while the file streams in, then one status line; a button to
// try again after a failure. Drawing only: the status comes from the loader.
//   modelLoader(t, onRetry) -> view { element, ... }
//   showModelStatus(view, status, t)
//     status: { phase: 'waiting' | 'fetching' | 'preparing' | 'ready' | 'failed', loaded, total, fromCache, seconds }
import { element, liveElement } from './dom.js';
import { formatNumber } from './format.js';

const MB = 1e6;

export function modelLoader(t, onRetry) {
  const loader = element('div', 'model-loader');
  const progress = element('progress', 'model-progress');
  progress.setAttribute('aria-label', t('progressLabel'));
  const status = element('p', 'model-status');
  const announce = liveElement('p', 'visually-hidden');
  const retry = element('button', 'preset model-retry', t.rich('retry'));
  retry.type = 'button';
  retry.hidden = true;
  retry.addEventListener('click', onRetry);
  loader.append(progress, status, announce, retry);
  return { element: loader, progress, status, announce, retry };
}

// the status line of a phase, sizes in MB with one decimal
function statusText({ phase, loaded, total, fromCache, seconds, file }, known, t) {
  const mb = (bytes) => formatNumber(bytes / MB, { digits: 1 });
  const kind = { q: 'fileQuantized', f16: 'fileFloat16', f32: 'fileFloat32' }[/\.(q|f16|f32)\.bin$/.exec(file ?? '')?.[1]] ?? 'fileOther';
  if (phase === 'waiting') return t('waiting');
  if (phase === 'fetching') return t(fromCache ? 'reading' : known ? 'fetching' : 'fetchingUnknown', { loaded: mb(loaded), total: mb(total) });
  if (phase === 'preparing') return t('preparing', { total: mb(loaded) });
  if (phase === 'ready') return t(fromCache ? 'readyCache' : 'readyNetwork', { file: t(kind, { name: file ?? '' }), total: mb(total), seconds: formatNumber(seconds, { digits: 1 }) });
  return t('failed');
}

export function showModelStatus(view, status, t) {
  const { phase, loaded, total, fromCache } = status;
  const known = total > 0 && loaded <= total;
  const text = statusText(status, known, t);
  view.status.textContent = text;
  // screen readers hear each phase once, not every chunk
  if (view.element.dataset.phase !== phase) view.announce.textContent = phase === 'fetching' ? t('progressLabel') : text;
  view.element.dataset.phase = phase;
  view.element.dataset.source = fromCache ? 'cache' : 'network';
  view.element.dataset.where = status.where ?? '';  // the encoder's thread: 'worker' or 'page'
  // a determinate bar while the size is known; indeterminate otherwise
  if (phase === 'fetching' && known) {
    view.progress.max = total;
    view.progress.value = loaded;
  } else if (phase === 'ready' || phase === 'preparing') {
    view.progress.max = 1;
    view.progress.value = 1;
  } else {
    view.progress.removeAttribute('value');
  }
  view.progress.hidden = phase === 'ready' || phase === 'failed';
  view.retry.hidden = phase !== 'failed';
}
