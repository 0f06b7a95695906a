import type { App } from '../app.js';
import { presentEvent } from '../webhooks/present.js';
import { Events, eventReference, type EventRecord } from '../webhooks/records.js';
import type { Emulator, EventEntry } from './types.js';

// The log holds the catalogue's events only: raised by the modules that declare them, or imported
// through the stored-record schema that names them (the engine's records say `string`).
const entry = (event: EventRecord) => presentEvent(event) as EventEntry;

/** `Emulator.events`: the event log as `GET /_payemu/events` shows it, resends, and live events. */
export function eventMethods(app: App): Emulator['events'] {
  const { store, webhooks, bus } = app;
  return {
    list(filter = {}) {
      const all = [...store.all(Events)].filter(
        (e) =>
          (!filter.event || e.event === filter.event) &&
          (filter.reference === undefined || eventReference(e) === filter.reference) &&
          (!filter.delivery_status || e.delivery_status === filter.delivery_status) &&
          (!filter.source || e.source === filter.source) &&
          (!filter.mode || e.mode === filter.mode),
      );
      return all.reverse().map(entry);
    },
    get: (id) => {
      const event = store.get(Events, id);
      return event && entry(event);
    },
    resend: (id) => {
      const event = webhooks.resend(id);
      return event && entry(event);
    },
    on: (listener) => bus.on('domain', listener),
  };
}
