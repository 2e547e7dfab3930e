// The language-model widget's drawing: a snapshot of the model (engine.js)
// into the widget's DOM, and the figures its export puts together. Pure
// functions of their data (the view's elements are only filled in); JS
// formats, and picks the head to highlight: the one whose score is highest.
import { element } from '../../runtime/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber } from '../../render/format.js';
import { heatmap } from '../../render/heatmap.js';
import { linePlot } from '../../render/plot.js';
import { mapThumbnail } from '../../render/thumbnail.js';

export const percent = (x) => formatNumber(100 * x, { digits: 0, unit: '%' }).replace('\u00a0', '');
const fixed = (x, digits = 3) => formatNumber(x, { digits });
const HIGHLIGHT = '#d55e00';
const OTHERS = '#8a8f98';
// ⏎ (the boundary) and the characters, as the core names them
const shown = (token) => (token === ' ' ? '␣' : token);

export const headName = (t, layer, head) => t('headName', { l: layer + 1, h: head + 1 });

// the (layer, head) with the highest score in the last entry of a history, or null
export function bestHead(scores, field) {
  const last = scores.at(-1)?.[field];
  if (!last) return null;
  let best = null;
  last.forEach((row, l) => row.forEach((v, h) => { if (!best || v > best.value) best = { layer: l, head: h, value: v }; }));
  return best;
}

export function lossPlot(snapshot, t) {
  const steps = Array.from(snapshot.losses, (_, k) => k + 1);
  const last = Math.max(1, snapshot.step);
  const series = [
    { label: t('batchLoss'), x: steps, y: Array.from(snapshot.losses) },
    { label: t('heldLoss'), x: snapshot.evaluations.map((e) => e.step), y: snapshot.evaluations.map((e) => e.loss), points: snapshot.evaluations.length < 40 },
  ];
  if (Number.isFinite(snapshot.unigram)) series.push({ label: t('unigram'), x: [0, last], y: [snapshot.unigram, snapshot.unigram], color: OTHERS });
  const all = series.flatMap((s) => s.y).filter(Number.isFinite);
  return linePlot({
    title: t('lossTitle'), series, xLabel: t('stepAxis'), yLabel: t('lossAxis'), width: 420, height: 240,
    xDomain: [0, last], yDomain: [0, Math.max(1, ...all) * 1.35],
  });
}

// one line per head over training, the best one in colour and named
export function scorePlot(snapshot, field, t) {
  const best = bestHead(snapshot.scores, field);
  const series = [];
  snapshot.scores[0]?.[field].forEach((row, l) => row.forEach((_, h) => {
    const isBest = best && best.layer === l && best.head === h;
    series.push({ label: isBest ? t('bestHead', { head: headName(t, l, h) }) : '', x: snapshot.scores.map((s) => s.step),
      y: snapshot.scores.map((s) => s[field][l][h]), color: isBest ? HIGHLIGHT : OTHERS, isBest });
  }));
  // the highlighted head first: solid, and the only one in the legend (the others dashed, grey)
  series.sort((a, b) => Number(b.isBest) - Number(a.isBest));
  const title = t(field === 'previousLine' ? 'previousLineTitle' : 'punctuationTitle');
  return linePlot({
    title, series: series.map(({ isBest, ...s }) => s), xLabel: t('stepAxis'), yLabel: t('weightAxis'), width: 420, height: 240,
    xDomain: [0, Math.max(1, snapshot.step)], yDomain: [0, 1],
  });
}

// the focused head's map with the example's characters as labels
export function mapFigure(matrix, tokens, t, title) {
  const labels = tokens.map(shown);
  return heatmap({
    rowLabels: labels, colLabels: labels, axes: { rows: t('axisQueries'), cols: t('axisKeys') }, values: matrix.data, min: 0, max: 1, digits: 2, title,
    describe: (i, j) => t('cellLabel', { query: labels[i], i, key: labels[j], j, weight: fixed(matrix.data[i * matrix.cols + j]) }),
  }).element;
}

