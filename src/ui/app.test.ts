import t from 'tap';
import type { Attempt } from '../webhooks/records.js';
import { NO_DESTINATION } from './app.js';
import { AT, attempted, HOOK, KEYS, ok, raise, refused, setup } from './app.test-support.js';

// Component tests of the terminal UI with ink-testing-library: what it shows (header, lists, detail,
// times, panes, hints). Its keys' actions: app-keys.test.ts. (A .ts file with createElement rather
// than .tsx: tsconfig.build.json excludes only *.test.ts from dist/.)

t.test('header: where it runs, keys, webhook targets, clock and offset', async (t) => {
  const ui = setup(t, { offsetMs: 86_400_000 });
  const frame = await ui.until((f) => f.includes('payemu'), 'the header');
  t.match(frame, /payemu ● running on http:\/\/127\.0\.0\.1:4242/);
  t.match(
    frame,
    /\n {2}acme {5}test key sk_test_payemu_acme {4}webhook secret whsec_payemu_acme\n {11}webhooks → http:\/\/127\.0\.0\.1:3000\/webhooks {2}not tried yet\n/,
  );
  t.match(
    frame,
    /\n {2}globex {3}test key sk_test_payemu_globex {2}webhook secret whsec_payemu_globex\n {11}webhooks → none \(not sent\): set webhook_url or --webhook-url\n/,
  );
  t.match(frame, /\n {2}clock {4}2026-11-21 10:00:05 UTC {2}real time \+1d 00:00:00\n/);
  t.match(frame, /Events \(none yet: trigger one with t\)/);
  t.match(frame, /Requests \(none yet\)/);
  t.match(frame, /↑↓ select {2}Enter open {2}r resend {2}c clock \+1 day {2}t trigger {2}d dashboard URL {2}q quit/);

  // Whether the endpoint answers comes from the last delivery on the bus.
  raise(ui.bus, 'e1');
  attempted(ui.bus, 'e1', 'retrying', [refused()]);
  await ui.until((f) => f.includes('not answering'), 'a refused delivery');
  t.match(ui.frame(), /webhooks → http:\/\/127\.0\.0\.1:3000\/webhooks {2}not answering \(ECONNREFUSED\)/);
  attempted(ui.bus, 'e1', 'delivered', [refused(), ok()]);
  await ui.until((f) => f.includes('answers (200)'), 'an answered delivery');
});

t.test('events and requests appear live, with delivery states', async (t) => {
  const ui = setup(t);
  ui.bus.emit('request', { method: 'POST', path: '/v1/sessions', status: 201, ms: 3.25, source: 'acme', mode: 'test' });
  ui.bus.emit('request', { method: 'GET', path: '/v1/payments/9', status: 404, ms: 0.5, source: 'acme', mode: 'test' });
  raise(ui.bus, 'e1');
  raise(ui.bus, 'e2', 'invoice.paid', { total: 107.25, currency: 'EUR' });
  raise(ui.bus, 'e3');
  raise(ui.bus, 'e4');
  attempted(ui.bus, 'e1', 'delivered', [ok()]);
  attempted(ui.bus, 'e3', 'retrying', [refused(), refused()]);
  attempted(ui.bus, 'e4', 'failed', [refused(), refused(), refused(), refused()]);
  const frame = await ui.until((f) => f.includes('failed ECONNREFUSED'), 'the failed delivery');
  t.match(frame, /Events \(4\)/);
  t.match(frame, /10:00:05\s+payment\.completed\s+acme\/test\s+order-e1\s+25\.50 USD\s+delivered 200/);
  t.match(frame, /invoice\.paid\s+acme\/test\s+107\.25 EUR\s+pending/);
  t.match(frame, /order-e3\s+25\.50 USD\s+retrying ×2 ECONNREFUSED/);
  t.match(frame, /order-e4\s+25\.50 USD\s+failed ECONNREFUSED/);
  t.ok(frame.indexOf('order-e4') < frame.indexOf('order-e1'), 'newest first');
  t.match(frame, /Requests \(2\)/);
  t.match(frame, /404 {2}GET {4}\/v1\/payments\/9\s+0\.5ms\s+acme\/test/);
  t.ok(frame.indexOf('/v1/payments/9') < frame.indexOf('/v1/sessions'), 'newest request first');
});

