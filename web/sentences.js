// Preset sentences shared by the widgets that draw maps (string keys, in both languages).
export const sentenceStrings = {
  en: {
    presetDream: 'i have a dream',
    presetThinking: 'Thinking Machines',
    presetLaw: 'The Law will never be perfect, but its application should be just - this is what we are missing, in my opinion.',
    presetVoting: 'It is in this spirit that a majority of American governments have passed new laws since 2009 making the registration or voting process more difficult.',
    presetChinese: '我有一个梦想',
    labelDream: '“i have a dream”', labelThinking: '“Thinking Machines”', labelLaw: 'the Law sentence', labelVoting: 'the voting sentence',
    labelChinese: '中文：我有一个梦想',
  },
  zh: {
    presetDream: 'i have a dream',
    presetThinking: 'Thinking Machines',
    presetLaw: 'The Law will never be perfect, but its application should be just - this is what we are missing, in my opinion.',
    presetVoting: 'It is in this spirit that a majority of American governments have passed new laws since 2009 making the registration or voting process more difficult.',
    presetChinese: '我有一个梦想',
    labelDream: '“i have a dream”', labelThinking: '“Thinking Machines”', labelLaw: 'Law 句（Transformer 论文）', labelVoting: '投票句（Transformer 论文）',
    labelChinese: '中文：我有一个梦想',
  },
};

export const SENTENCE_PRESETS = [
  { value: 'presetDream', label: 'labelDream' },
  { value: 'presetThinking', label: 'labelThinking' },
  { value: 'presetLaw', label: 'labelLaw' },
  { value: 'presetVoting', label: 'labelVoting' },
  { value: 'presetChinese', label: 'labelChinese' },
];