function thumbnail(view, snapshot, l, h, t, best) {
  const w = snapshot.example.weights[l][h];
  const index = l * snapshot.example.weights[0].length + h;
  const button = element('button', 'lm-head');
  button.type = 'button';
  button.dataset.layer = String(l);
  button.dataset.head = String(h);
  button.setAttribute('aria-pressed', String(index === view.focus));
  const canvas = mapThumbnail({ values: w.data, rows: w.rows, cols: w.cols });
  const caption = element('span', 'lm-head-name', headName(t, l, h));
  button.append(canvas, caption);
  const s = snapshot.scores.at(-1);
  if (s) {
    const line = element('span', 'lm-head-scores', t('headScores', { back: fixed(s.previousLine[l][h], 2), punctuation: fixed(s.punctuation[l][h], 2) }));
    button.append(line);
    for (const [field, mark] of [['previousLine', 'bestBack'], ['punctuation', 'bestPunctuation']]) {
      if (best[field] && best[field].layer === l && best[field].head === h) {
        button.classList.add('is-best');
        button.append(element('span', 'lm-badge', t(mark)));
        button.dataset.best = [button.dataset.best, field].filter(Boolean).join(' ');
      }
    }
  }
  button.title = t('headLabel', { head: headName(t, l, h) });  // its name is what it shows
  button.addEventListener('click', () => view.onFocus(index));
  return button;
}

function samplesList(snapshot, t) {
  const list = element('ol', 'lm-samples');
  snapshot.samples.texts.forEach((text, k) => {
    const item = element('li', 'lm-sample');
    item.append(element('span', 'lm-sample-text', text || t('emptySample')));
    if (snapshot.samples.form) {
      const ok = snapshot.samples.form[k];
      item.classList.add(ok ? 'is-right' : 'is-wrong');
      item.dataset.form = String(ok);
      item.append(element('span', 'lm-mark', t(ok ? 'formOk' : 'formBad')));
    } else {
      const known = snapshot.samples.known[k];
      item.dataset.known = String(known);
      item.append(element('span', 'lm-mark', t(known ? 'knownName' : 'newName')));
    }
    list.append(item);
  });
  return list;
}

function nextBars(next, t) {
  if (next.error) {
    const p = element('p', 'lm-next-error', t('nextError', { message: next.error }));
    p.setAttribute('role', 'alert');
    return [p];
  }
  const top = next.probabilities[0] || 1;
  const table = element('table', 'lm-next');
  table.append(element('caption', 'visually-hidden', t('nextCaption', { prefix: next.prefix })));
  next.tokens.forEach((token, k) => {
    const p = next.probabilities[k];
    const tr = element('tr');
    tr.dataset.token = token;
    const bar = element('td', 'lm-next-bar');
    bar.append(hbar({ value: p, max: top, label: t('nextLabel', { token: shown(token), p: fixed(p) }) }));
    tr.append(element('th', 'lm-next-token', shown(token)), bar, element('td', 'lm-next-p', fixed(p)));
    table.append(tr);
  });
  return [element('p', 'lm-next-after', t('nextAfter', { prefix: next.prefix || t('nothing') })), table];
}

// Overfitting, as the curves show it: the held-out loss has risen at least
// RISE nats above its lowest, while the batch loss (the mean of the WINDOW
// steps before each of the two evaluations) went on falling. Returns null, or
// { best: { step, loss }, now: { step, loss } }, the two held-out evaluations.
//   evaluations: [{ step, loss }] in step order; losses: the batch loss of step k at k - 1
const RISE = 0.05;
const WINDOW = 50;
export function overfitting(evaluations, losses) {
  if (evaluations.length < 2) return null;
  const best = evaluations.reduce((low, e) => (e.loss < low.loss ? e : low));
  const now = evaluations.at(-1);
  if (now.step <= best.step || now.loss - best.loss < RISE) return null;
  const before = (step) => {
    const part = Array.from(losses.slice(Math.max(0, step - WINDOW), step));
    return part.length ? part.reduce((a, b) => a + b) / part.length : null;
  };
  const then = before(best.step), later = before(now.step);
  return then !== null && later !== null && later < then ? { best, now } : null;
}

