import fs from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { EVENT_NAMES, EVENT_WIRE } from '../src/catalogue.js';
import type { EventName, WebhookEvent } from '../src/types.js';
import { emulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

// Each event's payload schema (the one the OpenAPI document publishes under `webhooks`, and the
// one src/types.ts derives `WebhookEvent` from), checked against what a receiver really gets.
const { webhookPayloads } = EVENT_WIRE;
const require = createRequire(import.meta.url);
const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
const formats = require('ajv-formats') as { default?: unknown };
const ajv = new Ajv2020({ strict: false, allErrors: true });
((formats.default ?? formats) as (ajv: InstanceType<typeof Ajv2020>) => void)(ajv);

t.test('every webhook a receiver gets matches the payload schema of its event', async (t) => {
  const r = await receiver(t);
  const e = await emulator(t, { clockStart: '2027-05-01T12:00:00Z', freezeClock: true, webhookBackoff: '0,0,0', webhookUrl: r.url });
  for (const event of EVENT_NAMES) {
    const res = await e.api.post('/_payemu/trigger', { event });
    t.equal(res.status, 200, `${event} triggered`);
  }
  await e.idle();
  const seen = new Set<EventName>();
  for (const { body } of r.received) {
    const payload = JSON.parse(body) as WebhookEvent;
    const validate = ajv.compile(webhookPayloads[payload.event]);
    t.ok(validate(payload), `${payload.event}: ${ajv.errorsText(validate.errors)}\n${body}`);
    seen.add(payload.event);
  }
  t.same([...seen].sort(), [...EVENT_NAMES].sort(), 'the receiver got every event');
});

t.test('the payload schemas name each event once, with its own name', async (t) => {
  t.same(Object.keys(webhookPayloads).sort(), [...EVENT_NAMES].sort());
  for (const name of EVENT_NAMES) t.same(webhookPayloads[name].properties.event, { const: name });
});

t.test('every example payload of docs/webhooks.md matches the payload schema of its event', async (t) => {
  const doc = fs.readFileSync(new URL('../docs/webhooks.md', import.meta.url), 'utf8');
  // Whole payloads on one line; an elided one (`"data":{...}`) is prose, not an example.
  const examples = doc.split('\n').filter((line) => line.startsWith('{"event":') && !line.includes('{...}'));
  t.ok(examples.length >= 5, 'the page shows example payloads');
  for (const line of examples) {
    const payload = JSON.parse(line) as WebhookEvent;
    const validate = ajv.compile(webhookPayloads[payload.event]);
    t.ok(validate(payload), `${payload.event}: ${ajv.errorsText(validate.errors)}`);
  }
});
