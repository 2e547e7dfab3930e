// Mounts one widget: the frame every widget shares around its own drawing.
//
// A widget module exports a definition:
//   name, defaults, controls                       (declarative: see state.js, controls.js)
//   compute(att, state, t)  -> data               (all numbers, from the core; may throw; may be async)
//   build(body, ctx)        -> view               (its DOM, once; ctx: { t, lang, state, setState(next, { quiet }),
//                                                   module(): the attention module, for work a button starts,
//                                                   signal: an AbortSignal, aborted when the widget is unmounted })
//   render(view, data, state, ctx)                (updates the DOM from data)
//   dispose?(view)                                (stops what build started: workers, timers, frames)
//   lazy?                   true: build and the first compute wait until the widget comes within half a
//                           screen of the viewport, or the reader changes it (a widget that trains:
//                           its module, worker and corpus load then, not with the page)
//   exports(data, state, t) -> { visual?(): SVGElement, csv(): { header, rows }, json(): object; csv and json may return a promise }
//   quiz?                   { question, options: [{ value, label, picture?() -> element }], answer(data, state), explain(data, state, t) -> text or nodes,
//                             conceals?(view) -> [element]: the parts that state the answer, covered until Reveal }
// Its text is in its folder (widgets/<id>/<lang>.js), the catalog's section
// named after it: t(key) finds a message there, else in common (web/i18n/<lang>.js);
// t.rich(key) typesets it for the DOM (see i18n.js). Labels in controls and quiz are catalog keys.
// The frame adds the title and intro, the controls, the error message, the
// predict-then-reveal question, export buttons and the embed snippet, and runs
// state -> compute -> render on every change (a token drops stale results).
//
// mountWidget returns { update(), state, setState(next), data, unmount() }.
// unmount() calls the widget's dispose(view), aborts ctx.signal (listeners and
// shared helpers registered with it let go), drops a compute in flight and
// empties root; a second call does nothing.
import { loadAttention } from './compute.js';
import { buildControls } from './controls.js';
import { doc, element, liveElement, whenNear } from '../render/dom.js';
import { download, svgDocument, svgToPng, toCsv, toJson } from './export.js';
import { languageTag, translator } from '../i18n/i18n.js';
import { publicState, stateQuery } from './state.js';

// Where the page lives, for embed snippets: the folder of the current document.
function siteBase() {
  return new URL('.', doc.baseURI).href;
}

function embedSnippets(def, state, lang) {
  const query = stateQuery(state, def.controls);
  const params = `widget=${def.name}${query ? `&${query}` : ''}&lang=${lang}`;
  const base = siteBase();
  return {
    iframe: `<iframe src="${base}embed.html?${params}" title="${def.name}" style="width:100%;border:0" loading="lazy"></iframe>`,
    script: `<script src="${base}embed.js" defer></script>\n<div data-widget="${def.name}" data-state="${query}" data-lang="${lang}"></div>`,
  };
}

function codeBlock(text, t) {
  const box = element('div', 'snippet');
  const code = element('pre', 'snippet-code');
  code.textContent = text;
  const copy = element('button', 'snippet-copy', t.rich('copy'));
  copy.type = 'button';
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(code.textContent);
      copy.textContent = t('copied');
    } catch {
      const range = doc.createRange();
      range.selectNodeContents(code);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    }
  });
  box.append(code, copy);
  return { element: box, set: (value) => { code.textContent = value; copy.textContent = t('copy'); } };
}

function buildQuiz(quiz, t) {
  const box = element('fieldset', 'quiz');
  const legend = element('legend', 'quiz-title');
  legend.append(t.rich('predict'), ': ', t.rich(quiz.question));
  box.append(legend);
  const name = `quiz-${Math.random().toString(36).slice(2)}`;
  const group = element('div', 'quiz-options');
  for (const option of quiz.options) {
    const label = element('label', 'quiz-option');
    const radio = element('input');
    Object.assign(radio, { type: 'radio', name, value: option.value });
    label.append(radio, element('span', '', t.rich(option.label)));
    if (option.picture) label.append(option.picture());  // a choice drawn (a tiny map)
    group.append(label);
  }
  const reveal = element('button', 'quiz-reveal', t.rich('reveal'));
  reveal.type = 'button';
  const answer = liveElement('p', 'quiz-answer');
  answer.hidden = true;
  box.append(group, reveal, answer);
  return { element: box, reveal, answer, guess: () => group.querySelector('input:checked')?.value };
}

