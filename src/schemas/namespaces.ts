import { NAMESPACE_NAME } from '../lib/namespace-name.js';
import { clockView } from './control.js';
import { integer, named, object, string, timestamp } from './wire.js';

/** JSON Schemas of the namespaces' control operations (`/_payemu/namespaces`). */

export const namespaceName = named('NamespaceName', {
  type: 'string',
  pattern: NAMESPACE_NAME.source,
  description: 'A named namespace: 1 to 32 characters of a-z, 0-9, _ and -.',
});

export const namespaceView = named(
  'Namespace',
  object({
    name: string,
    created_at: timestamp,
    clock: clockView,
    // Every collection of records, 0s included: payments, sessions, refunds, events, ...
    counts: { type: 'object', additionalProperties: integer },
  }),
);

export const namespaceList = named('NamespaceList', object({ namespaces: { type: 'array', items: namespaceView } }));

export const namespaceDeleted = named('NamespaceDeleted', object({ deleted: string }));
