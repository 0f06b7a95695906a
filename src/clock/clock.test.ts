import t from 'tap';
import { createClock } from './clock.js';
import { parseDuration } from './duration.js';
import { formatDate, formatTimestamp, parseBound, parseTimestamp, startOfDay } from './format.js';

t.test('a clock follows injected real time plus an offset that only grows', async (t) => {
  let real = 1_000_000;
  const clock = createClock({ realNow: () => real });
  t.equal(clock.now(), 1_000_000);
  real += 500;
  t.equal(clock.now(), 1_000_500);
  clock.moveTo(2_000_000);
  t.equal(clock.now(), 2_000_000);
  t.equal(clock.offsetMs(), 999_500);
  clock.moveTo(10);
  t.equal(clock.now(), 2_000_000, 'never backwards');
});

t.test('a frozen clock moves only when told', async (t) => {
  let real = 0;
  const clock = createClock({ realNow: () => real, start: 5000, frozen: true });
  real += 10_000;
  t.equal(clock.now(), 5000);
  clock.moveTo(6000);
  t.equal(clock.now(), 6000);
  t.same(clock.state(), { offsetMs: 5000, frozenAt: 6000 });
});

t.test('a frozen start is exact even when real time ticks while the clock is made', async (t) => {
  let real = 0;
  const clock = createClock({ realNow: () => real++, start: 5000, frozen: true });
  t.equal(clock.now(), 5000, 'not 5001');
});

t.test('formats and parses', async (t) => {
  const ms = Date.UTC(2026, 10, 21, 10, 0, 0, 123);
  t.equal(formatTimestamp(ms), '2026-11-21T10:00:00.123000Z');
  t.equal(formatDate(ms), '2026-11-21');
  t.equal(startOfDay(ms), Date.UTC(2026, 10, 21));
  t.equal(parseTimestamp('2026-11-21'), Date.UTC(2026, 10, 21));
  t.equal(parseTimestamp('2026-11-21T10:00:00.123456Z'), ms);
  t.equal(parseTimestamp('2026-11-21T12:00:00+02:00'), Date.UTC(2026, 10, 21, 10));
  t.equal(parseTimestamp('2026-11-21T10:00'), Date.UTC(2026, 10, 21, 10));
  t.equal(parseTimestamp('2026-02-30'), undefined);
  t.equal(parseTimestamp('tomorrow'), undefined);
  // Filter bounds: the whole milliseconds either side of the instant, at any precision.
  t.same(parseBound('2026-11-21T10:00:00.123000Z'), { floor: ms, ceil: ms });
  t.same(parseBound('2026-11-21T10:00:00.123001Z'), { floor: ms, ceil: ms + 1 });
  t.same(parseBound('2026-11-21T10:00:00.123000001Z'), { floor: ms, ceil: ms + 1 });
  t.same(parseBound('2026-11-21T10:00:00.1Z'), { floor: ms - 23, ceil: ms - 23 });
  t.same(parseBound('2026-11-21'), { floor: Date.UTC(2026, 10, 21), ceil: Date.UTC(2026, 10, 21) });
  t.equal(parseBound('2026-02-30'), undefined);
  t.equal(parseDuration('30d'), 30 * 86_400_000);
  t.equal(parseDuration('90m'), 90 * 60_000);
  t.equal(parseDuration(1.5), 1500);
  t.equal(parseDuration('1.5h'), 5_400_000);
  t.equal(parseDuration('-1d'), undefined);
  t.equal(parseDuration('soon'), undefined);
});
