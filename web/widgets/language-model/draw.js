// The language-model widget's drawing: a snapshot of the model (engine.js)
// into the widget's DOM, and the figures its export puts together. Pure
// functions of their data (the view's elements are only filled in); JS
// formats, and picks the head to highlight: the one whose score is highest.
import { element } from '../../render/dom.js';
import { hbar } from '../../render/bars.js';
import { formatNumber } from '../../render/format.js';
import { heatmap } from '../../render/heatmap.js';
import { legendHeadroom, linePlot } from '../../render/plot.js';
import { CORPORA, ROLE_FORMED } from './engine.js';
import { mapThumbnail } from '../../render/thumbnail.js';

export const percent = (x) => formatNumber(100 * x, { digits: 0, unit: '%' }).replace('\u00a0', '');
const fixed = (x, digits = 3) => formatNumber(x, { digits });
const HIGHLIGHT = '#d55e00';
const OTHERS = '#8a8f98';
// ⏎ (the boundary) and the characters, as the core names them
const shown = (token) => (token === ' ' ? '␣' : token);

export const headName = (t, layer, head) => t('headName', { l: layer + 1, h: head + 1 });

// the head roles (lm.headRoles), in the order the core breaks ties
export const ROLES = ['previous', 'self', 'first', 'induction', 'line'];
const isRole = (field) => ROLES.includes(field);
// a plotted score's history: the roles on the held-out texts, or the poems' scores on the example
const historyOf = (snapshot, field) => (isRole(field) ? snapshot.roles : snapshot.scores);

// the (layer, head) with the highest score in the last entry of a history, or null
export function bestHead(scores, field) {
  const last = scores.at(-1)?.[field];
  if (!last) return null;
  let best = null;
  last.forEach((row, l) => row.forEach((v, h) => { if (Number.isFinite(v) && (!best || v > best.value)) best = { layer: l, head: h, value: v }; }));
  return best;
}

// a head's role in a roles entry: the highest of its scores when it reaches ROLE_FORMED, else null
export function roleOf(entry, l, h) {
  let best = null;
  for (const role of ROLES) {
    const v = entry?.[role][l][h];
    if (Number.isFinite(v) && v >= ROLE_FORMED && (!best || v > best.value)) best = { role, value: v };
  }
  return best;
}

// The induction step: the first snapshot where a head after the first layer
// scores ROLE_FORMED as `induction` (only such a head can read what an earlier
// head wrote about the previous character). { step, layer, head, value } or null.
export function inductionStep(roles) {
  for (const entry of roles) {
    let found = null;
    entry.induction.forEach((row, l) => row.forEach((v, h) => {
      if (l > 0 && v >= ROLE_FORMED && (!found || v > found.value)) found = { step: entry.step, layer: l, head: h, value: v };
    }));
    if (found) return found;
  }
  return null;
}

// The unigram's held-out loss: the ladder's first rung, the one number the box,
// the dotted line and the sentences give (null before the ladder is counted)
export const unigramOf = (snapshot) => snapshot?.baselines?.find((r) => r.order === 1)?.loss ?? null;

// The n-gram ladder against the model's held-out loss: the best rung it has
// passed and the next one up (the easiest not passed), each { order, loss } (or null)
export function ladderPosition(ladder, loss) {
  const sorted = ladder.slice().sort((a, b) => b.loss - a.loss);  // worst (highest) first
  const passed = sorted.filter((r) => r.loss > loss);
  const ahead = sorted.filter((r) => r.loss <= loss);
  return { passed: passed.at(-1) ?? null, next: ahead[0] ?? null };
}

// A count model of longer runs that does worse than a shorter one: the best
// rung and the longest rung worse than it, { best, worse }, or null when the
// ladder only goes down. (On held-out characters whose run the longer model
// never saw, add-k can only guess evenly: its rung's `unseen`, from the core.)
export function ladderInversion(ladder) {
  if (!ladder?.length) return null;
  const best = ladder.reduce((low, rung) => (rung.loss < low.loss ? rung : low));
  const worse = ladder.filter((rung) => rung.order > best.order && rung.loss > best.loss);
  return worse.length ? { best, worse: worse.at(-1) } : null;
}

