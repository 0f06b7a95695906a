import { InvalidInput } from '../../http/errors.js';
import { Faults, newFault, presentFault } from '../../http/faults.js';
import { type FaultInput, faultProblem, faultSchema, withDefaults } from '../../lib/faults.js';
import { faultView } from '../../schemas/control.js';
import { type Input, byKey, operation } from '../operation.js';

/**
 * `POST /_payemu/faults` (docs/control-plane.md, "Faults"): a fault on the key's Source and
 * mode's /v1 requests. Added faults are tried oldest first; the first that acts on a request wins.
 */
export const faultAdd = operation({
  method: 'POST',
  path: '/_payemu/faults',
  summary: "Add a fault on the key's Source and mode's /v1 requests",
  body: faultSchema,
  status: 201,
  result: faultView,
  errors: [422],
  run: (app, scope, { body }: Input<FaultInput>, { now }) => {
    const problem = faultProblem(body);
    if (problem) throw InvalidInput.field(...problem);
    const fault = app.store.transaction((tx) => tx.put(Faults, newFault(withDefaults(body), { source: scope.source.slug, mode: scope.mode }, now)));
    return presentFault(fault);
  },
  client: { name: 'addFault', args: (fault: FaultInput) => ({ body: fault }) },
  library: {
    at: 'faults.add',
    args: (fault: FaultInput, options?: { key?: string }) => ({ ...byKey(options), input: { body: fault } }),
    error: 'as-client',
    async: true,
  },
});
