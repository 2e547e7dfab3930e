// The display formatters of web/render/format.js: powers of ten with real
// superscripts (the sign of a negative exponent kept), counts, timings, ratios.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCount, formatMs, formatNumber, formatPower, formatRatio, superscript } from '../../web/render/format.js';

const NBSP = '\u00a0';
const power = (m, e) => `${m}${NBSP}×${NBSP}10${e}`;

test('superscript: digits and the minus sign', () => {
  assert.equal(superscript(0), '⁰');
  assert.equal(superscript(7), '⁷');
  assert.equal(superscript(1234567890), '¹²³⁴⁵⁶⁷⁸⁹⁰');
  assert.equal(superscript(-7), '⁻⁷');
  assert.equal(superscript(-12), '⁻¹²');
  assert.equal(superscript(1.5), '', 'not an integer');
});

test('formatPower: positive and negative exponents', () => {
  assert.equal(formatPower(2.4e-7), power('2.4', '⁻⁷'));
  assert.equal(formatPower(3.0e-12), power('3.0', '⁻¹²'));
  assert.equal(formatPower(1.5e9, { digits: 2 }), power('1.50', '⁹'));
  assert.equal(formatPower(123456789, { digits: 2 }), power('1.23', '⁸'));
  assert.equal(formatPower(0.5), power('5.0', '⁻¹'));
  assert.equal(formatPower(7), power('7.0', '⁰'));
  assert.equal(formatPower(0), '0');
});

test('formatPower: a mantissa that rounds to 10 moves to the next power', () => {
  assert.equal(formatPower(9.96e-5), power('1.0', '⁻⁴'));
  assert.equal(formatPower(9.999e6, { digits: 2 }), power('1.00', '⁷'));
  assert.equal(formatPower(9.94e-5), power('9.9', '⁻⁵'));
});

test('formatPower: negative numbers keep a real minus sign', () => {
  assert.equal(formatPower(-2.5e-3), power('\u22122.5', '⁻³'));
  assert.equal(formatPower(-9.96e4), power('\u22121.0', '⁵'));
});

test('formatPower, formatCount, formatMs, formatRatio: no NaN or Infinity on the page', () => {
  for (const f of [formatPower, formatCount, formatMs, formatRatio]) {
    for (const x of [NaN, Infinity, -Infinity, undefined, null, '3']) assert.equal(f(x), '—', `${f.name}(${x})`);
  }
});

test('formatCount: grouped digits below a million, a power of ten above', () => {
  assert.equal(formatCount(0), '0');
  assert.equal(formatCount(27520), '27,520');
  assert.equal(formatCount(999999), '999,999');
  assert.equal(formatCount(1e6), power('1.00', '⁶'));
  assert.equal(formatCount(8589934592), power('8.59', '⁹'));
});

test('formatMs: three significant digits; formatRatio: fewer decimals as it grows', () => {
  assert.equal(formatMs(0.0051234), '0.00512');
  assert.equal(formatMs(0.08712), '0.0871');
  assert.equal(formatMs(1.2345), '1.23');
  assert.equal(formatMs(331.4), '331');
  assert.equal(formatMs(1234.4), '1,234');
  assert.equal(formatMs(0), '—', 'a time is never 0');
  assert.equal(formatRatio(3.14159), '3.14');
  assert.equal(formatRatio(31.4159), '31.4');
  assert.equal(formatRatio(314.159), '314');
  assert.equal(formatNumber(-1e-9, { digits: 2 }), '0.00', 'no minus zero');
});

test('formatNumber writes what Intl.NumberFormat writes, on its fast path (fixed decimals, below 999) and off it', () => {
  const intl = (x, digits, minDigits = digits) => {
    let text = new Intl.NumberFormat('en-US', { minimumFractionDigits: minDigits, maximumFractionDigits: digits }).format(x);
    if (/^-0(\.0*)?$/.test(text)) text = text.slice(1);
    return text.replace('-', '\u2212');
  };
  // halves at every decimal (0.125, 2.675: binary values just above or below), weights, scores, the edges of 1000
  const values = [0, 0.5, 0.125, 0.375, 2.675, 1.005, 0.9995, 999.995, 999.9949, 1000, 1234.5678, -0.125, -2.675, -999.999, 1e-7, -1e-7];
  let seed = 7;
  for (let k = 0; k < 2000; k++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    values.push((seed / 2147483648 - 0.5) * (k % 2 ? 2 : 2400), Math.round(seed / 2147483.648) / 1000 - 500);
  }
  for (const x of values) {
    for (const digits of [0, 1, 2, 3, 4, 6]) assert.equal(formatNumber(x, { digits }), intl(x, digits), `${x} with ${digits} decimals`);
    assert.equal(formatNumber(x, { digits: 3, minDigits: 0 }), intl(x, 3, 0), `${x} with up to 3 decimals`);
  }
});
