import t from 'tap';
import type { Collection, StoredRecord } from '../store/collection.js';
import { recordChecker, References } from './snapshot-check.js';

/** A collection with no schema and no index: only the ids are checked. */
const things = { name: 'things', indexes: {} } as unknown as Collection<StoredRecord>;

/** The 422's message of the first record of `ids` refused, or undefined. */
function firstRefused(ids: string[]): string | undefined {
  const check = recordChecker(things, 'all', undefined, new References());
  try {
    for (let i = 0; i < ids.length; i++) check({ id: ids[i] }, i);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

t.test('an id twice is refused at its second place, whatever the order of the ids before it', async (t) => {
  t.equal(firstRefused(['1', '2', '3', '10', '11']), undefined, 'rising numbers');
  t.equal(firstRefused(['3', '1', '2', '10']), undefined, 'numbers, not rising');
  t.equal(firstRefused(['1', '01', '1.0', '0x1', ' 1']), undefined, 'the same number, different strings');
  t.equal(firstRefused(['b', 'a', 'c']), undefined, 'not numbers');
  t.match(firstRefused(['1', '2', '3', '2', '4']), /data\.things\.3: the id "2" is in "things" twice/, 'rising, then one seen before');
  t.match(firstRefused(['1', '2', '2']), /data\.things\.2: the id "2"/, 'the same id at once');
  t.match(firstRefused(['5', '7', 'x', '9', '7']), /data\.things\.4: the id "7"/, 'rising, a string, then one seen while rising');
  t.match(firstRefused(['a', 'b', 'a']), /data\.things\.2: the id "a"/, 'not numbers');
  t.match(firstRefused(['NaN', 'NaN']), /data\.things\.1: the id "NaN"/);
  t.match(firstRefused(['Infinity', 'Infinity']), /data\.things\.1: the id "Infinity"/);
});

/** The 422's message of the first of `claims` ("<collection> <mode> <reference> <source>") refused, or undefined. */
function firstReferenceRefused(claims: string[]): string | undefined {
  const references = new References();
  try {
    claims.forEach((claim, i) => {
      const [collection, mode, reference, source] = claim.split(' ') as [string, string, string, string];
      references.claim(collection, { reference, source, mode }, () => `data.${collection}.${i}`);
    });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

t.test('a reference has one payment and one Source per mode, as payemu writes them', async (t) => {
  const cases: [string, string[], RegExp | undefined][] = [
    ['sessions and their payment', ['sessions test o-1 acme', 'sessions test o-1 acme', 'payments test o-1 acme'], undefined],
    ['a session after its payment', ['payments test o-1 acme', 'sessions test o-1 acme'], undefined],
    ['one reference in two modes', ['payments test o-1 acme', 'payments live o-1 globex'], undefined],
    [
      'two payments',
      ['payments test o-1 acme', 'payments test o-2 acme', 'payments test o-1 acme'],
      /data\.payments\.2: the reference "o-1" has another payment in test mode/,
    ],
    ["two Sources' payments", ['payments test o-1 acme', 'payments test o-1 globex'], /data\.payments\.1: the reference "o-1" has another payment/],
    [
      "another Source's session",
      ['payments test o-1 acme', 'sessions test o-1 globex'],
      /data\.sessions\.1: the reference "o-1" is used by two Sources in test mode/,
    ],
    ["two Sources' sessions", ['sessions live o-1 acme', 'sessions live o-1 globex'], /data\.sessions\.1: .* two Sources in live mode/],
    ["a payment of another Source's session", ['sessions test o-1 acme', 'payments test o-1 globex'], /data\.payments\.1: .* two Sources/],
  ];
  for (const [title, claims, refusal] of cases) {
    if (refusal === undefined) t.equal(firstReferenceRefused(claims), undefined, title);
    else t.match(firstReferenceRefused(claims), refusal, title);
  }
});
