import fs from 'node:fs';
import t from 'tap';
import { filePersistence } from '../store/file-persistence.js';
import { encodeChanges, segmentPath } from '../store/files.js';
import { writeSnapshot } from '../store/snapshot-file.js';
import { Store } from '../store/store.js';
import { attemptsOf, cycleAttempts, eventBody, eventReference, Events, upgradeEvent, type Attempt, type EventRecord } from './records.js';

/**
 * Events are stored lean (records.ts): records of earlier versions, which kept the webhook body
 * whole in `payload`, a copy of its reference and an empty attempt log, are read in the new
 * shape wherever they come from: a snapshot (parsed at start or later), a journal line, or a
 * journal line of this version laid over an older record.
 */

const AT = Date.UTC(2027, 0, 1, 12);
const data = { payment_id: 1, reference: 'order-1', amount: 10, currency: 'USD', status: 'PAID', card_last: '4242', card_brand: 'visa', metadata: {} };
const failed: Attempt = { status: 500, response_body: 'down', duration_ms: 3, error: 'HTTP 500', at: AT, url: 'http://127.0.0.1:9/hook' };

/** An event as versions before the lean record wrote it. */
function older(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    source: 'acme',
    mode: 'test',
    event: 'payment.completed',
    payload: { event: 'payment.completed', data },
    reference: 'order-1',
    created_at: AT,
    delivery_status: 'no_endpoint',
    attempts: [],
    cycle_attempts: 0,
    next_attempt_at: null,
    ...fields,
  };
}

const lean = (id: string, fields: Partial<EventRecord> = {}): EventRecord => ({
  id,
  source: 'acme',
  mode: 'test',
  event: 'payment.completed',
  created_at: AT,
  delivery_status: 'no_endpoint',
  next_attempt_at: null,
  data,
  ...fields,
});

t.test('an older event is read in the lean shape; a lean one is returned as it is', async (t) => {
  t.same(upgradeEvent(older('e1')), lean('e1'));
  const retried = upgradeEvent(older('e2', { delivery_status: 'retrying', attempts: [failed], cycle_attempts: 1, next_attempt_at: AT + 1000 }));
  t.same(retried, lean('e2', { delivery_status: 'retrying', attempts: [failed], cycle_attempts: 1, next_attempt_at: AT + 1000 }), 'its attempts are kept');
  const current = lean('e3');
  t.equal(upgradeEvent(current), current, 'the same object: nothing to do');
  // An older record a compaction laid this version's fields over (a later attempt).
  t.same(upgradeEvent({ ...older('e4'), attempts: [failed], cycle_attempts: 1, data } as never), lean('e4', { attempts: [failed], cycle_attempts: 1 }));
  const record = upgradeEvent(older('e5'));
  t.same(eventBody(record), { event: 'payment.completed', data }, 'the webhook body is the same');
  t.equal(eventReference(record), 'order-1');
  t.same(attemptsOf(record), []);
  t.equal(cycleAttempts(record), 0);
});

t.test('older events in a snapshot and the journal are read in the lean shape', async (t) => {
  const dir = t.testdir();
  // A snapshot with its checksum and marks, read lazily at start: the marked record (its delivery
  // goes on) is parsed as the start scans, the others when something reads them.
  const pending = older('e-pending', { delivery_status: 'retrying', attempts: [failed], cycle_attempts: 1, next_attempt_at: AT + 1000 });
  writeSnapshot(dir, 0, [['events', [older('e-settled') as never, pending as never, older('e-patched') as never]]], {
    marks: { events: ['webhook.delivery'] },
    marked: (_name, record) => (record as EventRecord).next_attempt_at !== null,
  });
  fs.writeFileSync(
    segmentPath(dir, 1),
    // An older version's whole record, then this version's line laid over the older e-patched.
    encodeChanges([{ collection: 'events', id: 'e-journal', record: older('e-journal') as never }]) +
      encodeChanges([{ collection: 'events', id: 'e-patched', record: lean('e-patched', { delivery_status: 'failed' }) }], [lean('e-patched')]),
  );
  t.match(fs.readFileSync(segmentPath(dir, 1), 'utf8'), /"e-patched",\{"delivery_status":"failed","data":\{/, 'the second line is written in part');

  const store = new Store([Events] as never, filePersistence(dir));
  await store.open();
  t.teardown(() => store.close());
  store.watch(Events, 'webhook.delivery', (event) => event.next_attempt_at !== null);
  t.same(
    [...store.watched(Events)].map((e) => e.id),
    ['e-pending', 'e-patched', 'e-journal'],
  );
  t.same(store.get(Events, 'e-pending'), lean('e-pending', { delivery_status: 'retrying', attempts: [failed], cycle_attempts: 1, next_attempt_at: AT + 1000 }));
  t.same(store.get(Events, 'e-settled'), lean('e-settled'), 'parsed on first read');
  t.same(store.get(Events, 'e-journal'), lean('e-journal'));
  t.same(store.get(Events, 'e-patched'), lean('e-patched', { delivery_status: 'failed' }));
  t.same(
    [...store.all(Events)].map((e) => Object.keys(e).sort()),
    Array(4)
      .fill(Object.keys(lean('x')).sort())
      .map((keys, i) => (i === 1 ? [...keys, 'attempts', 'cycle_attempts'].sort() : keys)),
    'no record keeps `payload` or `reference`',
  );
});
