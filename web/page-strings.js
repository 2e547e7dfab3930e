// The page's own text (header, table of contents, footer) in both languages.
export const page = {
  en: {
    documentTitle: 'Attention, live — attention-wasm',
    heading: 'Attention, live',
    lede: 'Attention is a soft lookup: compare a query with every key, turn the similarities into weights that sum to 1, and return the weighted sum of the values. Every number below is computed live by a C++ attention core running in your browser as WebAssembly.',
    footer: 'attention-wasm: a C++17 attention core compiled to WebAssembly. Works offline; nothing leaves this page.',
    contents: 'Contents',
  },
  zh: {
    documentTitle: '注意力机制，实时计算 — attention-wasm',
    heading: '注意力机制，实时计算',
    lede: '注意力是一种“软查找”：把查询与每个键比较，把相似度变成和为 1 的权重，再返回值的加权和。下面的每一个数字都由在你的浏览器中以 WebAssembly 运行的 C++ 注意力核心实时计算。',
    footer: 'attention-wasm：编译为 WebAssembly 的 C++17 注意力核心。可离线使用；没有任何数据离开此页面。',
    contents: '目录',
  },
};
