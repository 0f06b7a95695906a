import t from 'tap';
import { cadence, longDate, offsetText } from './format.js';

t.test("the clock's offset in its two largest units, signed", async (t) => {
  const s = 1000;
  t.equal(offsetText((32 * 86_400 + 4 * 3600 + 59) * s), '+32 d 4 h');
  t.equal(offsetText(32 * 86_400 * s), '+32 d', 'no zero unit');
  t.equal(offsetText((3 * 3600 + 5 * 60 + 7) * s), '+3 h 5 min');
  t.equal(offsetText(-45 * s), '-45 s');
  t.equal(offsetText(-(86_400 + 60) * s), '-1 d', 'the second unit is hours, not minutes');
  t.equal(offsetText(400), 'none: real time', 'under half a second');
});

t.test('a date as a person reads it; a cadence', async (t) => {
  t.equal(longDate(Date.UTC(2027, 2, 11, 11, 0, 0)), 'Thu, 11 Mar 2027 11:00:00 UTC');
  t.equal(cadence('monthly', 1), 'monthly');
  t.equal(cadence('weekly', 2), 'every 2 weeks');
});
