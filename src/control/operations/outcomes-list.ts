import { bySourceAndMode, operation } from '../operation.js';
import { listScripts, outcomeList } from '../outcomes.js';

/** `GET /_payemu/outcomes`: the scripts of the key's Source and mode, oldest first. */
export const outcomesList = operation({
  method: 'GET',
  path: '/_payemu/outcomes',
  summary: "List the scripted outcomes of the key's Source and mode, oldest first",
  result: outcomeList,
  run: (app, scope) => ({ outcomes: listScripts(app, scope) }),
  client: { name: 'outcomes', result: (answer) => answer.outcomes },
  library: { at: 'outcomes.list', args: bySourceAndMode, result: (answer) => answer.outcomes },
});
