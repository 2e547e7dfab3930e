// The facade of the training module, attention-training.mjs (appended inside
// its factory with --post-js, last: after api-checks.js, api-trainer.js and
// api-language-model.js). The attention module's createTrainer,
// createWidthTrainer, createLanguageModel, repeatsCorpus and ownCorpus import this module on first use
// and create through it; a page that trains nothing never downloads this code.

(function defineAttentionTraining(Module, checks, trainers, languageModels) {
  'use strict';

  checks.publish({
    createTrainer: trainers.createTrainer,
    createWidthTrainer: trainers.createWidthTrainer,
    createLanguageModel: languageModels.createLanguageModel,
    repeatsCorpus: languageModels.repeatsCorpus,
    ownCorpus: languageModels.ownCorpus,
    debug: checks.debugOf(Module),
  });
})(Module, attentionChecks, attentionTrainers, attentionLanguageModels);
