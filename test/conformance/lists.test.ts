import t, { type Test } from 'tap';
import { assertError, emulator, pay, type TestEmulator } from '../helpers/emulator.js';

// DESIGN.md 4b ("Lists: ...") and 5 ("Lists: page[size] ..."), and SPEC.md's GET /v1/payments
// (filters, sort, meta and links). Each test is titled with the sentence it checks.

const refs = (res: { body: { data: { attributes: { reference: string } }[] } }) => res.body.data.map((p) => p.attributes.reference);
const list = (e: TestEmulator, query: string) => e.api.get(`/v1/payments?${query}`);

/** Payments a, b, c created 1.5 s apart from 10:00:00.123 (virtual, frozen clock); d and e at the same instant as c. */
async function seed(t: Test) {
  const e = await emulator(t, { freezeClock: true, clockStart: '2026-11-21T10:00:00.123Z' });
  for (const [i, reference] of ['a', 'b', 'c', 'd', 'e'].entries()) {
    await pay(e, { amount: 10 + i, reference });
    if (i < 2) await e.clock.advance('1500ms');
  }
  return e;
}

t.test('Lists: default sort -created_at, ties by id', async (t) => {
  const e = await seed(t);
  t.same(refs(await list(e, '')), ['e', 'd', 'c', 'b', 'a'], 'newest first; c, d and e share created_at: by id, descending');
  t.same(refs(await list(e, 'sort=created_at')), ['a', 'b', 'c', 'd', 'e'], 'ascending: ties by id ascending');
});

t.test('a page past the last is 200 with empty data', async (t) => {
  const e = await seed(t);
  const res = await list(e, 'page[size]=2&page[number]=4');
  t.equal(res.status, 200);
  t.same(res.body.data, []);
  t.same(res.body.meta, { current_page: 4, last_page: 3, per_page: 2, total: 5 }, 'meta: current_page, last_page, per_page, total, all integers');
  t.type(res.body.links.first, 'string');
  t.type(res.body.links.last, 'string');
});

t.test('created_after/created_before are exclusive and a bare date means 00:00 UTC', async (t) => {
  const e = await seed(t);
  const a = (await e.api.get('/v1/payments/a')).body.data.attributes.created_at;
  t.equal(a, '2026-11-21T10:00:00.123000Z', 'timestamps carry microseconds');
  t.same(refs(await list(e, `filter[created_after]=${a}`)), ['e', 'd', 'c', 'b'], 'after: exclusive');
  t.same(refs(await list(e, `filter[created_before]=${a}`)), [], 'before: exclusive');
  t.same(refs(await list(e, 'filter[created_after]=2026-11-21')), ['e', 'd', 'c', 'b', 'a'], 'a bare date is 00:00 UTC');
  t.same(refs(await list(e, 'filter[created_before]=2026-11-22')), ['e', 'd', 'c', 'b', 'a']);
  t.same(refs(await list(e, 'filter[created_before]=2026-11-21')), []);
  t.same(refs(await list(e, 'filter[created_after]=2026-11-21T10:00:01.623000Z&filter[created_before]=2026-11-21T10:00:03.123001Z')), ['e', 'd', 'c']);
});

t.test('created_after/created_before compare timestamps at full precision (microseconds)', async (t) => {
  const e = await seed(t);
  // a: 10:00:00.123000Z. One microsecond either side, and one nanosecond.
  t.same(refs(await list(e, 'filter[created_before]=2026-11-21T10:00:00.123001Z')), ['a'], 'created_at + 1 µs lists it');
  t.same(refs(await list(e, 'filter[created_before]=2026-11-21T10:00:00.123000001Z')), ['a'], 'created_at + 1 ns lists it');
  t.same(refs(await list(e, 'filter[created_before]=2026-11-21T10:00:00.122999Z')), [], 'created_at - 1 µs does not');
  t.same(refs(await list(e, 'filter[created_after]=2026-11-21T10:00:00.122999Z')), ['e', 'd', 'c', 'b', 'a'], 'created_at - 1 µs: after it');
  t.same(refs(await list(e, 'filter[created_after]=2026-11-21T10:00:00.123001Z')), ['e', 'd', 'c', 'b'], 'created_at + 1 µs: not after it');
  t.same(refs(await list(e, 'filter[created_after]=2026-11-21T11:00:00.123001%2B01:00')), ['e', 'd', 'c', 'b'], 'with a zone offset too');
  t.same(refs(await list(e, 'filter[created_before]=2026-11-21T11:00:00.123001%2B01:00')), ['a']);
});

t.test('page[size] 1 to 100 (default 15); 0, more than 100 or an unknown filter[...]/sort value is a 422', async (t) => {
  const e = await emulator(t);
  for (let i = 0; i < 16; i++) await pay(e, { amount: 1, reference: `p${i}` });
  const all = await list(e, '');
  t.equal(all.body.data.length, 15, 'default 15');
  t.equal(all.body.meta.per_page, 15);
  t.equal((await list(e, 'page[size]=1')).body.data.length, 1);
  t.equal((await list(e, 'page[size]=100')).body.data.length, 16);
  for (const [query, param] of [
    ['page[size]=0', 'page[size]'],
    ['page[size]=101', 'page[size]'],
    ['filter[colour]=red', 'filter[colour]'],
    ['filter[status]=LOST', 'filter[status]'],
    ['sort=colour', 'sort'],
  ]) {
    const res = await list(e, query!);
    assertError(t, res, 422);
    t.ok(res.body.errors[0].meta.errors[param!], `${query} names ${param}`);
  }
  for (const path of ['/v1/invoices', '/v1/payment-links', '/v1/recurring-payments']) {
    assertError(t, await e.api.get(`${path}?page[size]=101`), 422);
    assertError(t, await e.api.get(`${path}?sort=colour`), 422);
    assertError(t, await e.api.get(`${path}?filter[colour]=red`), 422);
  }
});