t.test('hours of traffic: the lists say how much they keep', async (t) => {
  const ui = setup(t);
  for (let i = 0; i < 1000; i++) ui.bus.emit('request', { method: 'GET', path: `/v1/payments/${i}`, status: 200, ms: 1 });
  for (let i = 0; i < 250; i++) raise(ui.bus, `e${i}`);
  const frame = await ui.until((f) => f.includes('latest 100 of 1000'), 'the bounded request log');
  t.match(frame, /Events \(200, latest 200 of 250\)/);
  t.match(frame, /\/v1\/payments\/999/);
  t.equal(frame.split('\n').length, 29, 'the frame is one line short of the terminal, however much came in');
});

t.test('arrows select, Enter opens payload and attempts, Esc goes back', async (t) => {
  const ui = setup(t);
  raise(ui.bus, 'e1');
  raise(ui.bus, 'e2');
  attempted(ui.bus, 'e1', 'delivered', [refused(), ok('{"received":true}')]);
  await ui.until((f) => f.includes('order-e2'), 'the events');
  await ui.press(KEYS.down);
  await ui.until((f) => /› \d\d:\d\d:\d\d\s+payment\.completed\s+acme\/test\s+order-e2/.test(f), 'the newest event selected');
  await ui.press(KEYS.down);
  await ui.until((f) => /› .*order-e1/.test(f), 'the next event selected');
  await ui.press(KEYS.enter);
  const detail = await ui.until((f) => f.includes('Payload'), 'the detail view');
  t.match(detail, /payment\.completed acme\/test at 10:00:05 id e1/);
  t.match(detail, /delivery delivered 200 {2}2 attempts kept/);
  t.match(detail, /"reference": "order-e1"/);
  t.match(detail, /"amount": 25\.5/);
  t.match(detail, /#\s+time\s+status\s+duration\s+response/);
  t.match(detail, /1\s+10:00:05\s+ECONNREFUSED\s+1 ms\s+ECONNREFUSED: connect ECONNREFUSED 127\.0\.0\.1:3000/);
  t.match(detail, /2\s+10:00:05\s+200\s+12 ms\s+\{"received":true\}/);
  t.match(detail, /Esc back/);

  // The open view follows the bus: a new attempt shows at once.
  attempted(ui.bus, 'e1', 'delivered', [refused(), ok(), ok('third')]);
  await ui.until((f) => f.includes('3 attempts kept') && f.includes('third'), 'the new attempt');

  await ui.press(KEYS.up);
  await ui.until((f) => f.includes('id e2'), 'the neighbour event in the detail');
  await ui.press(KEYS.escape);
  await ui.until((f) => f.includes('Requests ('), 'the list again');
  t.match(ui.frame(), /› .*order-e2/, 'the selection stays');
  await ui.press(KEYS.enter);
  await ui.until((f) => f.includes('Payload'), 'the detail view');
  await ui.press(KEYS.enter);
  await ui.until((f) => f.includes('Requests ('), 'Enter closes it too');
});

t.test('the detail shows an attempt cut off by a stop as interrupted, without a duration', async (t) => {
  const ui = setup(t);
  raise(ui.bus, 'e1');
  const cut: Attempt = { status: null, response_body: null, duration_ms: 0, error: 'interrupted', at: AT, url: HOOK, state: 'interrupted' };
  attempted(ui.bus, 'e1', 'delivered', [cut, ok()]);
  await ui.until((f) => f.includes('delivered 200'), 'the delivered event');
  await ui.press(KEYS.down);
  await ui.press(KEYS.enter);
  const detail = await ui.until((f) => f.includes('Payload'), 'the detail view');
  t.match(detail, /1\s+10:00:05\s+interrupted\s+interrupted\n/);
  t.match(detail, /2\s+10:00:05\s+200\s+12 ms\s+\{"received":true\}/);
  t.match(ui.frame(), /answers \(200\)/, 'the endpoint answered the retry');
});

t.test('the delivery line and the attempts table say which webhook chaos each attempt carried', async (t) => {
  const ui = setup(t);
  raise(ui.bus, 'e1');
  const stale: Attempt = { status: 400, response_body: 'too old', duration_ms: 3, error: 'HTTP 400', at: AT, url: HOOK, chaos: 'stale_timestamp' };
  attempted(ui.bus, 'e1', 'delivered', [stale, ok(), { ...ok('again'), chaos: 'duplicate' }]);
  await ui.until((f) => f.includes('delivered 200 [duplicate]'), 'the delivery line with its chaos');
  await ui.press(KEYS.down);
  await ui.press(KEYS.enter);
  const detail = await ui.until((f) => f.includes('Payload'), 'the detail view');
  t.match(detail, /1\s+10:00:05\s+400\s+3 ms\s+\[stale_timestamp\] too old/);
  t.match(detail, /2\s+10:00:05\s+200\s+12 ms\s+\{"received":true\}/);
  t.match(detail, /3\s+10:00:05\s+200\s+12 ms\s+\[duplicate\] again/);
});

t.test('PgDn and PgUp scroll a payload taller than the screen', async (t) => {
  const ui = setup(t);
  const metadata = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, `value${i}`]));
  raise(ui.bus, 'big', 'payment.completed', { reference: 'order-big', metadata });
  await ui.until((f) => f.includes('order-big'), 'the event');
  await ui.press(KEYS.down);
  await ui.press(KEYS.enter);
  let frame = await ui.until((f) => f.includes('Payload'), 'the detail view');
  t.match(frame, /"reference": "order-big"/);
  t.match(frame, /… \d+ more lines \(PgDn\)/);
  t.notMatch(frame, /key39/);
  for (let i = 0; i < 5; i++) await ui.press(KEYS.pageDown);
  frame = await ui.until((f) => f.includes('"key39": "value39"'), 'the end of the payload');
  t.match(frame, /… \d+ lines above \(PgUp\)/);
  t.notMatch(frame, /more lines/, 'scrolling stops at the end');
  await ui.press(KEYS.pageUp);
  await ui.until((f) => f.includes('more lines (PgDn)'), 'scrolled back up');
});

