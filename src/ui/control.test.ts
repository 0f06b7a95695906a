import t from 'tap';
import type { BusEvents } from '../bus/bus.js';
import { parseTimestamp } from '../clock/format.js';
import { startEmulator } from '../emulator.js';
import { httpControl } from './control.js';

// The UI's keys act through the real control plane, as any client would.

t.test('resend, clock advance and trigger over HTTP; refusals become messages', async (t) => {
  const emulator = await startEmulator({ port: 0, inMemory: true, clockStart: '2026-11-21T10:00:00Z', freezeClock: true });
  t.teardown(() => emulator.close());
  const control = httpControl(emulator.url, emulator.sources);
  const events: BusEvents['domain'][] = [];
  emulator.bus.on('domain', (e) => events.push(e));

  const triggered = await control.trigger('payment.completed');
  t.match(triggered, /^triggered payment\.completed( \([0-9a-f]{8}\))?$/);
  const raised = events.find((e) => e.name === 'payment.completed');
  t.ok(raised, 'the event happened');
  t.equal(raised?.source, 'acme', 'as the first Source');
  t.equal(raised?.mode, 'test');

  const attempts: BusEvents['webhook.attempt'][] = [];
  emulator.bus.on('webhook.attempt', (e) => attempts.push(e));
  t.equal(await control.resend({ id: raised!.id, name: raised!.name, source: 'acme', mode: 'test' }), `resent payment.completed (${raised!.id.slice(0, 8)})`);
  t.ok(
    attempts.some((a) => a.event.id === raised!.id),
    'a new delivery cycle (no endpoint here) went through the bus',
  );

  const before = parseTimestamp(emulator.clock.now())!;
  t.equal(await control.advanceClock(), undefined, 'the bus reports the advance');
  t.equal(parseTimestamp(emulator.clock.now())! - before, 86_400_000, 'one day');

  await t.rejects(control.resend({ id: '00000000-0000-4000-8000-000000000000', name: 'payment.completed', source: 'acme', mode: 'test' }), /No event with id/);
  await t.rejects(
    control.resend({ id: raised!.id, name: raised!.name, source: 'globex', mode: 'test' }),
    /No event with id/,
    "another Source's key does not see it",
  );
});

t.test("r resends a named namespace's event with that namespace's key", async (t) => {
  const emulator = await startEmulator({ port: 0, inMemory: true });
  t.teardown(() => emulator.close());
  const heard: (BusEvents['domain'] & { namespace?: string })[] = [];
  emulator.bus.on('domain', (e) => heard.push(e));
  const w3 = { 'Content-Type': 'application/json', Authorization: 'Bearer sk_test_payemu_acme~w3' };
  const made = await fetch(`${emulator.url}/_payemu/trigger`, { method: 'POST', headers: w3, body: JSON.stringify({ event: 'payment.completed' }) });
  t.equal(made.status, 200);
  const raised = heard.find((e) => e.name === 'payment.completed' && e.namespace === 'w3')!;
  t.ok(raised, "the root bus heard ~w3's event, named");
  const control = httpControl(emulator.url, emulator.sources);
  const event = { id: raised.id, name: raised.name, source: 'acme', mode: 'test' } as const;
  await t.rejects(control.resend(event), /No event with id/, 'the default does not have it');
  t.match(await control.resend({ ...event, namespace: 'w3' }), /^resent payment\.completed/);
});

t.test('no emulator at the URL: the rejection says so', async (t) => {
  const emulator = await startEmulator({ port: 0, inMemory: true });
  const { url, sources } = emulator;
  await emulator.close();
  await t.rejects(httpControl(url, sources).advanceClock(), { message: `no payemu at ${url}: nothing is listening there` });
});
