// A widget's state is one plain object that round-trips through the URL, so a
// shared link reproduces the view. The widget's declarative `controls` say
// which keys exist and what is valid:
//   { key, type: 'range', min, max, step }           a number in [min, max], on the step grid
//   { key, type: 'choice', options: [{ value }] }    one of the option values (also 'select')
//   { key, type: 'toggle' }                          true or false ("1" / "0")
//   { key, type: 'text', maxLength }                 a string
// Anything missing or invalid falls back to the widget's default. On the full
// page each key is prefixed with the widget's name (?kv-query.q=172); in an
// embed the widget is alone and keys are bare (?q=172).

// Parses one URL value for a control; undefined when it is not valid.
function parseValue(control, text) {
  if (text === null) return undefined;
  switch (control.type) {
    case 'choice':
    case 'select':
      return control.options.some((o) => o.value === text) ? text : undefined;
    case 'toggle':
      return text === '1' ? true : text === '0' ? false : undefined;
    case 'text':
      return text.length <= (control.maxLength ?? 2000) ? text : undefined;
    case 'range': {
      if (text.trim() === '') return undefined;
      const x = Number(text);
      if (!Number.isFinite(x) || x < control.min || x > control.max) return undefined;
      // snap to the slider's grid, as the slider itself would
      const steps = Math.round((x - control.min) / control.step);
      return Number((control.min + steps * control.step).toFixed(6));
    }
    default:
      return undefined;
  }
}

function formatValue(control, value) {
  return control.type === 'toggle' ? (value ? '1' : '0') : String(value);
}

// search string -> state: every key of defaults, each valid.
export function parseState(search, controls, defaults, prefix = '') {
  const params = new URLSearchParams(search);
  const state = { ...defaults };
  for (const control of controls) {
    const value = parseValue(control, params.get(prefix + control.key));
    if (value !== undefined) state[control.key] = value;
  }
  return state;
}

// state -> search string; parameters that belong to no control are kept.
export function serialiseState(state, controls, search = '', prefix = '') {
  const params = new URLSearchParams(search);
  for (const control of controls) params.set(prefix + control.key, formatValue(control, state[control.key]));
  return `?${params}`;
}

// The state of a widget from the page's URL.
export function readState(controls, defaults, prefix = '') {
  return parseState(window.location.search, controls, defaults, prefix);
}

// Writes the state into the page's URL without adding a history entry.
export function writeState(state, controls, prefix = '') {
  const { pathname, search, hash } = window.location;
  try {
    window.history.replaceState(window.history.state, '', pathname + serialiseState(state, controls, search, prefix) + hash);
  } catch {
    // some hosts (sandboxed iframes, file: URLs) refuse; the widget works without it
  }
}

// Only the widget's own parameters, bare: for embed URLs and snippets.
export function stateQuery(state, controls) {
  return serialiseState(state, controls, '').slice(1);
}
