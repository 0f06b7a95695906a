import { faultsOf, presentFault } from '../../http/faults.js';
import { faultList } from '../../schemas/control.js';
import { byKey, operation } from '../operation.js';

/** `GET /_payemu/faults`: the faults of the key's Source and mode, oldest (first to act) first. */
export const faultsList = operation({
  method: 'GET',
  path: '/_payemu/faults',
  summary: "List the faults of the key's Source and mode, oldest first",
  result: faultList,
  run: (app, scope) => ({ faults: faultsOf(app.store, scope.source.slug, scope.mode).map(presentFault) }),
  client: { name: 'faults', result: (answer) => answer.faults },
  library: {
    at: 'faults.list',
    args: byKey,
    result: (answer) => answer.faults,
    error: 'as-client',
    async: true,
  },
});
