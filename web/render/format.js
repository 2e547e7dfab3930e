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

// What the formatter writes for x, in a fraction of its time (a map formats
// hundreds of numbers), where toFixed writes the same: below 999 (no digit
// grouping), a fixed number of decimals, and x not (near) a tie at the last
// one. The formatter rounds x's shortest decimal form (2.675 -> 2.68), toFixed
// its binary value (2.67499999… -> 2.67): they differ only when that form ends
// in a 5 just past the decimals kept. Otherwise undefined.
function fixed(x, digits, minDigits) {
  if (minDigits !== digits || !(Math.abs(x) < 999) || digits > 10) return undefined;
  const scaled = Math.abs(x) * 10 ** (digits + 1), nearest = Math.round(scaled);
  if (nearest % 10 === 5 && Math.abs(scaled - nearest) < 1e-6) return undefined;
  return x.toFixed(digits);
}

// x with `digits` decimals (at least `minDigits`), a real minus sign and an optional unit;
// '—' for anything that is not a finite number, so NaN or Infinity never reach the page.
export function formatNumber(x, { digits = 2, minDigits = digits, unit = '' } = {}) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  let text = fixed(x, digits, minDigits) ?? formatter(minDigits, digits).format(x);
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

// ---- powers of ten ----

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const SUPERSCRIPT_MINUS = '⁻';

// An integer as superscript characters: 7 -> "⁷", -12 -> "⁻¹²".
export function superscript(n) {
  if (!Number.isInteger(n)) return '';
  return (n < 0 ? SUPERSCRIPT_MINUS : '') + String(Math.abs(n)).replace(/\d/g, (c) => SUPERSCRIPT_DIGITS[c]);
}

// x as m × 10ⁿ with `digits` decimals in m (1 <= |m| < 10 after rounding),
// no-break spaces so it never splits across lines: 2.4e-7 -> "2.4 × 10⁻⁷"; 0 -> "0".
export function formatPower(x, { digits = 1 } = {}) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  if (x === 0) return '0';
  let e = Math.floor(Math.log10(Math.abs(x)));
  let m = x / 10 ** e;
  if (Math.abs(Number(m.toFixed(digits))) >= 10) { m /= 10; e += 1; }
  return `${formatNumber(m, { digits })}${NBSP}×${NBSP}10${superscript(e)}`;
}

// A count: grouped digits below a million, else m × 10ⁿ with 2 decimals.
export function formatCount(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  if (Math.abs(x) < 1e6) return formatNumber(x, { digits: 0 });
  return formatPower(x, { digits: 2 });
}

// ---- timings ----

// ms with 3 significant digits: 0.00512, 0.0871, 1.23, 331, 1,234
export function formatMs(x) {
  if (typeof x !== 'number' || !Number.isFinite(x) || x <= 0) return '—';
  return formatNumber(x, { digits: Math.min(6, Math.max(0, 2 - Math.floor(Math.log10(x)))) });
}

// a ratio of two timings: 2 decimals below 10, 1 below 100, none above
export function formatRatio(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '—';
  return formatNumber(x, { digits: x >= 100 ? 0 : x >= 10 ? 1 : 2 });
}
