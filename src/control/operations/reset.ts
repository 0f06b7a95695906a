import { resetReport } from '../../schemas/control.js';
import { type Input, operation } from '../operation.js';
import { resetScope } from '../reset.js';

/** `POST /_payemu/reset`: empties the key's Source and mode, or everything with `{"all": true}` (see reset.ts). */
export const reset = operation({
  method: 'POST',
  path: '/_payemu/reset',
  summary: 'Empty the key\'s Source and mode, or everything with `{"all": true}`',
  body: { type: 'object', properties: { all: { type: 'boolean' } } },
  result: resetReport,
  run: (app, scope, { body }: Input<{ all?: boolean }>) => resetScope(app, { source: scope.source.slug, mode: scope.mode }, body.all === true),
  client: { name: 'reset', args: (options: { all?: boolean } = {}) => ({ body: options.all ? { all: true } : {} }) },
});
