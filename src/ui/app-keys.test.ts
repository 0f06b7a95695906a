import t from 'tap';
import { EVENT_NAMES } from '../catalogue.js';
import { AT, KEYS, raise, setup } from './app.test-support.js';

// The terminal UI's keys and what they do (resend, dashboard URL, advance, trigger, quit), through a
// fake control plane that records the calls. What it shows: app.test.ts.

t.test('r resends the selected event through the control plane', async (t) => {
  const ui = setup(t);
  await ui.press('r');
  await ui.until((f) => f.includes('select an event first'), 'a hint');
  t.same(ui.calls, [], 'nothing to resend');
  raise(ui.bus, 'e1');
  await ui.until((f) => f.includes('order-e1'), 'the event');
  await ui.press(KEYS.down);
  await ui.press('r');
  await ui.until((f) => f.includes('• resent payment.completed'), 'the notice');
  t.same(ui.calls, ['resend e1 acme/test']);
  await ui.press(KEYS.enter);
  await ui.until((f) => f.includes('Payload'), 'the detail view');
  await ui.press('r');
  await ui.until(() => ui.calls.length === 2, 'the resend from the detail view');
  t.same(ui.calls[1], 'resend e1 acme/test');
});

t.test('d shows the dashboard URL', async (t) => {
  const ui = setup(t);
  await ui.press('d');
  await ui.until((f) => f.includes('• dashboard: http://127.0.0.1:4242/_payemu/dashboard'), 'the URL in the notices');
  t.same(ui.calls, [], 'nothing asked of payemu');
});

t.test('c advances the clock one day; the bus says where it went', async (t) => {
  const ui = setup(t);
  await ui.press('c');
  t.same(ui.calls, ['advance']);
  ui.bus.emit('clock.advanced', { now: AT + 86_400_000, ran: { recurring: 2, expiry: 0 } });
  await ui.until((f) => f.includes('clock advanced to 2026-11-22 10:00:05 UTC (ran 2 recurring)'), 'the notice');
});

t.test('t opens the trigger menu; Enter triggers the highlighted event', async (t) => {
  const ui = setup(t);
  await ui.press('t');
  let frame = await ui.until((f) => f.includes('Trigger an event'), 'the menu');
  t.match(frame, /› payment\.completed/);
  t.match(frame, /as acme in test mode/);
  await ui.press(KEYS.down);
  await ui.until((f) => f.includes('› payment.authorized'), 'the next entry');
  await ui.press(KEYS.enter);
  frame = await ui.until((f) => f.includes('• triggered payment.authorized'), 'the notice');
  t.same(ui.calls, ['trigger payment.authorized']);
  t.match(frame, /Events \(/, 'the menu closed');

  // The menu keeps the highlight in view when the terminal is too short for every event.
  await ui.press('t');
  await ui.until((f) => f.includes('Trigger an event'), 'the menu');
  for (let i = 0; i < EVENT_NAMES.length; i++) await ui.press(KEYS.down);
  frame = await ui.until((f) => f.includes(`› ${EVENT_NAMES.at(-1)}`), 'the last event of the list');
  t.notMatch(frame, /payment\.completed/, 'scrolled');
  await ui.press(KEYS.escape);
  await ui.until((f) => f.includes('Events ('), 'Esc closes the menu');
  t.same(ui.calls, ['trigger payment.authorized'], 'Esc triggers nothing');
});

t.test('a failing action shows its error', async (t) => {
  const ui = setup(t, { failing: true });
  await ui.press('c');
  const frame = await ui.until((f) => f.includes('✗ advance refused'), 'the error notice');
  t.match(frame, /\n✗ advance refused\n/);
});

t.test('a config reload or a rejected edit shows a notice; targets follow the reload', async (t) => {
  const ui = setup(t);
  ui.urls.globex = 'http://127.0.0.1:3001/hooks';
  ui.bus.emit('config.reloaded', { path: '/app/payemu.config.json' });
  let frame = await ui.until((f) => f.includes('config reloaded'), 'the reload notice');
  t.match(frame, /• config reloaded from \/app\/payemu\.config\.json/);
  t.match(frame, /sk_test_payemu_globex.*\n\s+webhooks → http:\/\/127\.0\.0\.1:3001\/hooks {2}not tried yet/);
  ui.bus.emit('config.rejected', { path: '/app/payemu.config.json', error: 'sources.0.webhook_url: must be a URL' });
  frame = await ui.until((f) => f.includes('rejected'), 'the rejection notice');
  t.match(frame, /✗ config edit rejected, the last valid config stays: sources\.0\.webhook_url: must be a URL/);
});

t.test('q and Ctrl+C stop payemu, once', async (t) => {
  const ui = setup(t);
  await ui.press('q');
  t.equal(ui.quits(), 1);
  await ui.press('q');
  await ui.press(KEYS.ctrlC);
  t.equal(ui.quits(), 1, 'stopping is not started twice');

  const other = setup(t);
  await other.press(KEYS.ctrlC);
  t.equal(other.quits(), 1, 'Ctrl+C (a key in raw mode) stops too');
});

t.test('r on an event whose Source has no webhook URL says it has no destination, and how to set one', async (t) => {
  const ui = setup(t);
  raise(ui.bus, 'g1', 'payment.completed', undefined, { source: 'globex' });
  await ui.until((f) => f.includes('order-g1'), 'the event');
  await ui.press(KEYS.down);
  await ui.press('r');
  const frame = await ui.until((f) => f.includes('no destination'), 'the notice');
  t.match(frame, /\n✗ not resent: the event has no destination \(set webhook_url or --webhook-url\)\n/);
  t.notMatch(frame, /resent payment/, 'not said to be resent');
  t.same(ui.calls, [], 'nothing asked of payemu');

  // Once a config reload gives globex a URL, r resends it.
  ui.urls.globex = 'http://127.0.0.1:3001/hooks';
  ui.bus.emit('config.reloaded', { path: '/app/payemu.config.json' });
  await ui.until((f) => f.includes('config reloaded'), 'the reload');
  await ui.press('r');
  await ui.until((f) => f.includes('• resent payment.completed'), 'the resend');
  t.same(ui.calls, ['resend g1 globex/test']);

  // A destination set through PUT /_payemu/webhook is shown at once; a named namespace's is its own.
  ui.urls.globex = 'http://127.0.0.1:3002/own';
  ui.bus.emit('webhook.destination', { source: 'globex', url: 'http://127.0.0.1:3009/w3', namespace: 'w3' });
  ui.bus.emit('webhook.destination', { source: 'globex', url: 'http://127.0.0.1:3002/own' });
  await ui.until((f) => f.includes('http://127.0.0.1:3002/own'), "the header's new destination");
});
