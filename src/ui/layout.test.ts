import { render } from 'ink-testing-library';
import { createElement } from 'react';
import t, { type Test } from 'tap';
import { Bus } from '../bus/bus.js';
import { Timers } from '../clock/timers.js';
import { EVENT_NAMES } from '../catalogue.js';
import type { Attempt, EventRecord } from '../webhooks/records.js';
import { App } from './app.js';
import { charWidth, textWidth } from './format.js';
import { driver } from './driver.test-support.js';
import { createUiStore } from './store.js';

/** The catalogue's longest event name: the widest event cell. */
const LONGEST_EVENT = EVENT_NAMES.reduce((longest, name) => (name.length > longest.length ? name : longest));

// The terminal UI at the sizes people use (80×24, 100×30, a wide 160×48, and a narrow 50×16),
// fed long but realistic values: every line fits the width, nothing wraps (the frame has exactly
// one line fewer than the terminal), and the columns of each table start at the same place on
// every row with a blank before each one, so no two columns run into each other.
// (A .ts file with createElement rather than .tsx: tsconfig.build.json excludes only *.test.ts.)

const AT = Date.UTC(2026, 10, 21, 10, 0, 5);
const HOOK = 'https://hooks.staging.my-shop-backend.example.com/api/v2/payments/webhooks/payemu-receiver';
const SOURCES = [
  { slug: 'acme', name: 'Acme Store', test_key: 'sk_test_payemu_acme', live_key: 'sk_live_payemu_acme', webhook_secret: 'whsec_payemu_acme' },
  {
    slug: 'globex-international',
    name: 'Globex International',
    test_key: 'sk_test_payemu_globex_international',
    live_key: 'sk_live_payemu_globex_international',
    webhook_secret: 'whsec_payemu_globex_international',
  },
];
const KEYS = { down: '\x1b[B', enter: '\r' };
const SIZES = [
  { columns: 80, rows: 24 },
  { columns: 100, rows: 30 },
  { columns: 160, rows: 48 },
  { columns: 50, rows: 16 },
];

/**
 * Where the virtual clock is: an hour ahead of real time, on the real day (times alone), or 400
 * days ahead (times show their day, `Nov 21 10:00:05`, in a wider column).
 */
const CLOCKS = [
  { name: 'on the real day', offsetMs: 3_600_000, days: false },
  { name: '400 days ahead', offsetMs: 400 * 86_400_000 + 3_600_000, days: true },
] as const;
type Clock = (typeof CLOCKS)[number];

