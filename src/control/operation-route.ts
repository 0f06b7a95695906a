import type { Reply } from '../http/envelope.js';
import { type ApiContext, type ApiRoute, control, open, type OpenRoute } from '../http/route.js';
import { errors } from '../schemas/wire.js';
import type { AnyOperation, RunContext } from './operation.js';

/**
 * The HTTP route of a control operation: key auth (not rate limited) unless `open`, the query
 * and body validated by the entry's schemas, the answer its result with its status. Under an
 * `Idempotency-Key` (every POST takes one) the result is saved with the key: by the run itself
 * when it spans transactions (`save`), else with the work it did, before `settle` is awaited.
 */
export function operationRoute(op: AnyOperation): ApiRoute | OpenRoute {
  const status = op.status ?? 200;
  const responses: Record<number, object> = { [status]: op.result };
  for (const refusal of op.errors ?? []) responses[refusal] = errors;
  const doc = {
    method: op.method,
    path: op.path,
    summary: op.summary,
    description: op.description,
    responses,
    query: op.query,
    pathParameters: op.pathParameters,
  };
  if (op.open) {
    // An open operation (health) acts as no Source: its run reads no scope.
    return open({
      ...doc,
      handle: ({ app, params, query, now }) => answer(op.run(app, undefined as never, { params, query, body: undefined }, { now }), status),
    });
  }
  return control({
    ...doc,
    body: op.body,
    bodyLimit: op.bodyLimit,
    readBody: op.readBody,
    idempotent: op.idempotent,
    anyNamespace: op.anyNamespace,
    handle: (ctx: ApiContext) => {
      const { app, scope, params, query, body, now, saveResult } = ctx;
      let saved: Reply | undefined;
      const context: RunContext = { now };
      if (saveResult) context.save = (tx, result) => void (saved = saveResult(tx, { status, json: result }));
      const result = op.run(app, scope, { params, query, body }, context);
      // Written by the entry itself, piece by piece (a GET: no key to save, nothing to settle).
      const write = op.write;
      if (write)
        return Promise.resolve(result).then(async (value): Promise<Reply> => {
          await write(value, ctx.res, status);
          return { status, streamed: true };
        });
      // With `settle` still to wait for, the key is saved now, with the run's work (a retry
      // after a crash then does nothing again); otherwise the idempotency layer saves the answer.
      const finish = (settled: unknown): Reply => {
        const reply = { status, json: settled };
        return saved ?? (op.settle && saveResult ? app.store.transaction((tx) => saveResult(tx, reply)) : reply);
      };
      const reply = result instanceof Promise ? result.then(finish) : finish(result);
      if (!op.settle) return reply;
      return Promise.resolve(reply).then(async (sent) => {
        await op.settle!(app);
        return sent;
      });
    },
  });
}

function answer(result: unknown, status: number): Reply | Promise<Reply> {
  return result instanceof Promise ? result.then((json) => ({ status, json })) : { status, json: result };
}
