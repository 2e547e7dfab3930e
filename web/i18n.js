// Languages: English and Simplified Chinese, for every string of every widget.
// A widget brings its own table { en: {...}, zh: {...} }; `common` holds the
// strings every widget shares. The language comes from ?lang=, else from the
// browser, else English.
export const LANGUAGES = ['en', 'zh'];

// 'zh' for any Chinese browser language, else 'en'; ?lang= wins when valid.
export function detectLanguage(search = globalThis.location?.search ?? '', preferred = globalThis.navigator?.languages ?? []) {
  const asked = new URLSearchParams(search).get('lang');
  if (LANGUAGES.includes(asked)) return asked;
  for (const tag of preferred) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

// t(key, vars): the string for key in lang, {name} placeholders filled from vars.
// Falls back to English, then to the key itself (tests check no key is missing).
export function translator(lang, ...tables) {
  const lookup = (language, key) => {
    for (const table of tables) if (table[language] && key in table[language]) return table[language][key];
    return undefined;
  };
  const t = (key, vars = {}) => {
    const text = lookup(lang, key) ?? lookup('en', key) ?? key;
    return String(text).replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
  };
  t.lang = lang;
  return t;
}

export const common = {
  en: {
    loading: 'Loading the attention core…',
    error: 'The attention core reported a problem: {message}',
    startError: 'This widget could not start: {message}',
    export: 'Export',
    exportPng: 'PNG',
    exportSvg: 'SVG',
    exportCsv: 'CSV',
    exportJson: 'JSON',
    embed: 'Embed this view',
    embedIframe: 'As an iframe',
    embedScript: 'As a script tag (works from any page, also file://)',
    copy: 'Copy',
    copied: 'Copied',
    predict: 'Predict first',
    reveal: 'Reveal',
    yourGuess: 'Your guess: {guess}.',
    correct: 'Right!',
    wrong: 'Not quite.',
    illustrative: 'Illustrative: the word vectors and projections are random (seeded), not learned, so the map shows how attention computes, not what a trained model attends to.',
    tooManyWords: 'The sentence has {count} words; this widget shows at most {max}.',
    emptyList: 'The {name} are empty: type numbers separated by commas.',
    notANumber: 'Entry {index} of the {name}, “{text}”, is not a number.',
    presets: 'Examples',
    emptySentence: 'Type a sentence: it is empty.',
    table: 'Numbers as a table',
    query: 'query',
    key: 'key',
    language: 'Language',
  },
  zh: {
    loading: '正在加载注意力计算核心…',
    error: '注意力核心报告了一个问题：{message}',
    startError: '此组件无法启动：{message}',
    export: '导出',
    exportPng: 'PNG',
    exportSvg: 'SVG',
    exportCsv: 'CSV',
    exportJson: 'JSON',
    embed: '嵌入当前视图',
    embedIframe: '用 iframe 嵌入',
    embedScript: '用 script 标签嵌入（任何页面可用，包括 file://）',
    copy: '复制',
    copied: '已复制',
    predict: '先预测',
    reveal: '揭晓',
    yourGuess: '你的猜测：{guess}。',
    correct: '答对了！',
    wrong: '不完全对。',
    illustrative: '示意图：词向量和投影矩阵是随机（固定种子）生成的，并非训练所得；此图展示注意力如何计算，而不是训练好的模型关注什么。',
    tooManyWords: '句子有 {count} 个词；此组件最多显示 {max} 个。',
    emptyList: '{name}为空：请输入用逗号分隔的数字。',
    notANumber: '{name}的第 {index} 项“{text}”不是数字。',
    presets: '示例',
    emptySentence: '请输入一个句子：当前为空。',
    table: '数值表格',
    query: '查询',
    key: '键',
    language: '语言',
  },
};

// One table from several { en, zh } tables (later ones win).
export function mergeStrings(...tables) {
  const out = {};
  for (const lang of LANGUAGES) out[lang] = Object.assign({}, ...tables.map((table) => table[lang] ?? {}));
  return out;
}
