// The "sentence-similarity" widget's words in Simplified Chinese (the same keys as en.js).
export default {
  title: '两个句子有多相似？',
  intro: '一个训练好的小型英文句子编码器（Universal Sentence Encoder Lite，后面“真实的训练模型”一节会展示它的注意力头）会把整个句子变成一个含 512 个数、长度为 1 的向量。意思相同的句子，向量指向相同的方向：两句的相似度就是两个向量的点积（即余弦，从 −1 到 1），由核心按注意力打分所用的 q·k 计算。可以修改这些句子（模型只懂英文）。',
  labelA: '句子 A',
  labelB: '句子 B',
  labelC: '句子 C',
  pair: '{a} · {b}',
  empty: '请输入句子 {name}',
  bar: '{a} 与 {b} 的相似度：{v}',
  csvA: '句子',
  csvB: '另一句',
  csvCosine: '相似度（余弦）',
};
