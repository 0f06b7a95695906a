import type { EventName } from '../../bus/events.js';
import type { EventData } from '../../types.js';

/** What event `N` adds to `Base`, the data every event of its family carries (typed by its schema). */
export type Adds<N extends EventName, Base> = Omit<EventData<N>, keyof Base>;

/**
 * The last arguments of a family's emitter (`emitPaymentEvent(tx, name, payment, ...adds)`): what
 * event `N` adds, required when it adds a required field, optional otherwise. `N` is the literal
 * name at each call, so a missing, misnamed or mistyped field there fails the type check.
 */
export type EventAdds<N extends EventName, Base> = Record<never, never> extends Adds<N, Base> ? [adds?: Adds<N, Base>] : [adds: Adds<N, Base>];
