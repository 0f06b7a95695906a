import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { Bus } from '../bus/bus.js';
import type { UiHost, UiTimers } from './host.js';
import { BACKLOG_BYTES, createLogger, leftOutLine, openFileLog, plainLine } from './log.js';
import { plainPalette } from './palette.js';

/** A payemu as the loggers read it, with no Source, on `bus`. */
const hostOf = (bus: Bus, timers: UiTimers): UiHost => ({
  url: 'http://127.0.0.1:1',
  dataDir: undefined,
  sources: [],
  clock: { now: () => '2027-01-01T00:00:00.000000Z' },
  bus,
  webhookUrl: () => null,
  timers,
  eventNames: [],
});

/**
 * Named namespaces (docs/terminal-ui.md): a plain line starts with `~NAME`, a JSON line has a
 * `namespace` field; the default's lines have neither, as before namespaces.
 */
t.test("a named namespace's lines say which; the default's are as they were", async (t) => {
  const request = { method: 'POST', path: '/v1/sessions', status: 201, ms: 1.25, source: 'acme', mode: 'test' };
  t.equal(plainLine('request', request, plainPalette), '201 POST /v1/sessions 1.3ms acme/test');
  t.equal(plainLine('request', { ...request, namespace: 'w3' }, plainPalette), '~w3 201 POST /v1/sessions 1.3ms acme/test');
  const advanced = { now: Date.UTC(2027, 0, 1), ran: {} };
  t.equal(plainLine('clock.advanced', { ...advanced, namespace: 'w3' }, plainPalette), '~w3 clock advanced to 2027-01-01T00:00:00.000000Z {}');

  const file = path.join(t.testdir(), 'payemu.log');
  const bus = new Bus();
  const log = openFileLog(file);
  log.attach(hostOf(bus, { after: () => ({ cancel() {} }), every: () => ({ cancel() {} }), soon: () => ({ cancel() {} }) }));
  // A named core's bus forwards to this one, adding the name (src/bus/bus.ts).
  const named = new Bus();
  named.forward(bus, 'w3');
  named.emit('request', request);
  bus.emit('request', request);
  named.emit('clock.advanced', advanced);
  log.close();
  const lines = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.same(
    lines.slice(1, 4).map((l) => [l.type, l.namespace]),
    [
      ['request', 'w3'],
      ['request', undefined],
      ['clock.advanced', 'w3'],
    ],
  );
  t.notOk('namespace' in lines[2], "the default's JSON lines have no namespace field");
  t.equal(lines[3].now, '2027-01-01T00:00:00.000000Z');
});

/**
 * `--log FILE` (docs/cli.md): lines are gathered for at most 20 ms and written together, and a
 * stop writes what is still gathered before its `stopped` line.
 */

t.test('lines wait at most 20 ms, share one write, and the stop writes what waits', async (t) => {
  const file = path.join(t.testdir(), 'payemu.log');
  const waits: { ms: number; fn: () => void }[] = [];
  const timers: UiTimers = {
    after: (ms, fn) => {
      waits.push({ ms, fn });
      return { cancel() {} };
    },
    every: () => ({ cancel() {} }),
    soon: () => ({ cancel() {} }),
  };
  const bus = new Bus();
  const host = hostOf(bus, timers);
  const log = openFileLog(file);
  log.attach(host);
  const types = () =>
    fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).type);
  t.same(types(), ['listening'], 'the readiness line at once');

  bus.emit('config.reloaded', { path: '/a.json' });
  bus.emit('config.reloaded', { path: '/b.json' });
  t.same(types(), ['listening'], 'events wait');
  t.same(
    waits.map((w) => w.ms),
    [20],
    'one wait of 20 ms for both',
  );
  waits[0]!.fn();
  t.same(types(), ['listening', 'config.reloaded', 'config.reloaded'], 'then both are written, in order');

  bus.emit('store.compacted', { ok: true, records: 3 });
  t.equal(waits.length, 2, 'a new line waits again');
  log.close();
  t.same(types(), ['listening', 'config.reloaded', 'config.reloaded', 'store.compacted', 'stopped'], 'the stop writes what waits, then its line');
  waits[1]!.fn(); // the wait ends after the close: nothing more is written
  t.equal(types().length, 5);
});

/**
 * stdout as a pipe read more slowly than payemu writes (docs/cli.md): what it cannot take waits in
 * payemu's memory, so past BACKLOG_BYTES lines are left out, and once it has written what it
 * held, one line says how many; every line is then written again.
 */
t.test('stdout read slowly: it holds at most BACKLOG_BYTES of lines, then one line counts those left out', async (t) => {
  const waits: (() => void)[] = [];
  const timers: UiTimers = {
    after: (_ms, fn) => {
      waits.push(fn);
      return { cancel() {} };
    },
    every: () => ({ cancel() {} }),
    soon: () => ({ cancel() {} }),
  };
  const flush = () => {
    for (const fn of waits.splice(0)) fn();
  };
  const request = { method: 'GET', path: `/v1/payments/${'x'.repeat(60)}`, status: 404, ms: 1, source: 'acme', mode: 'test' };
  // Lines of about 100 bytes: twice what the stream may hold.
  const count = Math.ceil((2 * BACKLOG_BYTES) / 100);
  for (const json of [true, false]) {
    // A reader that takes nothing until released: each write waits in the stream.
    const held: (() => void)[] = [];
    const text: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text.push(chunk.toString());
        held.push(done);
      },
    });
    const release = async () => {
      while (held.length > 0) {
        held.shift()!();
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const bus = new Bus();
    const logger = createLogger(hostOf(bus, timers), { json, out });
    logger.ready();
    let most = 0;
    for (let i = 0; i < count; i++) {
      bus.emit('request', request);
      if (i % 100 === 0) flush();
      most = Math.max(most, out.writableLength);
    }
    flush();
    t.ok(most <= BACKLOG_BYTES + 16 * 1024, `${json ? 'JSON' : 'plain'}: held ${most} bytes at most`);
    // The reader catches up: the stream empties ('drain'), and the next flush writes the count.
    await release();
    flush();
    await release();
    const lines = text.join('').trim().split('\n');
    const written = lines.filter((line) => line.includes('/v1/payments/')).length;
    t.ok(written > count / 4 && written < count, `${written} lines written before the reader fell behind`);
    const left = count - written;
    t.equal(
      lines.at(-1),
      json ? JSON.stringify({ type: 'left_out', lines: left }) : `2027-01-01 00:00:00 ${leftOutLine(left)}`,
      'then one line counts the lines left out',
    );
    bus.emit('request', request);
    flush();
    await release();
    t.match(text.join('').trim().split('\n').at(-1), /\/v1\/payments\//, 'and the next line is written');

    // A stop while lines are left out: the count comes before the stop's line.
    for (let i = 0; i < count; i++) bus.emit('request', request);
    flush();
    logger.stopped();
    await release();
    t.match(text.join('').trim().split('\n').slice(-2), [
      json ? /^\{"type":"left_out","lines":\d+\}$/ : /log lines left out/,
      json ? '{"type":"stopped"}' : 'payemu stopped',
    ]);
  }
});
