// A widget's state is one plain object that round-trips through the URL query
// string, so a shared link reproduces the view:  ?q=172&score=gaussian&sigma=2
// The widget's declarative `controls` say which keys exist and what is valid:
//   { key, type: 'range', min, max, step }   a number in [min, max], on the step grid
//   { key, type: 'choice', options: [{ value }] }   one of the option values
// Anything missing or invalid falls back to the widget's default.

// Parses one URL value for a control; undefined when it is not valid.
function parseValue(control, text) {
  if (text === null) return undefined;
  if (control.type === 'choice') {
    return control.options.some((o) => o.value === text) ? text : undefined;
  }
  if (control.type === 'range') {
    if (text.trim() === '') return undefined;
    const x = Number(text);
    if (!Number.isFinite(x) || x < control.min || x > control.max) return undefined;
    // snap to the slider's grid, as the slider itself would
    const steps = Math.round((x - control.min) / control.step);
    return Number((control.min + steps * control.step).toFixed(6));
  }
  return undefined;
}

// search string -> state: every key of defaults, each valid.
export function parseState(search, controls, defaults) {
  const params = new URLSearchParams(search);
  const state = { ...defaults };
  for (const control of controls) {
    const value = parseValue(control, params.get(control.key));
    if (value !== undefined) state[control.key] = value;
  }
  return state;
}

// state -> search string; parameters that belong to no control are kept.
export function serialiseState(state, controls, search = '') {
  const params = new URLSearchParams(search);
  for (const control of controls) params.set(control.key, String(state[control.key]));
  return `?${params}`;
}

// The state of a widget from the page's URL.
export function readState(controls, defaults) {
  return parseState(window.location.search, controls, defaults);
}

// Writes the state into the page's URL without adding a history entry.
export function writeState(state, controls) {
  const { pathname, search, hash } = window.location;
  try {
    window.history.replaceState(window.history.state, '', pathname + serialiseState(state, controls, search) + hash);
  } catch {
    // some hosts (sandboxed iframes, file: URLs) refuse; the widget works without it
  }
}
