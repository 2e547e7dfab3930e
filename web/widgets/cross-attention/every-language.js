// The "cross-attention" widget's words that are the same in every language: the
// example pairs of sentences, an English one and its Chinese translation, and a
// formula. Written once here; each language's file (en.js, zh.js) includes
// them.
export default {
  sourceDream: 'i have a dream',
  targetDream: '我有一个梦想',
  sourceThinking: 'Thinking Machines',
  targetThinking: '思考的机器',
  sourceAttention: 'attention is all you need',
  targetAttention: '注意力就是你所需要的一切',
  pairDream: 'i have a dream ↔ 我有一个梦想',
  pairThinking: 'Thinking Machines ↔ 思考的机器',
  pairAttention: 'attention is all you need ↔ 注意力就是你所需要的一切',
  pairBack: '我有一个梦想 ↔ i have a dream',
  dot: 'q·k',
};
