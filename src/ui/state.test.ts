import t from 'tap';
import type { BusEvents } from '../bus/bus.js';
import { EVENT_NAMES } from '../catalogue.js';
import type { Attempt, EventRecord } from '../webhooks/records.js';
import { attemptTone, clockOffset, deliveryText, durationText, outcome, targetText } from './format.js';
import { inCi, wantsTerminalUi } from './mode.js';
import { initialState, LIMITS, reduce, selectedEvent, type Action, type UiState } from './state.js';

const AT = Date.UTC(2026, 10, 21, 10, 0, 0);

function domain(id: string, data: Record<string, unknown> = { reference: `ref-${id}`, amount: 12.5, currency: 'USD' }): BusEvents['domain'] {
  return { id, name: 'payment.completed', source: 'acme', mode: 'test', data, at: AT };
}

function record(id: string, fields: Partial<EventRecord> = {}): EventRecord {
  return {
    id,
    source: 'acme',
    mode: 'test',
    event: 'payment.completed',
    data: { reference: `ref-${id}` },
    created_at: AT,
    delivery_status: 'pending',
    next_attempt_at: null,
    ...fields,
  };
}

function attempt(status: number | null, error: string | null = null): Attempt {
  return { status, response_body: status === null ? null : 'ok', duration_ms: 3, error, at: AT, url: 'http://127.0.0.1:9/hook' };
}

const run = (actions: Action[], state: UiState = initialState({ acme: 'http://127.0.0.1:9/hook' }, EVENT_NAMES)) => actions.reduce(reduce, state);

t.test('a domain event becomes a pending row, newest first, with reference and amount', async (t) => {
  const s = run([
    { type: 'domain', event: domain('a') },
    { type: 'domain', event: domain('b', { total: 107.25, currency: 'EUR' }) },
  ]);
  t.same(
    s.events.map((e) => e.id),
    ['b', 'a'],
  );
  t.match(s.events[1], { name: 'payment.completed', reference: 'ref-a', amount: 12.5, currency: 'USD', delivery: 'pending', at: AT });
  t.match(s.events[0], { reference: null, amount: 107.25, currency: 'EUR' }, 'an invoice shows its total');
  t.same(s.events[1]!.payload, { event: 'payment.completed', data: domain('a').data });
  t.equal(reduce(s, { type: 'domain', event: domain('a') }), s, 'the same event twice is one row');
});

t.test('attempts update the row and the Source’s target; an unseen event is added', async (t) => {
  let s = run([{ type: 'domain', event: domain('a') }]);
  s = reduce(s, { type: 'attempt', event: record('a', { delivery_status: 'retrying', attempts: [attempt(500)], cycle_attempts: 1 }), attempt: attempt(500) });
  t.match(s.events[0], { delivery: 'retrying', cycleAttempts: 1 });
  t.same(deliveryText(s.events[0]!), { text: 'retrying ×1 500', tone: 'warn' });
  t.match(s.targets.acme, { url: 'http://127.0.0.1:9/hook', last: { ok: false, status: 500 } });
  t.match(targetText(s.targets.acme).text, /answered 500/);

  const two = [attempt(500), attempt(200)];
  s = reduce(s, { type: 'attempt', event: record('a', { delivery_status: 'delivered', attempts: two, cycle_attempts: 2 }), attempt: two[1]! });
  t.same(deliveryText(s.events[0]!), { text: 'delivered 200', tone: 'ok' });
  t.equal(s.events[0]!.attempts.length, 2);
  t.match(targetText(s.targets.acme), { text: /answers \(200\)/, tone: 'ok' });

  // A retry left pending by a previous run: the UI never saw it raised.
  s = reduce(s, {
    type: 'attempt',
    event: record('old', { delivery_status: 'failed', attempts: [attempt(null, 'ECONNREFUSED: connect ECONNREFUSED')] }),
    attempt: attempt(null, 'ECONNREFUSED: x'),
  });
  t.same(
    s.events.map((e) => e.id),
    ['old', 'a'],
  );
  t.same(deliveryText(s.events[0]!), { text: 'failed ECONNREFUSED', tone: 'bad' });
  t.match(targetText(s.targets.acme), { text: /not answering \(ECONNREFUSED\)/, tone: 'bad' });

  s = reduce(s, { type: 'attempt', event: record('a', { delivery_status: 'no_endpoint' }), attempt: null });
  t.same(s.targets.acme, { url: null, last: null }, 'no endpoint: nothing to answer');
  t.match(targetText(s.targets.acme).text, /^none \(not sent\): set webhook_url or --webhook-url$/);
});

