// The batch losses of the language-model widget's names model (its batch and the
// names' options, seed 1, with these options over them) after each of `steps`
// steps, computed by the module at `module` on the corpus file at `data` (paths):
// what the widget must show for the same link.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { BATCH, CORPORA } from '../../web/widgets/language-model/engine.js';

export async function namesLosses({ module, data }, options, steps) {
  const names = JSON.parse(readFileSync(data, 'utf8'));
  const att = await (await import(pathToFileURL(module).href)).default();
  const lm = await att.createLanguageModel({ texts: names.train, heldOut: names.heldOut.slice(0, CORPORA.names.heldOut),
    seed: 1, batch: BATCH, ...CORPORA.names.options, ...options });
  try {
    return Array.from(lm.step(steps).losses);
  } finally {
    lm.delete();
  }
}
