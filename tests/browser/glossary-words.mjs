// The words of each glossary term as the page writes them, per language (the
// glossary browser test finds each term's first use on the page with them),
// and the in-page scan that finds the first uses.
export const TERM_WORDS = {
  en: {
    entropy: /\bentropy\b/i, nats: /\bnats?\b/i, adam: /\bAdam\b/, heldOut: /\bheld-out\b/i, leaveOneOut: /\bleave-one-out\b/i,
    decoder: /\bdecoders?\b/i, temperature: /\btemperature\b/i, topK: /\btop-k\b/i, layerNorm: /\blayer norms?\b/i,
    residual: /\bresidual connections?\b/i, mlp: /\bMLPs?\b/, logits: /\blogits?\b/i, kvCache: /\bkey-value cache\b/i,
    crossEntropy: /\bcross-entropy\b/i, token: /\btokens?\b/i, nadarayaWatson: /\bNadaraya\b/, backprop: /\bbackpropagation\b/i,
    gelu: /\bGELU\b/, unembedding: /\bunembedding\b/i, prefill: /\bprefill\b/i, decode: /\bdecode\b/i, topP: /\btop-p\b/i,
    minP: /\bmin-p\b/i, onlineSoftmax: /\bonline softmax\b/i, logSumExp: /\blog-sum-exp\b/i, tile: /\btiles?\b/i,
    flashAttention: /\bFlashAttention\b/, gradientCheck: /\bgradient check\b/i,
    rope: /\bRoPE\b(?! base)|\brotary position embedding\b/i, ropeBase: /\bRoPE base\b/i,
    alibi: /\bALiBi\b/, extrapolate: /\bextrapolat(e|es|ion)\b/i,
    slidingWindow: /\bsliding windows?\b/i, attentionSink: /\battention sinks?\b/i,
    gqa: /\bgrouped-query attention\b|\bGQA\b/i, mqa: /\bmulti-query attention\b|\bMQA\b/i,
  },
  zh: {
    entropy: /熵(?!损失)/, nats: /奈特/, adam: /\bAdam\b/, heldOut: /留出/, leaveOneOut: /留一/, decoder: /解码器/, temperature: /温度/,
    topK: /top-k/i, layerNorm: /层归一化/, residual: /残差连接/, mlp: /\bMLP\b/, logits: /\blogits?\b/i, kvCache: /键值缓存/,
    crossEntropy: /交叉熵/, token: /词元/, nadarayaWatson: /Nadaraya/, backprop: /反向传播/, gelu: /\bGELU\b/, unembedding: /反嵌入/,
    prefill: /预填充/, decode: /解码(?!器)/, topP: /top-p/i, minP: /min-p/i, onlineSoftmax: /在线 softmax/i, logSumExp: /log-sum-exp/i,
    tile: /分块/, flashAttention: /FlashAttention/, gradientCheck: /梯度检验/,
    rope: /旋转位置编码|\bRoPE\b(?! ?基数)/, ropeBase: /RoPE ?基数/,
    alibi: /ALiBi/, extrapolate: /外推/,
    slidingWindow: /滑动窗口/, attentionSink: /注意力汇聚点/,
    gqa: /分组查询注意力|\bGQA\b/, mqa: /多查询注意力|\bMQA\b/,
  },
};

// In the page: for each term (id -> [source, flags] of its words), its first
// use in the text of main in document order (the glossary section and the
// popovers' definitions left out, and the sections' titles, which name what
// their intro then explains): { widget, tag, text, marked (inside a button of
// that term) }, or null where it is not used.
export function firstUses(words) {
  const out = Object.fromEntries(Object.keys(words).map((id) => [id, null]));
  const patterns = Object.entries(words).map(([id, [source, flags]]) => [id, new RegExp(source, flags)]);
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement.closest('.term-definition, .widget-title, #glossary, script, style') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const [id, pattern] of patterns) {
      if (out[id] || !pattern.test(node.data)) continue;
      const button = node.parentElement.closest('.term-button');
      out[id] = { widget: node.parentElement.closest('[data-widget]')?.dataset.widget ?? '', tag: node.parentElement.tagName.toLowerCase(),
        text: node.data, marked: button?.dataset.term === id };
    }
  }
  return out;
}
