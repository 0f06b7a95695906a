import type { EventName } from '../../bus/events.js';
import type { Mode } from '../../config/types.js';
import type { Transaction } from '../../store/store.js';
import type { EventData } from '../../types.js';
import { raiseEvent } from '../../webhooks/raise.js';

/** What event `N` adds to `Base`, the data every event of its family carries (typed by its schema). */
export type Adds<N extends EventName, Base> = Omit<EventData<N>, keyof Base>;

/**
 * The last arguments of a family's emitter (`emitPaymentEvent(tx, name, payment, ...adds)`): what
 * event `N` adds, required when it adds a required field, optional otherwise. `N` is the literal
 * name at each call, so a missing, misnamed or mistyped field there fails the type check.
 */
export type EventAdds<N extends EventName, Base> = Record<never, never> extends Adds<N, Base> ? [adds?: Adds<N, Base>] : [adds: Adds<N, Base>];

/**
 * Raises `name` with the data every event of its family carries (`base`) and what this one adds,
 * for a family's emitter. The two are typed apart, by the emitter's signature; TypeScript cannot
 * join them for a generic name (and resolving it there would cost the type check dearly), so they
 * are joined here, once. Added in place rather than spread into a copy: a year of billing builds
 * hundreds of thousands.
 */
export function raiseFamilyEvent<N extends EventName>(
  tx: Transaction,
  name: N,
  owner: { source: string; mode: Mode },
  base: object,
  adds: object | undefined,
  at: number,
): void {
  const data = Object.assign(base, adds) as unknown as EventData<N>;
  raiseEvent(tx, { name, source: owner.source, mode: owner.mode, data }, at);
}

/**
 * The emitter of a family of events (`invoice.*`, `recurring.*`) raised at a given moment: `base`
 * makes the data every event of the family carries from its record, and each call passes what
 * its event adds, typed by that event's schema (`emitInvoiceEvent(tx, 'invoice.paid', invoice,
 * at, { payment_reference })`).
 */
export function familyEmitter<F extends EventName, R extends { source: string; mode: Mode }, Base extends object>(base: (record: R) => Base) {
  return <N extends F>(tx: Transaction, name: N, record: R, at: number, ...[adds]: EventAdds<N, Base>): void =>
    raiseFamilyEvent(tx, name, record, base(record), adds, at);
}
