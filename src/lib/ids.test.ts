import t from 'tap';
import { base62, newId, newUuid } from './ids.js';

t.test('UUIDs are version 4 and do not repeat', async (t) => {
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i++) {
    const id = newUuid();
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)) t.fail(`not a v4 UUID: ${id}`);
    seen.add(id);
  }
  t.equal(seen.size, 10_000);
});

t.test('base62 ids have the asked length and use the whole alphabet', async (t) => {
  t.match(newId('cs_'), /^cs_[0-9A-Za-z]{24}$/);
  t.match(newId('pay_', 16), /^pay_[0-9A-Za-z]{16}$/);
  t.equal(base62(100).length, 100, 'longer than the scratch buffer');
  const chars = new Set(Array.from({ length: 2000 }, () => base62(24)).join(''));
  t.equal(chars.size, 62);
});