t.test('an attempt in progress is not shown as a failure; an interrupted one is shown as such', async (t) => {
  const sending: Attempt = { ...attempt(null), duration_ms: 0, state: 'in_progress' };
  const cut: Attempt = { ...attempt(null, 'interrupted'), duration_ms: 0, state: 'interrupted' };
  t.equal(outcome(sending), 'sending');
  t.equal(attemptTone(sending), 'dim');
  t.equal(durationText(sending), '', 'no duration until it ends');
  t.equal(outcome(cut), 'interrupted');
  t.equal(attemptTone(cut), 'warn');
  t.equal(durationText(cut), '');
  t.equal(attemptTone(attempt(200)), 'ok');
  t.equal(attemptTone(attempt(500)), 'bad');
  t.equal(durationText(attempt(200)), '3 ms');

  let s = run([{ type: 'domain', event: domain('a') }]);
  s = reduce(s, { type: 'attempt', event: record('a', { attempts: [sending] }), attempt: sending });
  t.same(deliveryText(s.events[0]!), { text: 'sending', tone: 'dim' });
  t.same(s.targets.acme, { url: 'http://127.0.0.1:9/hook', last: null }, 'an attempt still out says nothing of the endpoint');
  s = reduce(s, { type: 'attempt', event: record('a', { delivery_status: 'retrying', attempts: [cut, sending], cycle_attempts: 1 }), attempt: cut });
  t.same(deliveryText(s.events[0]!), { text: 'retrying ×1 sending', tone: 'warn' });
  t.equal(s.targets.acme!.last, null, 'nor does one cut off by a stop');
  s = reduce(s, {
    type: 'attempt',
    event: record('a', { delivery_status: 'delivered', attempts: [cut, attempt(200)], cycle_attempts: 2 }),
    attempt: attempt(200),
  });
  t.same(deliveryText(s.events[0]!), { text: 'delivered 200', tone: 'ok' });
  t.match(s.targets.acme, { last: { ok: true, status: 200 } });
});

t.test('lists are bounded: memory stays flat however long it runs', async (t) => {
  let s = initialState();
  for (let i = 0; i < LIMITS.requests * 3; i++) s = reduce(s, { type: 'request', request: { method: 'GET', path: `/v1/payments/${i}`, status: 200, ms: 1 } });
  t.equal(s.requests.length, LIMITS.requests);
  t.equal(s.requests[0]!.path, `/v1/payments/${LIMITS.requests * 3 - 1}`, 'newest first');
  t.equal(s.seen.requests, LIMITS.requests * 3, 'but every one is counted');

  s = reduce(s, { type: 'domain', event: domain('first') });
  s = reduce(s, { type: 'move', by: 1 });
  t.equal(s.selected, 'first');
  s = reduce(s, { type: 'open' });
  for (let i = 0; i < LIMITS.events * 2; i++) s = reduce(s, { type: 'domain', event: domain(`e${i}`) });
  t.equal(s.events.length, LIMITS.events);
  t.equal(s.seen.events, LIMITS.events * 2 + 1);
  t.equal(selectedEvent(s)?.id, 'first', 'the open event is kept while newer ones push older ones out');

  let n = initialState();
  for (let i = 0; i < 10; i++) n = reduce(n, { type: 'notice', text: `notice ${i}` });
  t.same(
    n.notices.map((x) => x.text),
    ['notice 7', 'notice 8', 'notice 9'],
  );

  const many = Array.from({ length: LIMITS.attempts + 5 }, () => attempt(500));
  const a = reduce(initialState(), { type: 'attempt', event: record('x', { attempts: many, delivery_status: 'failed' }), attempt: many[0]! });
  t.equal(a.events[0]!.attempts.length, LIMITS.attempts);
});

