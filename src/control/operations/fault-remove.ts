import { NotFound } from '../../http/errors.js';
import { Faults, presentFault } from '../../http/faults.js';
import { faultView } from '../../schemas/control.js';
import { type Input, byKey, operation } from '../operation.js';

/** `DELETE /_payemu/faults/:id`: removes one fault; answers it as it was. */
export const faultRemove = operation({
  method: 'DELETE',
  path: '/_payemu/faults/:id',
  summary: 'Remove one fault (answers it as it was)',
  result: faultView,
  errors: [404],
  run: (app, scope, { params }: Input<never, never, 'id'>) => {
    const fault = app.store.get(Faults, params.id);
    if (!fault || fault.source !== scope.source.slug || fault.mode !== scope.mode) throw new NotFound(`No fault with id "${params.id}".`);
    app.store.transaction((tx) => tx.delete(Faults, fault.id));
    return presentFault(fault);
  },
  client: { name: 'removeFault', args: (id: string) => ({ params: { id } }) },
  library: {
    at: 'faults.remove',
    args: (id: string, options?: { key?: string }) => ({ ...byKey(options), input: { params: { id } } }),
    error: 'as-client',
    async: true,
  },
});