// The batch and held-out losses; for texts written twice, the loss over each
// half and the induction step marked; the n-gram ladder as dotted lines, each
// named at its right end.
export function lossPlot(snapshot, t) {
  const steps = Array.from(snapshot.losses, (_, k) => k + 1);
  const last = Math.max(1, snapshot.step);
  const series = [
    { label: t('batchLoss'), x: steps, y: Array.from(snapshot.losses) },
    { label: t('heldLoss'), x: snapshot.evaluations.map((e) => e.step), y: snapshot.evaluations.map((e) => e.loss), points: snapshot.evaluations.length < 40 },
  ];
  const halves = snapshot.halves ?? [];
  if (halves.length) {
    for (const half of ['first', 'second']) {
      series.push({ label: t(half === 'first' ? 'halfFirst' : 'halfSecond'), x: halves.map((e) => e.step), y: halves.map((e) => e[half].loss),
        dash: half === 'first' ? '8 3' : '' });
    }
  }
  for (const rung of snapshot.baselines ?? []) {
    series.push({ label: '', tag: t(`ngram${rung.order}`), x: [0, last], y: [rung.loss, rung.loss], color: OTHERS, dash: '1 3' });
  }
  const induction = inductionStep(snapshot.roles ?? []);
  const all = series.flatMap((s) => s.y).filter(Number.isFinite);
  const height = 240;
  return linePlot({
    title: t('lossTitle'), series, xLabel: t('stepAxis'), yLabel: t('lossAxis'), width: 420, height,
    xDomain: [0, last], yDomain: [0, legendHeadroom(Math.max(1, ...all), series.filter((s) => s.label).length, height)],
    markers: induction ? [{ x: induction.step, label: t('inductionMark') }] : [],
  });
}

// the title of a plotted score
export const scoreTitle = (field, t) => t(`${field}Title`);

