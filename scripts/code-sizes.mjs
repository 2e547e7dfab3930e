// The sizes of the hand-written code: every source file's lines, and every
// function's in the core and the bindings (cpp/), the facade (cpp/facade/)
// and the page (web/), longest first.
//   node scripts/code-sizes.mjs [--over 80]   prints the functions over that many lines (default 80)
// The limits the code aims at: no file over 400 lines, no function over 80.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const top = fileURLToPath(new URL('..', import.meta.url));

// What is not hand-written code: the built modules, the bundle, the message
// catalogs and each widget's words (one sentence per line: web/i18n/<lang>.js,
// web/widgets/<id>/<lang>.js), the lock file and the data.
const NOT_CODE = [/^web\/wasm\//, /^web\/embed\.js$/, /^web\/(i18n|widgets\/[\w-]+)\/[a-z]{2,3}(-[A-Z][A-Za-z]+)?\.js$/, /\.json$/, /\.md$/, /^LICENSE$/];
const CODE = /\.(cpp|hpp|h|js|mjs|ts|mts|css|sh|html|txt)$/;

export function sourceFiles() {
  const tracked = execFileSync('git', ['ls-files'], { cwd: top, encoding: 'utf8' }).split('\n').filter(Boolean);
  return tracked.filter((path) => CODE.test(path) && !NOT_CODE.some((pattern) => pattern.test(path)));
}

export function fileLines() {
  return sourceFiles().map((path) => ({ path, lines: readFileSync(resolve(top, path), 'utf8').split('\n').length - 1 }))
    .sort((a, b) => b.lines - a.lines);
}

// C++: a function's body is a brace opened outside any function (namespaces
// and classes aside) after a parameter list; its lines run to the matching
// brace. A constructor's initialiser braces (loss_{1}) belong to its head.
// Comments, strings and characters are skipped; a lambda inside counts as its
// function's.
function cppFunctions(path, text) {
  const out = [];
  let line = 1, head = '';
  const stack = [];  // { kind: 'scope' | 'fn' | 'block' | 'init', start, name, head }
  const inFunction = () => stack.some((b) => b.kind === 'fn' || b.kind === 'block');
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '\n') { line++; head += ' '; continue; }
    if (c === '/' && text[k + 1] === '/') { while (k < text.length && text[k] !== '\n') k++; k--; continue; }
    if (c === '/' && text[k + 1] === '*') {
      const end = text.indexOf('*/', k + 2);
      for (let m = k; m < end; m++) if (text[m] === '\n') line++;
      k = end + 1;
      continue;
    }
    if (c === '"' || c === '\'') {
      if (c === '"' && text[k - 1] === 'R') {  // a raw string R"(...)"
        const end = text.indexOf(')"', k);
        for (let m = k; m < end; m++) if (text[m] === '\n') line++;
        k = end + 1;
      } else {
        let m = k + 1;
        while (m < text.length && text[m] !== c) m += text[m] === '\\' ? 2 : 1;
        k = m;
      }
      head += 'x';
      continue;
    }
    if (c === '{') {
      const before = head.trim();
      let kind = 'block';
      if (!inFunction()) {
        if (/\b(namespace|class|struct|union|enum|extern)\b[^(]*$/.test(before)) kind = 'scope';
        else if (/\)\s*(?:const\s*)?(?:noexcept\s*)?:[^:]/.test(before) && /[\w>]$/.test(before)) kind = 'init';
        else if (before.includes('(')) kind = 'fn';
      }
      const name = /([~\w:]+)\s*\(/.exec(before)?.[1] ?? '';
      stack.push({ kind, start: line, name, head });
      if (kind !== 'init') head = '';
      continue;
    }
    if (c === '}') {
      const b = stack.pop();
      if (b?.kind === 'fn') out.push({ path, name: b.name, start: b.start, lines: line - b.start + 1 });
      head = b?.kind === 'init' ? `${b.head}{}` : '';
      continue;
    }
    if (c === ';') { head = ''; continue; }
    head += c;
  }
  return out;
}

// JavaScript: every function, method and arrow function with a block body,
// from TypeScript's parser (a test dependency); nested ones count for
// themselves and for the function around them.
function jsFunctions(path, text, ts) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const out = [];
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body && ts.isBlock(node.body)) {
      const name = node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
      const start = lineOf(node.getStart(source));
      out.push({ path, name, start, lines: lineOf(node.end) - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

export function functionLines() {
  const require = createRequire(import.meta.url);
  const ts = require('typescript');
  const out = [];
  for (const path of sourceFiles()) {
    const text = readFileSync(resolve(top, path), 'utf8');
    if (/^cpp\/.*\.(cpp|hpp|h)$/.test(path)) out.push(...cppFunctions(path, text));
    else if (/^(web|cpp\/facade)\/.*\.js$/.test(path)) out.push(...jsFunctions(path, text, ts));
  }
  return out.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const over = Number(process.argv[process.argv.indexOf('--over') + 1]) || 80;
  console.log('files over 400 lines:');
  for (const f of fileLines().filter((f) => f.lines > 400)) console.log(`  ${f.lines}  ${f.path}`);
  console.log(`functions over ${over} lines:`);
  for (const f of functionLines().filter((f) => f.lines > over)) console.log(`  ${f.lines}  ${f.path}:${f.start} ${f.name}`);
}