const DAY = 86_400_000;

t.test('times show their day once the virtual clock is off the real day', async (t) => {
  const ui = setup(t);
  raise(ui.bus, 'e1');
  let frame = await ui.until((f) => f.includes('order-e1'), 'the event');
  t.match(frame, /\n {2}time {6}event/, 'on the real day: the time alone');
  t.match(frame, /\n {2}10:00:05 {2}payment\.completed\s+acme\/test\s+order-e1/);

  // A 30-day advance: the events a month apart say so.
  ui.setClock(AT + 30 * DAY, 30 * DAY);
  raise(ui.bus, 'e2', 'payment.completed', undefined, { at: AT + 30 * DAY });
  attempted(ui.bus, 'e1', 'delivered', [ok()]);
  frame = await ui.until((f) => f.includes('order-e2'), 'the event after the advance');
  t.match(frame, /\n {2}time {13}event/, 'the time column is as wide as a day and a time');
  t.match(frame, /\n {2}Dec 21 10:00:05 {2}payment\.completed\s+acme\/test\s+order-e2/);
  t.match(frame, /\n {2}Nov 21 10:00:05 {2}payment\.completed\s+acme\/test\s+order-e1/);
  await ui.press(KEYS.down);
  await ui.press(KEYS.down);
  await ui.press(KEYS.enter);
  frame = await ui.until((f) => f.includes('Payload'), 'the detail view');
  t.match(frame, /payment\.completed acme\/test at Nov 21 10:00:05 id e1/, 'the detail too');
  t.match(frame, /\n {2}1 {3}Nov 21 10:00:05 {2}200\s+12 ms/, 'and its attempts');

  // An event of another day still shows its day when the clock is back on the real day (a reset).
  ui.setClock(AT, 0);
  await ui.press(KEYS.escape);
  frame = await ui.until((f) => f.includes('Events (2)') && !f.includes('Payload'), 'the list');
  t.match(frame, /\n {2}Dec 21 10:00:05 {2}payment\.completed/);
});