// The numbers of every snapshot; the figures when it is a full one (and `figures`).
export function drawSnapshot(view, snapshot, { t, corpus, figures = true }) {
  const last = snapshot.losses.length ? snapshot.losses[snapshot.losses.length - 1] : null;
  view.fields.step.textContent = formatNumber(snapshot.step, { digits: 0 });
  view.fields.loss.textContent = last === null ? '—' : fixed(last);
  view.fields.rate.textContent = snapshot.tokensPerSecond === null ? '—' : formatNumber(snapshot.tokensPerSecond, { digits: 0 });
  const full = view.full;
  if (!full) return;
  const held = full.evaluations.at(-1);
  view.fields.heldLoss.textContent = held ? fixed(held.loss) : '—';
  // said in words: the held-out loss rising while the batch loss falls
  const over = overfitting(full.evaluations, snapshot.losses);
  view.overfit.box.hidden = !over;
  view.overfit.box.dataset.from = over ? String(over.best.step) : '';
  if (over) {
    view.overfit.text.textContent = t('overfit', { from: formatNumber(over.best.step, { digits: 0 }), best: fixed(over.best.loss),
      now: fixed(over.now.loss), step: formatNumber(over.now.step, { digits: 0 }) });
  }
  view.fields.unigram.textContent = Number.isFinite(full.unigram) ? fixed(full.unigram) : '—';
  if (!figures) return;
  view.drawn = performance.now();
  // the curves run to this step; the rest of the figures are those of the last full snapshot
  const curves = { ...full, step: snapshot.step, losses: snapshot.losses };
  view.lossBox.replaceChildren(lossPlot(curves, t));
  const poems = corpus === 'poems';
  view.scoreFigures.hidden = !poems;
  if (poems) {
    view.backBox.replaceChildren(scorePlot(curves, 'previousLine', t));
    view.punctuationBox.replaceChildren(scorePlot(curves, 'punctuation', t));
  }
  view.source.textContent = t('source', {
    name: t(poems ? 'poems' : 'names'), source: full.corpus.source, license: full.corpus.license,
    train: formatNumber(full.corpus.train, { digits: 0 }), heldOut: formatNumber(full.corpus.heldOut, { digits: 0 }),
  });
  view.sizes.textContent = t('sizes', {
    vocab: formatNumber(full.vocabulary.size, { digits: 0 }), unknown: formatNumber(full.vocabulary.unknown, { digits: 0 }),
    coverage: formatNumber(100 * full.vocabulary.coverage, { digits: 1 }), parameters: formatNumber(full.parameters, { digits: 0 }),
  });

  const best = { previousLine: bestHead(full.scores, 'previousLine'), punctuation: bestHead(full.scores, 'punctuation') };
  const heads = [];
  full.example.weights.forEach((layer, l) => layer.forEach((_, h) => heads.push(thumbnail(view, full, l, h, t, best))));
  view.heads.style.setProperty('--heads', String(full.example.weights[0].length));
  view.heads.replaceChildren(...heads);
  const perLayer = full.example.weights[0].length;
  const focus = Math.min(view.focus, full.example.weights.length * perLayer - 1);
  const [l, h] = [Math.floor(focus / perLayer), focus % perLayer];
  const title = t('focusTitle', { head: headName(t, l, h), step: formatNumber(full.step, { digits: 0 }) });
  view.focusCaption.textContent = title;
  view.focusMap.replaceChildren(mapFigure(full.example.weights[l][h], full.example.tokens, t, title));
  view.focusMap.dataset.layer = String(l);
  view.focusMap.dataset.head = String(h);
  view.focusMap.dataset.step = String(full.step);  // the step the figures are of

  view.samples.replaceChildren(samplesList(full, t));
  view.form.hidden = !full.samples.form;
  if (full.samples.form) {
    view.form.textContent = t('formShare', { share: percent(full.samples.share), n: full.samples.texts.length });
    view.form.dataset.share = String(full.samples.share);
  }
  view.next.replaceChildren(...nextBars(full.next, t));
}