/** The App on a fake terminal of the given size (Ink and the App both read it from stdout, as on a real one). */
function mount(t: Test, size: { columns: number; rows: number }, clock: Clock = CLOCKS[1]) {
  const bus = new Bus();
  const timers = new Timers();
  const store = createUiStore(bus, {
    sources: SOURCES.map((s) => s.slug),
    webhookUrl: (slug) => (slug === 'acme' ? HOOK : null),
    batchMs: 0,
    timers,
    eventNames: EVENT_NAMES,
  });
  const ui = render(
    createElement(App, {
      store,
      control: { resend: async () => 'resent', advanceClock: async () => undefined, trigger: async (name) => `triggered ${name}` },
      url: 'http://127.0.0.1:4242',
      sources: SOURCES,
      clock: () => ({ now: AT, offsetMs: clock.offsetMs, frozen: true }),
      onQuit: () => {},
      tickMs: 0,
      timers,
    }),
  );
  // ink-testing-library's terminal is 100 columns with no rows: resize it, as a terminal does.
  Object.defineProperty(ui.stdout, 'columns', { value: size.columns });
  Object.defineProperty(ui.stdout, 'rows', { value: size.rows });
  ui.stdout.emit('resize');
  t.teardown(() => {
    ui.unmount();
    store.close();
    timers.cancelAll();
  });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour escapes.
  const frame = () => (ui.lastFrame() ?? '').replace(/\x1b\[[0-9;]*m/g, '');
  const { until, press } = driver(ui, frame);
  return { bus, frame, until, press };
}

const LONG_REFERENCE = 'order-2026-11-21-customer-000000012345-annual-subscription-renewal';

/** Traffic with long values: every event name, long references, 12-digit amounts, CJK, a long path. */
function traffic(bus: Bus) {
  for (let i = 0; i < 6; i++) {
    // The second newest has CJK and an emoji in its path.
    if (i === 5) bus.emit('request', { method: 'GET', path: '/v1/payments/注文-2026-東京-🎉', status: 404, ms: 0.4, source: 'acme', mode: 'test' });
    bus.emit('request', {
      method: i % 2 ? 'DELETE' : 'POST',
      path: `/v1/recurring-payments/${LONG_REFERENCE}-${i}/payment-method-session`,
      status: i % 3 ? 201 : 422,
      ms: 12345.25,
      source: 'globex-international',
      mode: 'live',
    });
  }
  EVENT_NAMES.forEach((name, i) => {
    const data =
      i % 3 === 0
        ? { reference: `${LONG_REFERENCE}-${i}`, amount: 123_456_789_012.34, currency: 'USD' }
        : i % 3 === 1
          ? { reference: `注文番号-東京-${i}-ünïcödé`, total: 5, currency: 'JPY' }
          : { reference: `r${i}` };
    bus.emit('domain', { id: `evt_${i}`, name, source: i % 2 ? 'globex-international' : 'acme', mode: i % 2 ? 'live' : 'test', data, at: AT });
  });
  // The newest event, with a long history of delivery attempts.
  bus.emit('domain', {
    id: 'evt_last',
    name: LONGEST_EVENT,
    source: 'acme',
    mode: 'test',
    data: { reference: LONG_REFERENCE, amount: 999_999_999_999.99, currency: 'EUR' },
    at: AT,
  });
  const attempts: Attempt[] = [
    { status: null, response_body: null, duration_ms: 30_000, error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:3000', at: AT, url: HOOK },
    {
      status: 503,
      response_body: '<html>\n<body>Service temporarily unavailable: the upstream is being deployed, retry later</body>\n</html>',
      duration_ms: 123_456,
      error: null,
      at: AT,
      url: HOOK,
    },
  ];
  const record: EventRecord = {
    id: 'evt_last',
    source: 'acme',
    mode: 'test',
    event: LONGEST_EVENT,
    data: { reference: LONG_REFERENCE },
    created_at: AT,
    delivery_status: 'retrying',
    attempts,
    cycle_attempts: 12,
    next_attempt_at: null,
  };
  bus.emit('webhook.attempt', { event: record, attempt: attempts[1]! });
  bus.emit('config.rejected', {
    path: '/home/someone/projects/a-long-project-name/payemu.config.json',
    error: 'sources.1.webhook_url: must be a URL\n(got "not a url")',
  });
}

/** A line as display cells: a wide character takes two, its second one empty. */
function cells(line: string): string[] {
  const out: string[] = [];
  for (const char of line) {
    const w = charWidth(char.codePointAt(0)!);
    if (w === 0) continue;
    out.push(char);
    if (w === 2) out.push('');
  }
  return out;
}

/** Display columns where each of `titles` starts in `line`. */
function starts(line: string, titles: string[]): number[] {
  const c = cells(line).join('');
  return titles.map((title) => new RegExp(`(^|\\s)${title}(\\s|$)`).exec(c)!.index + (c.startsWith(title) ? 0 : 1));
}

/** Checks that hold on every screen: the frame fills the terminal but one line, and no line is wider than it. */
function fits(t: Test, frame: string, size: { columns: number; rows: number }, what: string) {
  const lines = frame.split('\n');
  t.equal(lines.length, size.rows - 1, `${what}: one line short of the terminal, nothing wrapped`);
  const wide = lines.filter((line) => textWidth(line) > size.columns);
  t.same(wide, [], `${what}: no line wider than ${size.columns} columns`);
}

/** Every row of a table has a blank before each column's start and something at it (or a blank cell). */
function aligned(t: Test, rows: string[], columnStarts: number[], what: string) {
  t.ok(rows.length > 0, `${what}: rows to check`);
  for (const row of rows) {
    const c = cells(row);
    for (const start of columnStarts.filter((s) => s > 0)) {
      if (c[start - 1] !== ' ') t.fail(`${what}: the column at ${start} runs into the one before it:\n${row}`);
    }
  }
}

for (const size of SIZES) {
  for (const clock of CLOCKS)
    t.test(`${size.columns}×${size.rows}, the clock ${clock.name}: the list`, async (t) => {
      const ui = mount(t, size, clock);
      traffic(ui.bus);
      const frame = await ui.until(
        (f) => f.includes('config edit rejected') && f.split('\n').length === size.rows - 1 && /retrying ×12/.test(f),
        'the traffic',
      );
      fits(t, frame, size, 'list');
      const lines = frame.split('\n');

      // The events table: the column names line, then the rows up to the blank line.
      const head = lines.findIndex((l) => /^\s+(time\s+)?event\s/.test(l));
      t.ok(head > 0, 'the column names');
      const rows = lines.slice(head + 1, lines.indexOf('', head + 1) < 0 ? undefined : lines.indexOf('', head + 1)).filter((l) => l.trim() !== '');
      const titles = lines[head]!.trim().split(/\s+/);
      const columnStarts = starts(lines[head]!, titles);
      aligned(t, rows, columnStarts, 'events');

      // What a narrower terminal drops, in docs/terminal-ui.md's order: source, time, amount, reference.
      // (With these long values, the day in the time column costs 100 columns the source.)
      const expected =
        size.columns >= 100 && !(clock.days && size.columns < 120)
          ? ['time', 'event', 'source', 'reference', 'amount', 'delivery']
          : size.columns >= 100
            ? ['time', 'event', 'reference', 'amount', 'delivery']
            : size.columns >= 80
              ? ['event', 'reference', 'amount', 'delivery']
              : ['event', 'delivery'];
      t.same(titles, expected, 'the columns kept');

      // Each column holds its own value, from its start.
      const at = (row: string, title: string) => cells(row).slice(columnStarts[titles.indexOf(title)]!).join('');
      const newest = rows[0]!;
      t.match(at(newest, 'event'), /^recurring\.payment_/, 'the longest event name');
      t.match(at(newest, 'delivery'), /^retrying ×12 503/, 'the delivery state is never cut at these widths');
      if (titles.includes('amount')) {
        t.match(at(newest, 'amount'), /^999999999999\.99 EUR /, 'a 12-digit amount in full');
        t.ok(
          rows.some((r) => /^123456789012\.34 USD /.test(at(r, 'amount'))),
          'every 12-digit amount in full',
        );
      }
      if (titles.includes('reference')) t.match(at(newest, 'reference'), /^order-2026-\S*… /, 'a long reference cut with …');
      if (titles.includes('time'))
        t.ok(
          rows.every((r) => (clock.days ? /^Nov 21 10:00:05 / : /^10:00:05 /).test(at(r, 'time'))),
          'times line up',
        );

      // The requests.
      const title = lines.findIndex((l) => l.startsWith('Requests ('));
      const requests = lines.slice(title + 1).filter((l) => /^\s+\d{3}\s/.test(l));
      t.ok(requests.length > 0, 'request rows');
      // No column names here: find each cell by its value; each must start at the same column on every row.
      const find = (row: string, pattern: RegExp) => {
        const c = cells(row);
        for (let i = 0; i < c.length; i++) if ((i === 0 || c[i - 1] === ' ') && pattern.test(c.slice(i).join(''))) return i;
        return -1;
      };
      const patterns = { status: /^\d{3} /, method: /^(GET|POST|DELETE) /, path: /^\/v1\//, ms: /^\d+\.\dms/, source: /^(acme|globex)/ };
      const kept = size.columns >= 80 ? ['status', 'method', 'path', 'ms', 'source'] : ['status', 'method', 'path', 'ms'];
      for (const [name, pattern] of Object.entries(patterns)) {
        const at = new Set(requests.map((r) => find(r, pattern)));
        if (kept.includes(name)) t.same([...at].length === 1 && !at.has(-1), true, `the ${name} column starts at one place on every row`);
      }
      aligned(
        t,
        requests,
        kept.map((name) => find(requests[0]!, patterns[name as keyof typeof patterns])),
        'requests',
      );
      t.match(frame, /\/v1\/recurring-payments\/\S*… /, 'a long path cut with …');
      if (size.columns >= 160) t.match(frame, / 12345\.3ms +globex-international\/live\n/, 'a wide terminal has room for a long Source');
      if (size.columns < 80) t.notMatch(frame, /acme\/test|globex-international\/live/, 'a narrow terminal drops the Source first');

      if (size.rows < 24) {
        t.notMatch(frame, /sk_test_payemu/, 'a short terminal: the header keeps its first two lines, for more rows of events');
        t.match(frame, /^payemu ● running on http:\/\/127\.0\.0\.1:4242\n {2}clock /);
      } else {
        t.match(frame, /sk_test_payemu_acme/);
        // The state of the webhook endpoint stays in view; the long URL gives way.
        t.match(frame, /webhooks → https:\/\/hook\S+ {2}answered 503/);
      }
      t.match(frame, /\n✗ config edit rejected[^\n]*\n↑↓ select/, 'a notice with a line break stays on its line');
    });

  for (const clock of CLOCKS)
    t.test(`${size.columns}×${size.rows}, the clock ${clock.name}: an event's detail`, async (t) => {
      const ui = mount(t, size, clock);
      traffic(ui.bus);
      await ui.until((f) => /retrying ×12/.test(f) && f.split('\n').length === size.rows - 1, 'the traffic');
      await ui.press(KEYS.down);
      await ui.press(KEYS.enter);
      const frame = await ui.until((f) => f.includes('Payload') && f.split('\n').length === size.rows - 1, 'the detail view');
      fits(t, frame, size, 'detail');
      t.match(frame, clock.days ? /^recurring\.payment_method_updated acme\/test at Nov/m : /^recurring\.payment_method_updated acme\/test at 10:/m);
      const lines = frame.split('\n');
      const head = lines.findIndex((l) => /^\s+#\s/.test(l));
      t.ok(head > 0, 'the attempts table');
      const titles = lines[head]!.trim().split(/\s+/);
      const columnStarts = starts(lines[head]!, titles);
      const rows = lines.slice(head + 1).filter((l) => /^\s+\d+\s/.test(l));
      t.equal(rows.length, 2, 'both attempts');
      aligned(t, rows, columnStarts, 'attempts');
      const at = (row: string, title: string) => cells(row).slice(columnStarts[titles.indexOf(title)]!).join('');
      t.match(at(rows[0]!, 'status'), /^ECONNREFUSED /);
      t.match(at(rows[1]!, 'status'), /^503 /);
      t.match(at(rows[1]!, 'response'), /^<html> <body>Servic/, 'the body on one line');
      if (titles.includes('duration')) t.match(at(rows[1]!, 'duration'), /^123456 ms/);
    });

  t.test(`${size.columns}×${size.rows}: the trigger menu`, async (t) => {
    const ui = mount(t, size);
    traffic(ui.bus);
    await ui.until((f) => /retrying ×12/.test(f), 'the traffic');
    await ui.press('t');
    let frame = await ui.until((f) => f.includes('Trigger an event') && f.split('\n').length === size.rows - 1, 'the menu');
    fits(t, frame, size, 'menu');
    for (let i = 0; i < EVENT_NAMES.length; i++) await ui.press(KEYS.down);
    frame = await ui.until((f) => f.includes(`› ${EVENT_NAMES.at(-1)}`), 'the last entry');
    fits(t, frame, size, 'menu scrolled');
  });
}

t.test('named namespaces: a namespace column in both lists, within 80 columns', async (t) => {
  for (const size of [SIZES[0]!, SIZES[3]!]) {
    const ui = mount(t, size, CLOCKS[0]);
    // The default's traffic, then a named namespace's (the root bus hears it with its name).
    for (const [reference, named] of [
      ['d-1', {}],
      ['w-1', { namespace: 'worker-12' }],
    ] as const) {
      ui.bus.emit('request', { method: 'POST', path: '/v1/sessions', status: 201, ms: 1.5, source: 'acme', mode: 'test', ...named });
      const data = { reference, amount: 1, currency: 'USD' };
      ui.bus.emit('domain', { id: `evt_${reference}`, name: 'payment.completed', source: 'acme', mode: 'test', data, at: AT, ...named });
    }
    const frame = await ui.until((f) => f.includes('Events (2)'), 'the rows');
    fits(t, frame, size, `${size.columns} columns with namespaces`);
    const lines = frame.split('\n');
    const head = lines.findIndex((l) => /^\s+(time\s+)?event\s/.test(l));
    const titles = lines[head]!.trim().split(/\s+/);
    if (size.columns < 80) {
      t.notOk(titles.includes('ns'), 'a narrow terminal drops it');
      continue;
    }
    // A name of 10 characters costs the time too (the detail view has it): the namespace matters more.
    t.same(titles, ['event', 'ns', 'reference', 'amount', 'delivery'], 'the namespace after the event; the source, then the time gone first');
    const columnStarts = starts(lines[head]!, titles);
    const rows = lines.slice(head + 1, head + 3);
    aligned(t, rows, columnStarts, 'events with namespaces');
    const ns = (row: string) => cells(row).slice(columnStarts[1]!, columnStarts[2]!).join('').trim();
    t.same(rows.map(ns), ['~worker-12', ''], 'the named one as its key suffix, the default blank');
    const requests = lines.filter((l) => /^\s+201\s/.test(l));
    t.equal(requests.length, 2);
    t.match(requests[0]!, /acme\/test\s+~worker-12\s*$/, 'a request of a named namespace');
    t.notMatch(requests[1]!, /~/, "the default's has none");
  }
});
