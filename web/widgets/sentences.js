// Preset sentences shared by the widgets that draw maps: catalog keys of the
// sentence (value) and of its button (label), in the common section.
export const SENTENCE_PRESETS = [
  { value: 'presetDream', label: 'labelDream' },
  { value: 'presetThinking', label: 'labelThinking' },
  { value: 'presetLaw', label: 'labelLaw' },
  { value: 'presetVoting', label: 'labelVoting' },
  { value: 'presetChinese', label: 'labelChinese' },
];