t.test('the panes share the height by what they hold: no blank line while rows are hidden', async (t) => {
  // 100×30: 14 lines for the two lists, 9 of them the events' share.
  const ui = setup(t);
  raise(ui.bus, 'e1');
  raise(ui.bus, 'e2');
  for (let i = 1; i <= 12; i++) ui.bus.emit('request', { method: 'GET', path: `/v1/payments/p${i}`, status: 200, ms: 1, source: 'acme', mode: 'test' });
  let frame = await ui.until((f) => f.includes('Requests (12)'), 'the requests');
  for (let i = 1; i <= 12; i++) t.match(frame, new RegExp(`/v1/payments/p${i}\\s`), `request ${i} in view: the events need 2 lines of their 9`);
  t.match(frame, /order-e1 [^\n]*\n\nRequests \(12\)/, 'the requests right under the events');

  // Many of both: the events get their 60 %, the requests the rest, every line used.
  for (let i = 3; i <= 20; i++) raise(ui.bus, `e${i}`);
  frame = await ui.until((f) => f.includes('Events (20)'), 'more events');
  const lines = frame.split('\n');
  const events = lines.filter((l) => /order-e\d+/.test(l));
  const requests = lines.filter((l) => /\/v1\/payments\/p\d+/.test(l));
  t.equal(events.length, 9, 'the events: their share');
  t.equal(requests.length, 5, 'the requests: the rest');
  const body = lines.slice(
    lines.findIndex((l) => l.startsWith('Events (')),
    lines.findIndex((l) => l.startsWith('↑↓')),
  );
  t.equal(body.filter((l) => l.trim() === '').length, 1 + 3, 'blank: the line between the panes, and the notices (none yet)');

  // Few requests, many events: the events take the lines the requests do not need.
  const few = setup(t);
  for (let i = 1; i <= 20; i++) raise(few.bus, `e${i}`);
  few.bus.emit('request', { method: 'GET', path: '/v1/payments/only', status: 200, ms: 1, source: 'acme', mode: 'test' });
  frame = await few.until((f) => f.includes('Requests (1)'), 'one request');
  t.equal(frame.split('\n').filter((l) => /order-e\d+/.test(l)).length, 13, 'the events: every line but the request');
});

t.test('every hint fits 80 columns', async (t) => {
  const ui = setup(t, { size: { columns: 80, rows: 24 } });
  let frame = await ui.until((f) => f.includes('Events ('), 'the list');
  t.match(frame, /\n {11}webhooks → none \(not sent\): set webhook_url or --webhook-url\n/, 'the webhook hint, whole');
  t.match(frame, /\n↑↓ select {2}Enter open {2}r resend {2}c \+1 day {2}t trigger {2}d dashboard {2}q quit\n?$/, 'the keys, in their short words');
  t.match(frame, /Events \(none yet: trigger one with t\)/);
  raise(ui.bus, 'g1', 'recurring.payment_method_updated', undefined, { source: 'globex' });
  await ui.until((f) => f.includes('order-g1'), 'the event');
  await ui.press(KEYS.down);
  await ui.press('r');
  frame = await ui.until((f) => f.includes('no destination'), 'the notice');
  t.ok(frame.includes(`✗ ${NO_DESTINATION}\n`), 'the no-destination notice, whole');
  for (const line of frame.split('\n')) t.notMatch(line, /…$/, 'nothing cut in the list');
  await ui.press(KEYS.enter);
  frame = await ui.until((f) => f.includes('Payload'), 'the detail view');
  for (const line of frame.split('\n').filter((l) => !l.includes('more lines'))) t.notMatch(line, /…$/, 'nothing cut in the detail');
  t.match(frame, /\nEsc back {2}↑↓ prev\/next {2}PgUp\/PgDn scroll {2}r resend {2}c \+1 day {2}t trigger {2}q quit\n?$/, "the detail's keys (d is the list's)");
  await ui.press(KEYS.escape);
  await ui.press('t');
  frame = await ui.until((f) => f.includes('Trigger an event'), 'the menu');
  t.match(frame, /Trigger an event \(as acme in test mode; Enter triggers, Esc closes\)/);
  t.match(frame, /\n↑↓ choose {2}Enter trigger {2}Esc close {2}q quit\n?$/);
  for (const line of frame.split('\n')) t.notMatch(line, /…$/, 'nothing cut');
});
