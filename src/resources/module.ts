import type { App } from '../app.js';
import type { JobKind } from '../clock/scheduler.js';
import type { Route } from '../http/route.js';
import type { EventTable } from '../schemas/control.js';
import type { Collection, StoredRecord } from '../store/collection.js';

/**
 * What one part of payemu contributes to the catalogue: a resource folder's `index.ts` exports
 * one, and src/catalogue.ts lists them. Each collection, route, kind of due work and event
 * belongs to exactly one module (test/catalogue.test.ts checks it).
 */
export interface ResourceModule<Events extends EventTable = EventTable> {
  /** The folder's name: `payments` for src/resources/payments/. */
  readonly name: string;
  /** The collections its records live in. */
  readonly collections: readonly Collection<StoredRecord>[];
  /** Its `/v1` routes. */
  readonly routes: readonly Route[];
  /** Its kinds of time-based work (expiries, billing runs). */
  readonly jobs: readonly JobKind<StoredRecord, App>[];
  /**
   * The webhook events it raises, each name with the JSON Schema of its webhook's `data`
   * (`{'invoice.paid': schema}`). The catalogue's event list, the webhook payloads, the OpenAPI
   * document's `webhooks` and the types of src/types.ts (EventName, EventDataMap) are made from
   * these: an event exists by being declared here.
   */
  readonly events: Events;
}

/** A module from its name and the lists it has (the others are empty). */
export function resourceModule<const Events extends EventTable = Record<never, never>>(
  name: string,
  parts: Partial<Omit<ResourceModule, 'name' | 'events'>> & { events?: Events },
): ResourceModule<NoInfer<Events>> {
  // NoInfer: a module without events declares none, even where a list of modules is expected.
  return { name, collections: [], routes: [], jobs: [], events: {} as Events, ...parts };
}

/** One type with the members of every type of the union `U`. */
type Joined<U> = (U extends unknown ? (member: U) => void : never) extends (joined: infer J) => void ? J : never;

/** The events of a list of modules as one table, by name (the type of `moduleEvents(modules)`). */
export type ModuleEvents<M extends readonly ResourceModule[]> = Joined<M[number]['events']>;

/**
 * Every module's events in one table, in the modules' order (each module's in its own order).
 * A name two modules declare would be the last one's: test/catalogue.test.ts checks that none is.
 */
export function moduleEvents<const M extends readonly ResourceModule[]>(modules: M): ModuleEvents<M> {
  return Object.assign({}, ...modules.map((m) => m.events)) as ModuleEvents<M>;
}

/**
 * A collection as the store lists it, its record type forgotten. Sound: the store hands a
 * collection's index functions only the records stored in that collection, which have its type;
 * the type parameter cannot say so, since index functions take a record and the phantom field
 * gives one back (a collection of payments is not a collection of any record).
 */
export function storedCollection<T extends StoredRecord>(collection: Collection<T>): Collection<StoredRecord> {
  return collection as unknown as Collection<StoredRecord>;
}

/**
 * A kind of due work as the scheduler lists it, its record type forgotten. Sound for the same
 * reason: the scheduler calls `dueAt`, `since` and `run` only with records of `kind.collection`.
 * A kind that needs no context (`JobKind<T>`) takes the app too.
 */
export function storedJob<T extends StoredRecord>(kind: JobKind<T, App> | JobKind<T>): JobKind<StoredRecord, App> {
  return kind as unknown as JobKind<StoredRecord, App>;
}
