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
//   exports(data, state, t) -> { visual?(): SVGElement, csv(): { header, rows }, json(): object or a promise of one }
//   quiz?                   { question, options: [{ value, label, picture?() -> element }], answer(data, state), explain(data, state, t) -> text or nodes }
// Its text is in the catalogs (web/i18n/<lang>.js), in the section named after
// it: t(key) finds a message there, else in common; t.rich(key) typesets it for
// the DOM (see i18n.js). Labels in controls and quiz are catalog keys.
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
import { element, liveElement, whenNear } from './dom.js';
import { download, svgDocument, svgToPng, toCsv, toJson } from './export.js';
import { languageTag, translator } from './i18n.js';
import { publicState, stateQuery } from './state.js';

// Where the page lives, for embed snippets: the folder of the current document.
function siteBase() {
  return new URL('.', document.baseURI).href;
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
      const range = document.createRange();
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

// root: the element to fill; def: the widget definition.
// options: { lang, state, onChange(state), onReady(), onError(message), embedded, heading, hide, after }
//   onChange: the state as its controls hold it (the keys of a URL), after each change of it made in
//             the widget (not by the returned setState; a change of a key of no control is none)
//   onReady:  once, when the first numbers are drawn
//   onError:  whenever the widget shows an error message
//   hide:     parts to leave out: 'title', 'intro', 'quiz', 'export', 'embed'
//   after:    a lazy widget watches for the screen only once this promise settles (the page: once
//             the widgets above it have drawn, so that it is not near the screen merely because
//             they are still empty)
export function mountWidget(root, def, { lang = 'en', state: initial = {}, onChange = () => {}, onReady = () => {}, onError = () => {},
  embedded = false, heading = 'h2', hide = [], after = null } = {}) {
  const t = translator(lang, def.name);
  let state = { ...def.defaults, ...initial };
  let data = null;
  let latest = 0;
  let ready = false;
  const lifetime = new AbortController();
  let said = JSON.stringify(publicState(state, def.controls));  // the public state onChange last saw

  root.classList.add('widget');
  root.lang = languageTag(lang);
  const title = element(heading, 'widget-title', t.rich('title'));
  const intro = element('p', 'widget-intro', t.rich('intro'));
  // quiet: keep the state (and the URL) without recomputing, for a selection
  // the widget already shows (a focused cell: re-drawing would lose the focus)
  const setState = (next, { quiet = false } = {}) => {
    if (lifetime.signal.aborted) return;
    state = { ...state, ...next };
    const shown = publicState(state, def.controls);
    if (JSON.stringify(shown) !== said) {
      said = JSON.stringify(shown);
      onChange(shown);
    }
    if (!quiet) update();
  };
  const controls = buildControls(def.controls, t, (key, value) => setState({ [key]: value }));
  const body = element('div', 'widget-body');
  const alert = element('p', 'widget-error');
  alert.setAttribute('role', 'alert');
  alert.hidden = true;
  const ctx = { t, lang, get state() { return state; }, setState, module: loadAttention, signal: lifetime.signal };
  // built at once, or for a lazy widget when it first comes near the screen (or is changed)
  let view = null;
  const built = () => (view ??= def.build(body, ctx));
  if (def.lazy) body.append(element('p', 'widget-loading', t.rich('loading')));
  else built();

  const shown = (part) => !hide.includes(part);
  const parts = [...(shown('title') ? [title] : []), ...(shown('intro') ? [intro] : []), controls.element, alert, body];
  let quiz = null;
  if (def.quiz && shown('quiz')) {
    quiz = buildQuiz(def.quiz, t);
    quiz.reveal.addEventListener('click', () => {
      if (!data) return;
      const right = def.quiz.answer(data, state);
      const guess = quiz.guess();
      const option = def.quiz.options.find((o) => o.value === guess);
      const verdict = guess ? [t.rich('yourGuess', { guess: t(option.label) }), ' ', t.rich(guess === right ? 'correct' : 'wrong'), ' '] : [];
      quiz.answer.replaceChildren(...verdict, def.quiz.explain(data, state, t));
      quiz.answer.hidden = false;
    });
    parts.push(quiz.element);
  }

  // export buttons and the embed snippet
  const tools = element('div', 'widget-tools');
  const exportBar = element('div', 'export-bar');
  exportBar.append(element('span', 'export-label', t.rich('export')));
  const button = (label, kind) => {
    const b = element('button', 'export-button', t.rich(label));
    b.type = 'button';
    b.dataset.export = kind;
    b.addEventListener('click', () => exportAs(kind));
    exportBar.append(b);
    return b;
  };
  const visualButtons = [button('exportPng', 'png'), button('exportSvg', 'svg')];
  button('exportCsv', 'csv');
  button('exportJson', 'json');
  if (shown('export')) tools.append(exportBar);
  let snippets = null;
  if (!embedded && shown('embed')) {
    const details = element('details', 'embed');
    details.append(element('summary', '', t.rich('embed')));
    const iframe = codeBlock('', t), script = codeBlock('', t);
    details.append(element('p', 'embed-label', t.rich('embedIframe')), iframe.element, element('p', 'embed-label', t.rich('embedScript')), script.element);
    snippets = { iframe, script };
    tools.append(details);
  }
  if (tools.childElementCount) parts.push(tools);
  root.replaceChildren(...parts);

  async function exportAs(kind) {
    if (!data) return;
    const out = def.exports(data, state, t);
    const name = `${def.name}`;
    try {
      if (kind === 'csv') {
        const { header, rows } = out.csv();
        download(`${name}.csv`, toCsv(header, rows), 'text/csv');
      } else if (kind === 'json') {
        // the state as the URL holds it: a widget may keep more (the speed widget's measurements)
        download(`${name}.json`, toJson({ widget: def.name, state: publicState(state, def.controls), ...(await out.json()) }), 'application/json');
      } else {
        const doc = svgDocument(out.visual());
        if (kind === 'svg') download(`${name}.svg`, doc.text, 'image/svg+xml');
        else download(`${name}.png`, await svgToPng(doc), 'image/png');
      }
    } catch (error) {
      showError(error);
    }
  }

  function showError(error) {
    alert.hidden = !error;
    const message = error?.name === 'ExportError' ? t(error.message) : error?.message;
    alert.textContent = !error ? '' : error.name === 'InputError' ? message : t('error', { message });
    root.classList.toggle('has-error', Boolean(error));
    if (error) onError(alert.textContent);
  }

  async function update() {
    if (!view) {
      body.replaceChildren();
      built();
    }
    const token = ++latest;
    controls.sync(state);
    root.setAttribute('aria-busy', 'true');
    let next = null, error = null;
    try {
      const att = await loadAttention();
      next = await def.compute(att, state, t);  // a promise for a widget whose data loads (real-model)
    } catch (e) {
      error = e instanceof Error ? e : new Error(String(e));
    }
    if (token !== latest || lifetime.signal.aborted) return;
    showError(error);
    if (next) {
      data = next;
      await def.render(view, data, state, ctx);  // a widget may draw in slices (real-model): ready after the last
      if (token !== latest || lifetime.signal.aborted) return;
    }
    const hasVisual = Boolean(data && def.exports(data, state, t).visual);
    visualButtons.forEach((b) => { b.hidden = !hasVisual; });
    if (snippets) {
      const s = embedSnippets(def, state, lang);
      snippets.iframe.set(s.iframe);
      snippets.script.set(s.script);
    }
    root.removeAttribute('aria-busy');
    root.dataset.ready = 'true';
    if (data && !ready) {
      ready = true;
      onReady();
    }
  }

  function unmount() {
    if (lifetime.signal.aborted) return;
    latest += 1;  // a compute in flight draws nothing
    try {
      if (view) def.dispose?.(view);
    } finally {
      lifetime.abort();
      // its own parts only: a newer mount may already fill root (a quick second language switch)
      for (const part of parts) part.remove();
      if (!root.firstChild) {
        root.classList.remove('widget', 'has-error');
        root.removeAttribute('aria-busy');
        delete root.dataset.ready;
      }
    }
  }

  if (!def.lazy) update();
  else {
    Promise.resolve(after).finally(() => {
      if (!lifetime.signal.aborted) whenNear(root, update, lifetime.signal, '50% 0px');  // within half a screen
    });
  }
  return {
    update, get state() { return state; }, get data() { return data; }, unmount, lazy: Boolean(def.lazy),
    // a change from outside (the embed's API): no onChange, which is for the reader's changes
    setState(next) {
      if (lifetime.signal.aborted) return;
      state = { ...state, ...next };
      said = JSON.stringify(publicState(state, def.controls));
      update();
    },
  };
}
