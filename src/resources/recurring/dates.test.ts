import t from 'tap';
import { firstPeriodAfter, type Frequency, periodDate } from './dates.js';

const d = (text: string) => Date.parse(`${text}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

t.test('monthly keeps the day of month, clamped to short months', async (t) => {
  const start = d('2027-01-31');
  t.same(
    [0, 1, 2, 3, 13].map((k) => iso(periodDate(start, 'monthly', 1, k))),
    ['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2028-02-29'],
  );
  t.same(
    [0, 1, 2].map((k) => iso(periodDate(d('2027-11-30'), 'monthly', 3, k))),
    ['2027-11-30', '2028-02-29', '2028-05-30'],
  );
});

t.test('yearly from Feb 29', async (t) => {
  t.same(
    [0, 1, 4].map((k) => iso(periodDate(d('2028-02-29'), 'yearly', 1, k))),
    ['2028-02-29', '2029-02-28', '2032-02-29'],
  );
});

t.test('daily and weekly with interval_count', async (t) => {
  t.equal(iso(periodDate(d('2027-01-01'), 'daily', 2, 3)), '2027-01-07');
  t.equal(iso(periodDate(d('2027-01-01'), 'weekly', 1, 2)), '2027-01-15');
});

t.test('the first period after a date', async (t) => {
  const start = d('2027-01-31');
  t.equal(firstPeriodAfter(start, 'monthly', 1, d('2027-02-28')), 2);
  t.equal(firstPeriodAfter(start, 'monthly', 1, d('2027-02-28'), true), 1);
  t.equal(firstPeriodAfter(start, 'monthly', 1, d('2026-12-01')), 0);
  t.equal(firstPeriodAfter(d('2027-01-01'), 'daily', 1, d('2037-01-01')), 3654, 'ten years and a day');
});

t.test('a cadence that cannot move forward is a RangeError, never a loop', async (t) => {
  const start = Date.UTC(2027, 0, 1);
  const after = Date.UTC(2027, 5, 1);
  for (const [frequency, count] of [
    ['daily', 0],
    ['weekly', -1],
    ['hourly', 1],
    ['monthly', 0.5],
    ['yearly', Number.NaN],
  ] as const)
    t.throws(() => firstPeriodAfter(start, frequency as Frequency, count, after), RangeError, `${frequency} every ${count}`);
  t.throws(() => firstPeriodAfter(Number.NaN, 'monthly', 1, after), RangeError, 'a start that is not a number');
  t.throws(() => firstPeriodAfter(start, 'yearly', 365, 8.64e15), RangeError, 'dates past the last Date');
  t.equal(firstPeriodAfter(start, 'monthly', 1, after), 6, 'a sound cadence as before');
});
