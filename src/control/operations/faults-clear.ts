import { faultsOf, Faults } from '../../http/faults.js';
import { faultRemoved } from '../../schemas/control.js';
import { byKey, operation } from '../operation.js';

/** `DELETE /_payemu/faults`: removes every fault of the key's Source and mode; answers how many. */
export const faultsClear = operation({
  method: 'DELETE',
  path: '/_payemu/faults',
  summary: "Remove every fault of the key's Source and mode",
  result: faultRemoved,
  run: (app, scope) => {
    const faults = faultsOf(app.store, scope.source.slug, scope.mode);
    app.store.transaction((tx) => {
      for (const fault of faults) tx.delete(Faults, fault.id);
    });
    return { removed: faults.length };
  },
  client: { name: 'clearFaults' },
  library: {
    at: 'faults.clear',
    args: byKey,
    result: (answer) => answer.removed,
    error: 'as-client',
    async: true,
  },
});