// The predict-then-reveal question of def.quiz, placed above the widget's
// body: { element, conceal(view) }. Its Reveal button judges the reader's
// guess against the data shown (read()) and uncovers what def.quiz.conceals(view)
// names: the parts of the body that state the answer, blurred and inert until then.
function quizPart(def, t, read) {
  const quiz = buildQuiz(def.quiz, t);
  let revealed = false, covered = [];
  const cover = (on) => {
    for (const part of covered) {
      part.classList.toggle('quiz-concealed', on);
      part.inert = on;
    }
  };
  quiz.reveal.addEventListener('click', () => {
    const { data, state } = read();
    if (!data) return;
    const right = def.quiz.answer(data, state);
    const guess = quiz.guess();
    const option = def.quiz.options.find((o) => o.value === guess);
    const verdict = guess ? [t.rich('yourGuess', { guess: t(option.label) }), ' ', t.rich(guess === right ? 'correct' : 'wrong'), ' '] : [];
    quiz.answer.replaceChildren(...verdict, def.quiz.explain(data, state, t));
    quiz.answer.hidden = false;
    revealed = true;
    cover(false);
  });
  return {
    element: quiz.element,
    conceal(view) {
      if (revealed || !def.quiz.conceals) return;
      covered = def.quiz.conceals(view);
      cover(true);
    },
  };
}

// The export buttons and the embed snippets under a widget: { element (null
// when both are hidden), refresh(state, hasVisual) } after each render.
// onExport(kind): a button pressed ('png', 'svg', 'csv', 'json').
function toolsPart(def, t, lang, { exportBar: withExport, embed: withEmbed }, onExport) {
  const tools = element('div', 'widget-tools');
  const bar = element('div', 'export-bar');
  bar.append(element('span', 'export-label', t.rich('export')));
  const button = (label, kind) => {
    const b = element('button', 'export-button', t.rich(label));
    b.type = 'button';
    b.dataset.export = kind;
    b.addEventListener('click', () => onExport(kind));
    bar.append(b);
    return b;
  };
  const visualButtons = [button('exportPng', 'png'), button('exportSvg', 'svg')];
  button('exportCsv', 'csv');
  button('exportJson', 'json');
  if (withExport) tools.append(bar);
  let snippets = null;
  if (withEmbed) {
    const details = element('details', 'embed');
    details.append(element('summary', '', t.rich('embed')));
    const iframe = codeBlock('', t), script = codeBlock('', t);
    details.append(element('p', 'embed-label', t.rich('embedIframe')), iframe.element, element('p', 'embed-label', t.rich('embedScript')), script.element);
    snippets = { iframe, script };
    tools.append(details);
  }
  return {
    element: tools.childElementCount ? tools : null,
    refresh(state, hasVisual) {
      visualButtons.forEach((b) => { b.hidden = !hasVisual; });
      if (!snippets) return;
      const s = embedSnippets(def, state, lang);
      snippets.iframe.set(s.iframe);
      snippets.script.set(s.script);
    },
  };
}

// Downloads what def.exports gives for data as kind: 'csv', 'json' (with the
// state as the URL holds it), 'svg' or 'png' (its visual). Throws what failed.
async function exportAs(def, kind, data, state, t) {
  const out = def.exports(data, state, t);
  const name = `${def.name}`;
  if (kind === 'csv') {
    const { header, rows } = await out.csv();
    download(`${name}.csv`, toCsv(header, rows), 'text/csv');
  } else if (kind === 'json') {
    // the state as the URL holds it: a widget may keep more (the speed widget's measurements)
    download(`${name}.json`, toJson({ widget: def.name, state: publicState(state, def.controls), ...(await out.json()) }), 'application/json');
  } else {
    const doc = svgDocument(out.visual());
    if (kind === 'svg') download(`${name}.svg`, doc.text, 'image/svg+xml');
    else download(`${name}.png`, await svgToPng(doc), 'image/png');
  }
}

