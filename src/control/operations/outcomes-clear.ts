import { bySourceAndMode, operation } from '../operation.js';
import { clearScripts, outcomesCleared } from '../outcomes.js';

/** `DELETE /_payemu/outcomes`: removes every script of the key's Source and mode; the library answers how many. */
export const outcomesClear = operation({
  method: 'DELETE',
  path: '/_payemu/outcomes',
  summary: "Remove every scripted outcome of the key's Source and mode",
  result: outcomesCleared,
  run: (app, scope) => ({ removed: clearScripts(app, scope) }),
  client: { name: 'clearOutcomes' },
  library: { at: 'outcomes.clear', args: bySourceAndMode, result: (answer) => answer.removed },
});