// one line per head over training, the best one in colour and named in the
// legend, every other one grey and named at its right end (L1 H2)
export function scorePlot(snapshot, field, t) {
  const history = historyOf(snapshot, field);
  const best = bestHead(history, field);
  const series = [];
  history[0]?.[field].forEach((row, l) => row.forEach((_, h) => {
    const isBest = best && best.layer === l && best.head === h;
    series.push({ label: isBest ? t('bestHead', { head: headName(t, l, h) }) : '', tag: isBest ? '' : headName(t, l, h),
      x: history.map((s) => s.step), y: history.map((s) => s[field][l][h]), color: isBest ? HIGHLIGHT : OTHERS, isBest });
  }));
  // the highlighted head first: solid, and the only one in the legend (the others dashed, grey, tagged)
  series.sort((a, b) => Number(b.isBest) - Number(a.isBest));
  const title = scoreTitle(field, t);
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

function thumbnail(view, snapshot, l, h, t, best, plots) {
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
  const s = snapshot.scores.at(-1), roles = snapshot.roles.at(-1);
  if (!s && roles) {
    // the two plotted roles' scores, and the head's role once one reaches ROLE_FORMED
    const score = (field) => (Number.isFinite(roles[field][l][h]) ? fixed(roles[field][l][h], 2) : '—');
    button.append(element('span', 'lm-head-scores', t('roleScores', { a: t(`short_${plots[0]}`), x: score(plots[0]), b: t(`short_${plots[1]}`), y: score(plots[1]) })));
  }
  const role = roleOf(roles, l, h);
  if (role) {
    button.dataset.role = role.role;
    button.append(element('span', `lm-badge lm-role lm-role-${role.role}`, t(`role_${role.role}`)));
  }
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
    if (snapshot.samples.twice) {
      const ok = snapshot.samples.twice[k];
      item.classList.add(ok ? 'is-right' : 'is-wrong');
      item.dataset.twice = String(ok);
      item.append(element('span', 'lm-mark', t(ok ? 'twiceOk' : 'twiceBad')));
    } else if (snapshot.samples.form) {
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

// Said in words under the loss: which count model the held-out loss has
// passed; for texts written twice, each half's accuracy and the induction step.
function drawYardsticks(view, full, spec, t) {
  const held = full.baselines?.length ? full.evaluations.at(-1) : null;
  const { passed, next } = held ? ladderPosition(full.baselines, held.loss) : { passed: null, next: null };
  const say = (rung) => ({ what: t(`count${rung.order}`), baseline: fixed(rung.loss) });
  view.ladder.dataset.passed = passed ? String(passed.order) : '0';
  const position = !held ? '' : !passed ? t('ladderNone', { loss: fixed(held.loss), ...say(next) })
    : next ? t('ladderPassed', { loss: fixed(held.loss), ...say(passed), nextWhat: t(`count${next.order}`), nextBaseline: fixed(next.loss) })
      : t('ladderAll', { loss: fixed(held.loss), ...say(passed) });
  // where longer runs count worse, why, from the numbers
  const inverted = ladderInversion(full.baselines);
  view.ladder.dataset.inverted = inverted ? `${inverted.worse.order}>${inverted.best.order}` : '';
  view.ladder.textContent = [position, inverted && t('ladderInverts', {
    worseWhat: t(`count${inverted.worse.order}`), worseLoss: fixed(inverted.worse.loss), bestWhat: t(`count${inverted.best.order}`),
    bestLoss: fixed(inverted.best.loss), unseen: percent(inverted.worse.unseen), bestUnseen: percent(inverted.best.unseen),
    context: t(`context${inverted.worse.order}`), vocab: formatNumber(full.vocabulary.size, { digits: 0 }),
  })].filter(Boolean).join(' ');
  view.halves.hidden = !spec.halves;
  const halves = full.halves.at(-1);
  if (!spec.halves || !halves) return;
  const induction = inductionStep(full.roles);
  const layers = full.example.weights.length;
  const parts = [t('halvesNow', { second: percent(halves.second.accuracy), secondLoss: fixed(halves.second.loss),
    first: percent(halves.first.accuracy), firstLoss: fixed(halves.first.loss) })];
  // the score when it formed, and now (the step of the badges beside it), each named with its step
  const now = full.roles.at(-1);
  parts.push(induction ? t('inductionAt', { head: headName(t, induction.layer, induction.head), step: formatNumber(induction.step, { digits: 0 }),
    score: fixed(induction.value, 2), now: formatNumber(now.step, { digits: 0 }), current: fixed(now.induction[induction.layer][induction.head], 2) })
    : t(layers === 1 ? 'inductionOneLayer' : 'inductionNone'));
  view.halves.textContent = parts.join(' ');
  view.halves.dataset.second = String(halves.second.accuracy);
  view.halves.dataset.induction = induction ? String(induction.step) : '';
}

// The numbers of every snapshot; the figures when it is a full one (and `figures`).
export function drawSnapshot(view, snapshot, { t, corpus, figures = true }) {
  const last = snapshot.losses.length ? snapshot.losses[snapshot.losses.length - 1] : null;
  view.fields.step.textContent = formatNumber(snapshot.step, { digits: 0 });
  view.fields.loss.textContent = last === null ? '—' : fixed(last);
  view.fields.rate.textContent = snapshot.tokensPerSecond === null ? '—' : formatNumber(snapshot.tokensPerSecond, { digits: 0 });
  view.fields.threads.textContent = formatNumber(snapshot.threads, { digits: 0 });
  // (one worker computes the chunks in turn; more, side by side)
  view.fields.threadsExplain.textContent = t(snapshot.threads > 1 ? 'threadsExplain' : 'threadsExplainOne', { batch: formatNumber(snapshot.batch, { digits: 0 }),
    chunks: formatNumber(snapshot.chunks, { digits: 0 }), cores: formatNumber(snapshot.cores, { digits: 0 }) });
  view.fields.stepsRate.textContent = snapshot.stepsPerSecond === null ? '—' : formatNumber(snapshot.stepsPerSecond, { digits: 1 });
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
  const unigram = unigramOf(full);
  view.fields.unigram.textContent = unigram === null ? '—' : fixed(unigram);
  if (!figures) return;
  view.drawn = performance.now();
  // the curves run to this step; the rest of the figures are those of the last full snapshot
  const curves = { ...full, step: snapshot.step, losses: snapshot.losses };
  const spec = CORPORA[corpus];
  view.lossBox.replaceChildren(lossPlot(curves, t));
  // two scores of every head over training, the corpus's own
  spec.plots.forEach((field, k) => {
    const [caption, box] = [view.scoreCaptions[k], view.scoreBoxes[k]];
    if (caption.dataset.field !== field) {
      caption.replaceChildren(t.rich(`${field}Title`));
      caption.dataset.field = field;
    }
    box.replaceChildren(scorePlot(curves, field, t));
  });
  drawYardsticks(view, full, spec, t);
  view.source.textContent = spec.file ? t('source', {
    name: t(corpus), source: full.corpus.source, license: full.corpus.license,
    train: formatNumber(full.corpus.train, { digits: 0 }), heldOut: formatNumber(full.corpus.heldOut, { digits: 0 }),
  }) : t(!spec.own ? 'sourceRepeats' : full.corpus.repeats > 0 ? 'sourceOwnRepeats' : 'sourceOwn', { train: formatNumber(full.corpus.train, { digits: 0 }),
    heldOut: formatNumber(full.corpus.heldOut, { digits: 0 }), repeats: formatNumber(full.corpus.repeats, { digits: 0 }) });
  view.source.dataset.repeats = String(full.corpus.repeats);
  view.sizes.textContent = t('sizes', {
    vocab: formatNumber(full.vocabulary.size, { digits: 0 }), unknown: formatNumber(full.vocabulary.unknown, { digits: 0 }),
    coverage: formatNumber(100 * full.vocabulary.coverage, { digits: 1 }), parameters: formatNumber(full.parameters, { digits: 0 }),
  });

  const best = { previousLine: bestHead(full.scores, 'previousLine'), punctuation: bestHead(full.scores, 'punctuation') };
  const heads = [];
  full.example.weights.forEach((layer, l) => layer.forEach((_, h) => heads.push(thumbnail(view, full, l, h, t, best, spec.plots))));
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