// root: the element to fill; def: the widget definition.
// options: { lang, state, onChange(state), onReady(), onError(message), embedded, heading, hide }
//   onChange: the state as its controls hold it (the keys of a URL), after each change of it made in
//             the widget (not by the returned setState; a change of a key of no control is none)
//   onReady:  once, when the first numbers are drawn
//   onError:  whenever the widget shows an error message
//   hide:     parts to leave out: 'title', 'intro', 'quiz', 'export', 'embed'
export function mountWidget(root, def, { lang = 'en', state: initial = {}, onChange = () => {}, onReady = () => {}, onError = () => {},
  embedded = false, heading = 'h2', hide = [] } = {}) {
  const t = translator(lang, def.name);
  // the mount: what update(), showError() and unmount() below share
  const m = {
    root, def, t, onReady, onError, state: { ...def.defaults, ...initial }, data: null, view: null, latest: 0, ready: false,
    lifetime: new AbortController(),
  };
  let said = JSON.stringify(publicState(m.state, def.controls));  // the public state onChange last saw

  root.classList.add('widget');
  root.lang = languageTag(lang);
  // quiet: keep the state (and the URL) without recomputing, for a selection
  // the widget already shows (a focused cell: re-drawing would lose the focus)
  const setState = (next, { quiet = false } = {}) => {
    if (m.lifetime.signal.aborted) return;
    m.state = { ...m.state, ...next };
    const shown = publicState(m.state, def.controls);
    if (JSON.stringify(shown) !== said) {
      said = JSON.stringify(shown);
      onChange(shown);
    }
    if (!quiet) update(m);
  };
  m.controls = buildControls(def.controls, t, (key, value) => setState({ [key]: value }));
  m.body = element('div', 'widget-body');
  m.alert = element('p', 'widget-error');
  m.alert.setAttribute('role', 'alert');
  m.alert.hidden = true;
  m.ctx = { t, lang, get state() { return m.state; }, setState, module: loadAttention, signal: m.lifetime.signal };
  // built at once, or for a lazy widget when it first comes near the screen (or is changed)
  if (def.lazy) m.body.append(element('p', 'widget-loading', t.rich('loading')));
  else m.view = def.build(m.body, m.ctx);

  const shown = (part) => !hide.includes(part);
  m.tools = toolsPart(def, t, lang, { exportBar: shown('export'), embed: !embedded && shown('embed') }, (kind) => {
    if (m.data) exportAs(def, kind, m.data, m.state, t).catch((error) => showError(m, error));
  });
  m.quiz = def.quiz && shown('quiz') ? quizPart(def, t, () => m) : null;
  if (m.view) m.quiz?.conceal(m.view);
  m.parts = [
    shown('title') && element(heading, 'widget-title', t.rich('title')), shown('intro') && element('p', 'widget-intro', t.rich('intro')),
    m.controls.element, m.alert, m.quiz?.element, m.body, m.tools.element,
  ].filter(Boolean);
  root.replaceChildren(...m.parts);

  if (!def.lazy) update(m);
  else whenNear(root, () => update(m), m.lifetime.signal, '50% 0px');  // within half a screen
  return {
    update: () => update(m), get state() { return m.state; }, get data() { return m.data; }, unmount: () => unmount(m),
    // a change from outside (the embed's API): no onChange, which is for the reader's changes
    setState(next) {
      if (m.lifetime.signal.aborted) return;
      m.state = { ...m.state, ...next };
      said = JSON.stringify(publicState(m.state, def.controls));
      update(m);
    },
  };
}

// The widget's error line: error's message in the reader's language, or hidden (null).
function showError(m, error) {
  m.alert.hidden = !error;
  const message = error?.name === 'ExportError' ? m.t(error.message) : error?.message;
  m.alert.textContent = !error ? '' : error.name === 'InputError' ? message : m.t('error', { message });
  m.root.classList.toggle('has-error', Boolean(error));
  if (error) m.onError(m.alert.textContent);
}

// state -> compute -> render; a newer update (its token) or an unmount drops this one.
async function update(m) {
  const { def, root } = m;
  if (!m.view) {
    m.body.replaceChildren();
    m.view = def.build(m.body, m.ctx);
    m.quiz?.conceal(m.view);
  }
  const token = ++m.latest;
  const stale = () => token !== m.latest || m.lifetime.signal.aborted;
  m.controls.sync(m.state);
  root.setAttribute('aria-busy', 'true');
  let next = null, error = null;
  try {
    next = await def.compute(await loadAttention(), m.state, m.t);  // a promise for a widget whose data loads (real-model)
  } catch (e) {
    error = e instanceof Error ? e : new Error(String(e));
  }
  if (stale()) return;
  showError(m, error);
  if (next) {
    m.data = next;
    await def.render(m.view, m.data, m.state, m.ctx);  // a widget may draw in slices (real-model): ready after the last
    if (stale()) return;
  }
  m.tools.refresh(m.state, Boolean(m.data && def.exports(m.data, m.state, m.t).visual));
  root.removeAttribute('aria-busy');
  root.dataset.ready = 'true';
  if (m.data && !m.ready) {
    m.ready = true;
    m.onReady();
  }
}

// Stops the widget: its dispose(view), ctx.signal aborted, its parts removed; a second call does nothing.
function unmount(m) {
  if (m.lifetime.signal.aborted) return;
  m.latest += 1;  // a compute in flight draws nothing
  try {
    if (m.view) m.def.dispose?.(m.view);
  } finally {
    m.lifetime.abort();
    // its own parts only: a newer mount may already fill root (a quick second language switch)
    for (const part of m.parts) part.remove();
    if (!m.root.firstChild) {
      m.root.classList.remove('widget', 'has-error');
      m.root.removeAttribute('aria-busy');
      delete m.root.dataset.ready;
    }
  }
}
