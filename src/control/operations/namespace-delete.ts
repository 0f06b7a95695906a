import { NotFound } from '../../http/errors.js';
import { isNamespaceName } from '../../lib/namespace-name.js';
import { namespaceDeleted, namespaceName } from '../../schemas/namespaces.js';
import { type Input, operation } from '../operation.js';

/**
 * `DELETE /_payemu/namespaces/:name` (docs/namespaces.md), with any key: drops a named
 * namespace, its pending deliveries included, and its data; the next request with its key
 * makes it afresh.
 */
export const namespaceDelete = operation({
  method: 'DELETE',
  path: '/_payemu/namespaces/:name',
  pathParameters: { name: namespaceName },
  summary: 'Drop a named namespace, its records, clock and pending deliveries (any key)',
  anyNamespace: true,
  result: namespaceDeleted,
  errors: [404],
  run: async (app, _scope, { params }: Input<never, never, 'name'>) => {
    const { name } = params;
    if (!isNamespaceName(name) || !(await app.namespaces.delete(name))) throw new NotFound(`There is no namespace "${name}" in this payemu.`);
    return { deleted: name };
  },
  client: { name: 'deleteNamespace', args: (name: string) => ({ params: { name } }) },
  library: { at: 'namespaces.delete', args: (name: string) => ({ input: { params: { name } } }), error: 'as-client', async: true },
});
