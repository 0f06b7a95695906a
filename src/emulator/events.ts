import type { App } from '../app.js';
import { presentEvent } from '../webhooks/present.js';
import { Events, eventReference, type EventRecord } from '../webhooks/records.js';
import type { Emulator, EventEntry } from './types.js';

// The log holds the catalogue's events only: raised by the modules that declare them, or imported
// through the stored-record schema that names them (the engine's records say `string`).
const entry = (event: EventRecord) => presentEvent(event) as EventEntry;

/**
 * `Emulator.events.list` and `on`: the event log of every Source and mode (`GET /_payemu/events`
 * shows one), and live events. `get` and `resend` are the operations' (src/control/operations/).
 */
export function eventMethods(app: App): Pick<Emulator['events'], 'list' | 'on'> {
  const { store, bus } = app;
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
    on: (listener) => bus.on('domain', listener),
  };
}
