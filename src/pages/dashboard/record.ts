import type { App } from '../../app.js';
import type { Mode } from '../../config/types.js';
import type { Collection, StoredRecord } from '../../store/collection.js';
import { type EventRecord, Events, eventReference } from '../../webhooks/records.js';
import { html } from '../html.js';
import { shell } from './layout.js';
import { type DashScope, newestFirst } from './scope.js';

/** What the record pages share: find a record of the scope, answer 404 inside the dashboard when there is none, and list its events. */

type Scoped = StoredRecord & { source: string; mode: Mode };

/** The record of `collection` with this id, if it is the scope's: another Source's or mode's is not shown, as the API would not show it. */
export function scopedRecord<T extends Scoped>(app: App, scope: DashScope, collection: Collection<T>, id: string): T | undefined {
  const record = app.store.get(collection, id);
  return record && record.source === scope.source.slug && record.mode === scope.mode ? record : undefined;
}

/** The dashboard's 404: the page frame stays, with its menu on the list the record would be in (`/payments`). */
export function recordNotFound(app: App, scope: DashScope, what: string, list: string, id: string) {
  const noun = what[0]!.toUpperCase() + what.slice(1);
  return shell(app, scope, 'Not found', list, html`<h1>${noun} not found</h1><p>No ${what} ${id} in this Source and mode.</p>`, 404);
}

/** The scope's events raised for one reference (a payment's, a schedule's, an invoice's id), newest first. */
export function eventsFor(app: App, scope: DashScope, reference: string): EventRecord[] {
  return newestFirst(app, scope, Events).filter((e) => eventReference(e) === reference);
}
