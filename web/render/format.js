// Number formatting for display. Formatting only: the numbers come from the core.
const MINUS = '\u2212';
const NBSP = '\u00a0';
const formatters = new Map();

function formatter(minDigits, maxDigits) {
  const key = `${minDigits}/${maxDigits}`;
  if (!formatters.has(key)) {
    formatters.set(key, new Intl.NumberFormat('en-US', {
      minimumFractionDigits: minDigits,
      maximumFractionDigits: maxDigits,
    }));
  }
  return formatters.get(key);
}

// x with `digits` decimals (at least `minDigits`), a real minus sign and an optional unit;
// '—' for anything that is not a finite number, so NaN or Infinity never reach the page.
export function formatNumber(x, { digits = 2, minDigits = digits, unit = '' } = {}) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  let text = formatter(minDigits, digits).format(x);
  if (/^-0(\.0*)?$/.test(text)) text = text.slice(1);  // no "-0" for a tiny negative number
  text = text.replace('-', MINUS);
  return unit ? `${text}${NBSP}${unit}` : text;
}

// An attention weight in [0, 1] with 3 decimals; a tiny but non-zero weight reads "<0.001".
export function formatWeight(w) {
  if (typeof w === 'number' && w > 0 && w < 0.0005) return '<0.001';
  return formatNumber(w, { digits: 3 });
}

// The number of decimals in a slider step: 0.5 -> 1, 1 -> 0.
export function decimalsOf(step) {
  const text = String(step);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}
