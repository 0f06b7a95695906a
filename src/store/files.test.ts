import t from 'tap';
import type { Change } from './collection.js';
import { encodeChanges, encodeChangesBytes } from './files.js';

/** The journal line written from a buffer is byte for byte the line `encodeChanges` describes. */

t.test('a journal line is the same bytes whichever way it is encoded', async (t) => {
  const changes: Change[] = [
    { collection: 'things', id: 'a', record: { id: 'a', color: 'ré𝄞d', lone: '\ud800', n: 1, nested: { list: [1, null, 'x'] } } as never },
    { collection: 'things', id: 'b', record: null },
  ];
  t.equal(encodeChangesBytes(changes).toString('utf8'), encodeChanges(changes));
  t.equal(encodeChangesBytes([]).toString('utf8'), encodeChanges([]));
});

t.test('a line bigger than the kept buffer grows it, and a later small line is still right', async (t) => {
  const big: Change[] = [];
  for (let i = 0; i < 3000; i++) big.push({ collection: 'things', id: `t${i}`, record: { id: `t${i}`, text: 'é'.repeat(4000) } as never });
  t.equal(encodeChangesBytes(big).toString('utf8'), encodeChanges(big));
  const small: Change[] = [{ collection: 'things', id: 'z', record: { id: 'z' } as never }];
  t.equal(encodeChangesBytes(small).toString('utf8'), encodeChanges(small));
});

t.test('a record rewritten in part, or holding what is not plain data, is the same bytes as well', async (t) => {
  const base = { id: 'a', color: 'red', n: 1, gone: 'x', tags: ['t'], note: { deep: 1 }, old: 'y' };
  const after = { id: 'a', color: 'red', n: 2, gone: undefined, tags: ['t'], note: { deep: 1 }, extra: 'é\u0000"' };
  const changes: Change[] = [
    { collection: 'things', id: 'a', record: after as never },
    { collection: 'things', id: 'b', record: { id: 'b', color: 'blue', n: 3 } as never },
    { collection: 'things', id: 'c', record: { id: 'c', when: new Date(0), fn: () => 1 } as never },
    { collection: 'things', id: 'd', record: null },
  ];
  const replaced = [base, { id: 'b', color: 'green', n: 4 }, { id: 'c' }, { id: 'd' }];
  const line = encodeChangesBytes(changes, replaced).toString('utf8');
  t.equal(line, encodeChanges(changes, replaced));
  t.same(
    JSON.parse(line)[0],
    ['things', 'a', { n: 2, tags: ['t'], note: { deep: 1 }, extra: 'é\u0000"' }, ['gone', 'old']],
    'the changed fields, and those removed',
  );
  t.equal(JSON.parse(line)[1].length, 3, 'most fields changed: the whole record');
});

t.test('a copy with the same fields rewritten in part: the changed ones, and those set to undefined as removed', async (t) => {
  const base = { id: 'a', color: 'red', n: 1, gone: 'x', meta: {}, last: 5 };
  const after = { ...base, n: 2, gone: undefined };
  const changes: Change[] = [{ collection: 'things', id: 'a', record: after as never }];
  const line = encodeChangesBytes(changes, [base]).toString('utf8');
  t.equal(line, encodeChanges(changes, [base]));
  t.same(JSON.parse(line), [['things', 'a', { n: 2, meta: {} }, ['gone']]]);
  const most = { ...base, color: 'blue', n: 3, gone: 'y', last: 6 };
  t.equal(
    encodeChangesBytes([{ collection: 'things', id: 'a', record: most as never }], [base]).toString('utf8'),
    encodeChanges([{ collection: 'things', id: 'a', record: most as never }], [base]),
  );
});

t.test('rewrites in a row of one shape, then of others: the fields dropped are found whichever names came before', async (t) => {
  const names = ['id', 'a', 'b', 'c', 'd'];
  const shapes = [names, ['id', 'a', 'b', 'c'], ['id', 'b', 'a', 'c', 'd'], [...names, 'e'], ['id', 'a', 'c', 'd']];
  const record = (keys: string[], seed: number) =>
    Object.fromEntries(keys.map((k, i) => [k, k === 'id' ? 'x' : (seed + i) % 3 === 0 ? undefined : `${k}${(seed * i) % 4}`]));
  // Every pair of shapes, each after a run of the first shape (the names the writer keeps), both ways.
  for (let seed = 0; seed < 6; seed++) {
    for (const before of shapes) {
      for (const after of shapes) {
        for (const [b, a] of [
          [names, names],
          [before, after],
          [after, before],
        ] as const) {
          const base = record([...b], seed);
          const changes: Change[] = [{ collection: 'things', id: 'x', record: record([...a], seed + 1) as never }];
          const want = encodeChanges(changes, [base as never]);
          if (encodeChangesBytes(changes, [base as never]).toString('utf8') !== want) t.fail(`${b} -> ${a} (${seed}): ${want}`);
        }
      }
    }
  }
  const base = { id: 'x', a: 1, b: 2, c: 3, d: 4, e: 5 };
  const changes: Change[] = [{ collection: 'things', id: 'x', record: { id: 'x', a: 9, b: 2, c: 3, d: 4 } as never }];
  encodeChangesBytes([{ collection: 'things', id: 'x', record: { id: 'x', a: 8, b: 2, c: 3, d: 4 } as never }], [{ id: 'x', a: 1, b: 2, c: 3, d: 4 } as never]);
  t.same(
    JSON.parse(encodeChangesBytes(changes, [base as never]).toString('utf8')),
    [['things', 'x', { a: 9 }, ['e']]],
    'a field the record before had, after a run of records without it',
  );
});
