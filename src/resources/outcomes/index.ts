import { resourceModule, storedCollection } from '../module.js';
import { OutcomeScripts } from './records.js';

/** Scripted outcomes of card payment attempts (`/_payemu/outcomes`): their scripts' collection. */
export const outcomesModule = resourceModule('outcomes', {
  collections: [storedCollection(OutcomeScripts)],
});