t.test('selection, detail and menu', async (t) => {
  let s = run([{ type: 'move', by: 1 }]);
  t.equal(s.selected, null, 'nothing to select yet');
  t.equal(reduce(s, { type: 'open' }).screen, 'list', 'nothing to open');
  s = run([
    { type: 'domain', event: domain('a') },
    { type: 'domain', event: domain('b') },
    { type: 'domain', event: domain('c') },
  ]);
  s = reduce(s, { type: 'move', by: -1 });
  t.equal(s.selected, 'c', 'either arrow starts at the newest');
  s = run(
    [
      { type: 'move', by: 1 },
      { type: 'move', by: 1 },
      { type: 'move', by: 1 },
    ],
    s,
  );
  t.equal(s.selected, 'a', 'stops at the oldest');
  s = reduce(s, { type: 'domain', event: domain('d') });
  t.equal(s.selected, 'a', 'a new event does not move the selection');
  s = reduce(s, { type: 'open' });
  t.equal(s.screen, 'detail');
  s = reduce(s, { type: 'move', by: -1 });
  t.equal(selectedEvent(s)?.id, 'b', 'arrows in the detail go to the neighbour');
  s = run(
    [
      { type: 'scroll', by: 10, max: 18 },
      { type: 'scroll', by: 10, max: 18 },
    ],
    s,
  );
  t.equal(s.scroll, 18, 'the payload scrolls, to its end');
  s = reduce(s, { type: 'scroll', by: -5, max: 18 });
  t.equal(s.scroll, 13);
  t.equal(reduce(s, { type: 'scroll', by: -100, max: 18 }).scroll, 0);
  t.equal(reduce(s, { type: 'move', by: 1 }).scroll, 0, 'another event starts at its top');
  s = reduce(s, { type: 'back' });
  t.equal(s.screen, 'list');
  t.equal(reduce(s, { type: 'scroll', by: 10, max: 18 }), s, 'nothing to scroll in the list');

  s = reduce(s, { type: 'menu' });
  t.equal(s.screen, 'trigger');
  s = run(
    [
      { type: 'move', by: -1 },
      { type: 'move', by: 3 },
    ],
    s,
  );
  t.equal(s.menuIndex, 3);
  s = reduce(s, { type: 'move', by: 100 });
  t.equal(s.menuIndex, EVENT_NAMES.length - 1);
  t.equal(s.selected, 'b', 'the menu leaves the event selection alone');
});

t.test('targets follow config reloads; a new URL has not answered yet', async (t) => {
  let s = initialState({ acme: 'http://a/hook', globex: null });
  s = reduce(s, {
    type: 'attempt',
    event: record('a', { delivery_status: 'delivered', attempts: [attempt(200)] }),
    attempt: { ...attempt(200), url: 'http://a/hook' },
  });
  s = reduce(s, { type: 'targets', urls: { acme: 'http://a/hook', globex: 'http://g/hook' } });
  t.match(s.targets.acme, { url: 'http://a/hook', last: { ok: true } }, 'unchanged URL keeps its last result');
  t.same(s.targets.globex, { url: 'http://g/hook', last: null });
  t.match(targetText(s.targets.globex).text, /not tried yet/);
});

t.test('formats', async (t) => {
  t.equal(clockOffset(0), 'real time');
  t.equal(clockOffset(400), 'real time');
  t.equal(clockOffset(86_400_000 + 3_723_000), 'real time +1d 01:02:03');
  t.equal(clockOffset(-300_000), 'real time -00:05:00');
  t.equal(outcome({ status: null, error: 'timed out after 10000 ms' }), 'timed out');
  t.equal(outcome({ status: null, error: 'blocked by --strict-webhook-urls: private address' }), 'blocked');
  t.same(deliveryText({ delivery: 'pending', attempts: [], cycleAttempts: 0 }), { text: 'pending', tone: 'dim' });
  t.same(deliveryText({ delivery: 'no_endpoint', attempts: [], cycleAttempts: 0 }).text, 'no endpoint');
});

