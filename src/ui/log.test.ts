import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { Bus } from '../bus/bus.js';
import type { UiHost, UiTimers } from './host.js';
import { openFileLog } from './log.js';

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
  const host: UiHost = {
    url: 'http://127.0.0.1:1',
    dataDir: undefined,
    sources: [],
    clock: { now: () => '2027-01-01T00:00:00.000000Z' },
    bus,
    webhookUrl: () => null,
    timers,
    eventNames: [],
  };
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
