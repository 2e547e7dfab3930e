// Builds a widget's controls from its declarative description (see state.js).
// Labels are string keys, translated with t:
//   { key, type: 'range', label, unit, min, max, step, enabled?(state), altLabel?: { when(state), label } }
//                      (altLabel: another label where the slider does something else)
//   { key, type: 'choice', label, options: [{ value, label }], enabled?(state) }   pill buttons
//   { key, type: 'select', label, options: [{ value, label }] }                    a drop-down
//   { key, type: 'toggle', label }                                                 a checkbox
//   { key, type: 'text', label, maxLength, presets?: [{ value, label }] }         a text box (+ presets)
//   any of them with hidden: true is state without a control (the widget sets it)
// buildControls(controls, t, onInput) -> { element, sync(state) };
// onInput(key, value) fires on every user change; sync(state) shows a state.
import { element } from '../render/dom.js';
import { decimalsOf, formatNumber } from '../render/format.js';

let nextId = 0;
const uniqueId = (key) => `control-${key}-${++nextId}`;
const enabledIn = (control, state) => !control.enabled || control.enabled(state);

// A control's box (class control-<kind>), its label and the field (a <tag>)
// the label names: { id, box, label, field }.
function labelled(control, t, kind, tag) {
  const id = uniqueId(control.key);
  const box = element('div', `control control-${kind}`);
  const label = element('label', 'control-label', t.rich(control.label));
  const field = element(tag);
  label.htmlFor = id;
  field.id = id;
  return { id, box, label, field };
}

function rangeControl(control, t, onInput) {
  const digits = decimalsOf(control.step);
  const show = (x) => formatNumber(x, { digits, unit: control.unit ? t(control.unit) : '' });
  const { id, box, label, field: input } = labelled(control, t, 'range', 'input');
  Object.assign(input, { type: 'range', name: control.key, min: control.min, max: control.max, step: control.step });
  const output = element('output', 'control-value');
  output.htmlFor.add(id);
  input.addEventListener('input', () => onInput(control.key, Number(input.value)));
  box.append(label, output, input);
  let named = control.label;
  return {
    element: box,
    sync(state) {
      const name = control.altLabel?.when(state) ? control.altLabel.label : control.label;
      if (name !== named) label.replaceChildren(t.rich(name));
      named = name;
      const x = state[control.key];
      input.value = String(x);
      input.setAttribute('aria-valuetext', show(x));
      output.textContent = show(x);
      input.disabled = !enabledIn(control, state);
      box.classList.toggle('is-disabled', input.disabled);
    },
  };
}

function choiceControl(control, t, onInput) {
  const name = uniqueId(control.key);
  const box = element('fieldset', 'control control-choice');
  box.append(element('legend', 'control-label', t.rich(control.label)));
  const group = element('div', 'choice-group');
  group.style.setProperty('--choices', control.options.length);
  const radios = control.options.map((option) => {
    const label = element('label', 'choice');
    const radio = element('input');
    Object.assign(radio, { type: 'radio', name, value: option.value });
    radio.addEventListener('change', () => { if (radio.checked) onInput(control.key, option.value); });
    label.append(radio, element('span', 'choice-text', t.rich(option.label)));
    group.append(label);
    return radio;
  });
  box.append(group);
  return {
    element: box,
    sync(state) {
      for (const radio of radios) radio.checked = radio.value === state[control.key];
      box.disabled = !enabledIn(control, state);
    },
  };
}

function selectControl(control, t, onInput) {
  const { box, label, field: select } = labelled(control, t, 'select', 'select');
  for (const option of control.options) {
    const o = element('option', '', t(option.label));  // an <option> holds text only
    o.value = option.value;
    select.append(o);
  }
  select.addEventListener('change', () => onInput(control.key, select.value));
  box.append(label, select);
  return {
    element: box,
    sync(state) {
      select.value = state[control.key];
      select.disabled = !enabledIn(control, state);
    },
  };
}

function toggleControl(control, t, onInput) {
  const box = element('label', 'control control-toggle');
  const input = element('input');
  input.type = 'checkbox';
  input.addEventListener('change', () => onInput(control.key, input.checked));
  box.append(input, element('span', 'control-label', t.rich(control.label)));
  return {
    element: box,
    sync(state) {
      input.checked = Boolean(state[control.key]);
      input.disabled = !enabledIn(control, state);
      box.classList.toggle('is-disabled', input.disabled);
    },
  };
}

function textControl(control, t, onInput) {
  const { box, label, field: input } = labelled(control, t, 'text', 'input');
  Object.assign(input, { type: 'text', name: control.key, maxLength: control.maxLength ?? 2000, spellcheck: false });
  input.autocomplete = 'off';
  input.addEventListener('input', () => onInput(control.key, input.value));
  box.append(label, input);
  let presets = null;
  if (control.presets) {
    presets = element('div', 'presets');
    presets.setAttribute('role', 'group');
    presets.setAttribute('aria-label', t('presets'));
    for (const preset of control.presets) {
      const button = element('button', 'preset', t.rich(preset.label));
      button.type = 'button';
      button.addEventListener('click', () => onInput(control.key, t(preset.value)));
      presets.append(button);
    }
    box.append(presets);
  }
  return {
    element: box,
    sync(state) {
      // never move the caret while the user types: only write a value that differs
      if (input.value !== state[control.key]) input.value = state[control.key];
      input.disabled = !enabledIn(control, state);
      box.classList.toggle('is-disabled', input.disabled);
      for (const button of presets?.children ?? []) button.disabled = input.disabled;
    },
  };
}

const BUILDERS = { range: rangeControl, choice: choiceControl, select: selectControl, toggle: toggleControl, text: textControl };

export function buildControls(controls, t, onInput) {
  const form = element('form', 'controls');
  form.addEventListener('submit', (event) => event.preventDefault());
  // hidden controls are state kept in the URL (a selected cell, say) that the widget sets itself
  const parts = controls.filter((c) => !c.hidden).map((c) => BUILDERS[c.type](c, t, onInput));
  form.append(...parts.map((p) => p.element));
  return { element: form, sync: (state) => parts.forEach((p) => p.sync(state)) };
}
