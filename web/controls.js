// Builds a widget's controls from its declarative description (see state.js):
//   { key, type: 'range', label, unit, min, max, step, enabled?(state) }
//   { key, type: 'choice', label, options: [{ value, label }], enabled?(state) }
// buildControls(controls, onInput) -> { element, sync(state) };
// onInput(key, value) fires on every user change; sync(state) shows a state.
import { element } from './dom.js';
import { decimalsOf, formatNumber } from './render/format.js';

let nextId = 0;
const uniqueId = (key) => `control-${key}-${++nextId}`;

function rangeControl(control, onInput) {
  const id = uniqueId(control.key);
  const digits = decimalsOf(control.step);
  const show = (x) => formatNumber(x, { digits, unit: control.unit });
  const box = element('div', 'control control-range');
  const label = element('label', 'control-label', control.label);
  label.htmlFor = id;
  const input = element('input');
  Object.assign(input, { type: 'range', id, name: control.key, min: control.min, max: control.max, step: control.step });
  const output = element('output', 'control-value');
  output.htmlFor.add(id);
  input.addEventListener('input', () => onInput(control.key, Number(input.value)));
  box.append(label, output, input);
  return {
    element: box,
    sync(state) {
      const x = state[control.key];
      input.value = String(x);
      input.setAttribute('aria-valuetext', show(x));
      output.textContent = show(x);
      const enabled = !control.enabled || control.enabled(state);
      input.disabled = !enabled;
      box.classList.toggle('is-disabled', !enabled);
    },
  };
}

function choiceControl(control, onInput) {
  const name = uniqueId(control.key);
  const box = element('fieldset', 'control control-choice');
  box.append(element('legend', 'control-label', control.label));
  const group = element('div', 'choice-group');
  const radios = control.options.map((option) => {
    const label = element('label', 'choice');
    const radio = element('input');
    Object.assign(radio, { type: 'radio', name, value: option.value });
    radio.addEventListener('change', () => { if (radio.checked) onInput(control.key, option.value); });
    label.append(radio, element('span', 'choice-text', option.label));
    group.append(label);
    return radio;
  });
  box.append(group);
  return {
    element: box,
    sync(state) {
      for (const radio of radios) radio.checked = radio.value === state[control.key];
      box.disabled = Boolean(control.enabled) && !control.enabled(state);
    },
  };
}

export function buildControls(controls, onInput) {
  const form = element('form', 'controls');
  form.addEventListener('submit', (event) => event.preventDefault());
  const parts = controls.map((c) => (c.type === 'choice' ? choiceControl : rangeControl)(c, onInput));
  form.append(...parts.map((p) => p.element));
  return { element: form, sync: (state) => parts.forEach((p) => p.sync(state)) };
}
