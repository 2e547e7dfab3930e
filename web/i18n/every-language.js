// The messages of the catalog that are the same in every language: the
// export formats' names, the preset sentences (the article's examples, in
// English and in Chinese) and the buttons that quote them. Written once here;
// each language's catalog (en.js, zh.js) includes them in its common section.
export default {
  common: {
    exportPng: 'PNG',
    exportSvg: 'SVG',
    exportCsv: 'CSV',
    exportJson: 'JSON',
    presetDream: 'i have a dream',
    presetThinking: 'Thinking Machines',
    presetLaw: 'The Law will never be perfect, but its application should be just - this is what we are missing, in my opinion.',
    presetVoting: 'It is in this spirit that a majority of American governments have passed new laws since 2009 making the registration or voting process more difficult.',
    presetChinese: '我有一个梦想',
    labelDream: '“i have a dream”',
    labelThinking: '“Thinking Machines”',
    labelChinese: '中文：我有一个梦想',
    fileOther: '{name}',
  },
};