t.test('the UI only for a person at a real terminal', async (t) => {
  const tty = { ui: true, json: false, stdoutIsTTY: true, stdinIsTTY: true, env: { TERM: 'xterm-256color' } };
  t.equal(wantsTerminalUi(tty), true);
  t.equal(wantsTerminalUi({ ...tty, ui: false }), false, '--no-ui');
  t.equal(wantsTerminalUi({ ...tty, json: true }), false, '--json');
  t.equal(wantsTerminalUi({ ...tty, stdoutIsTTY: false }), false, 'stdout is a pipe');
  t.equal(wantsTerminalUi({ ...tty, stdinIsTTY: false }), false, 'stdin is not a terminal (Ink cannot read keys)');
  t.equal(wantsTerminalUi({ ...tty, env: { TERM: 'dumb' } }), false, 'TERM=dumb');
  t.equal(wantsTerminalUi({ ...tty, env: { TERM: 'xterm', CI: 'true' } }), false, 'CI');
  t.equal(inCi({ CI: 'false' }), false, 'CI=false is not CI (as Ink reads it)');
  t.equal(inCi({ CONTINUOUS_INTEGRATION: '1' }), true);
});

t.test('rows of named namespaces carry their name, and turn the namespace column on', async (t) => {
  let s = run([
    { type: 'domain', event: domain('a') },
    { type: 'request', request: { method: 'GET', path: '/v1/me', status: 200, ms: 1, source: 'acme', mode: 'test' } },
  ]);
  t.equal(s.namespaced, false, 'the default only: no namespace column');
  t.notOk('namespace' in s.events[0]!, 'a default row has no namespace');
  s = reduce(s, { type: 'domain', event: { ...domain('a'), namespace: 'w3' } });
  t.equal(s.events.length, 2, 'the same id in another namespace is another event');
  t.equal(s.events[0]!.namespace, 'w3');
  t.equal(s.namespaced, true, 'a named row turns the column on');
  t.equal(reduce(s, { type: 'domain', event: { ...domain('a'), namespace: 'w3' } }), s, 'the same event of ~w3 twice is one row');

  s = reduce(s, { type: 'attempt', event: record('a', { delivery_status: 'delivered', attempts: [attempt(200)] }), attempt: attempt(200), namespace: 'w3' });
  t.same(
    s.events.map((e) => [e.namespace, e.delivery]),
    [
      ['w3', 'delivered'],
      [undefined, 'pending'],
    ],
    "~w3's attempt updates ~w3's row only",
  );
  t.match(s.targets.acme, { last: { ok: true, status: 200 } }, 'an attempt to the configured endpoint tells of it, whatever the namespace');

  const elsewhere = { ...attempt(500), url: 'http://127.0.0.1:3001/w4' };
  const before = s.targets;
  s = reduce(s, { type: 'attempt', event: record('b', { delivery_status: 'retrying', attempts: [elsewhere] }), attempt: elsewhere, namespace: 'w4' });
  t.equal(s.targets, before, "a named namespace's own endpoint is not the header's");
  t.match(s.events[0], { id: 'b', namespace: 'w4', delivery: 'retrying' }, 'an unseen event of ~w4 is added with its namespace');
  s = reduce(s, { type: 'attempt', event: record('c', { delivery_status: 'no_endpoint' }), attempt: null, namespace: 'w4' });
  t.equal(s.targets, before, 'nor is its having none');

  const requests = run([{ type: 'request', request: { method: 'GET', path: '/v1/me', status: 200, ms: 1, source: 'acme', mode: 'test', namespace: 'w3' } }]);
  t.equal(requests.requests[0]!.namespace, 'w3');
  t.equal(requests.namespaced, true, 'a named request turns it on too');
});
