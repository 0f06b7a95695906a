import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Mode } from '../../config/types.js';
import type { Transaction } from '../../store/store.js';
import { raiseEvent } from '../../webhooks/raise.js';

/**
 * The typed side of raising an event. The webhooks engine takes any name and data (it knows no
 * event); each family of events (`payment.*`, `recurring.*`, `invoice.*`) types its own through
 * the map of its events' data its folder derives from their schemas (`InvoiceEventDataMap`).
 */

/**
 * The `data` of each event of a table of events (name -> `data` schema), by name: a family's map
 * (`InvoiceEventDataMap`), and src/types.ts's EventDataMap of every event. Each event's type is
 * computed once, whichever map names it (TypeScript keeps `FromSchema` of the same schema).
 */
export type EventDataOf<T> = { [N in keyof T]: T[N] extends JSONSchema ? FromSchema<T[N]> : never };

/** What event `N` of the family whose data map is `M` adds to `Base`, the data every event of the family carries. */
export type Adds<M, N extends keyof M, Base> = Omit<M[N], keyof Base>;

/**
 * The last arguments of a family's emitter (`emitPaymentEvent(tx, name, payment, ...adds)`): what
 * event `N` adds, required when it adds a required field, optional otherwise. `N` is the literal
 * name at each call, so a missing, misnamed or mistyped field there fails the type check.
 */
export type EventAdds<M, N extends keyof M, Base> = Record<never, never> extends Adds<M, N, Base> ? [adds?: Adds<M, N, Base>] : [adds: Adds<M, N, Base>];

/**
 * Raises `name` with the data every event of its family carries (`base`) and what this one adds,
 * for a family's emitter. The two are typed apart, by the emitter's signature; TypeScript cannot
 * join them for a generic name (and resolving it there would cost the type check dearly), so they
 * are joined here, once. Added in place rather than spread into a copy: a year of billing builds
 * hundreds of thousands.
 */
export function raiseFamilyEvent(
  tx: Transaction,
  name: string,
  owner: { source: string; mode: Mode },
  base: object,
  adds: object | undefined,
  at: number,
): void {
  const data = Object.assign(base, adds) as Record<string, unknown>;
  raiseEvent(tx, { name, source: owner.source, mode: owner.mode, data }, at);
}

/**
 * The emitter of a family of events (`invoice.*`, `recurring.*`) raised at a given moment: `M` is
 * the family's data by event name, `base` makes the data every event of the family carries from
 * its record, and each call passes what its event adds, typed by that event's schema
 * (`emitInvoiceEvent(tx, 'invoice.paid', invoice, at, { payment_reference })`).
 */
export function familyEmitter<M, R extends { source: string; mode: Mode }, Base extends object>(base: (record: R) => Base) {
  return <N extends keyof M & string>(tx: Transaction, name: N, record: R, at: number, ...[adds]: EventAdds<M, N, Base>): void =>
    raiseFamilyEvent(tx, name, record, base(record), adds, at);
}
