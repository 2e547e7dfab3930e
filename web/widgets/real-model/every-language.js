// The "real-model" widget's words that are the same in every language: the
// English sentences the model reads, and the words their buttons quote. Written
// once here; each language's file (en.js, zh.js) includes them.
export default {
  presetUmbrella: 'The woman took her umbrella because it was raining.',
  presetStudents: 'The students said that their teacher was kind.',
  presetFather: 'My father told me his car was broken.',
  presetGirl: 'The girl said she was tired.',
  presetJohn: 'John called because he needed help.',
  presetTired: 'The animal didn\'t cross the street because it was too tired.',
  presetWide: 'The animal didn\'t cross the street because it was too wide.',
  labelUmbrella: '“her umbrella”',
  labelStudents: '“their teacher”',
  labelFather: '“his car”',
  labelGirl: '“she was tired”',
  labelJohn: '“he needed help”',
};
