import { NotFound, Unprocessable } from '../http/errors.js';
import { Faults, faultsOf, newFault, presentFault } from '../http/faults.js';
import { control, controlAt } from '../http/route.js';
import { errors } from '../schemas/wire.js';
import { type FaultInput, faultProblem, faultSchema, withDefaults } from '../lib/faults.js';
import { faultList, faultRemoved, faultView } from '../schemas/control.js';

const faults = controlAt('/_payemu/faults');

/**
 * `/_payemu/faults` (docs/control-plane.md, "Faults"): faults on the key's Source and mode's
 * /v1 requests. Added faults are tried oldest first; the first that acts on a request wins.
 */
export const faultRoutes = [
  faults.post<FaultInput>({
    summary: "Add a fault on the key's Source and mode's /v1 requests",
    body: faultSchema,
    responses: { 201: faultView, 422: errors },
    handle: ({ app, scope, body, now }) => {
      const problem = faultProblem(body);
      if (problem) throw Unprocessable.field(...problem);
      const fault = app.store.transaction((tx) => tx.put(Faults, newFault(withDefaults(body), { source: scope.source.slug, mode: scope.mode }, now)));
      return { status: 201, json: presentFault(fault) };
    },
  }),
  faults.get({
    summary: "List the faults of the key's Source and mode, oldest first",
    responses: { 200: faultList },
    handle: ({ app, scope }) => ({ status: 200, json: { faults: faultsOf(app.store, scope.source.slug, scope.mode).map(presentFault) } }),
  }),
  control({
    method: 'DELETE',
    path: '/_payemu/faults/:id',
    summary: 'Remove one fault (answers it as it was)',
    responses: { 200: faultView, 404: errors },
    handle: ({ app, scope, params }) => {
      const fault = app.store.get(Faults, params.id!);
      if (!fault || fault.source !== scope.source.slug || fault.mode !== scope.mode) throw new NotFound(`No fault with id "${params.id}".`);
      app.store.transaction((tx) => tx.delete(Faults, fault.id));
      return { status: 200, json: presentFault(fault) };
    },
  }),
  faults.delete({
    summary: "Remove every fault of the key's Source and mode",
    responses: { 200: faultRemoved },
    handle: ({ app, scope }) => {
      const faults = faultsOf(app.store, scope.source.slug, scope.mode);
      app.store.transaction((tx) => {
        for (const fault of faults) tx.delete(Faults, fault.id);
      });
      return { status: 200, json: { removed: faults.length } };
    },
  }),
];
