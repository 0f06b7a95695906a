import t from 'tap';
import { JsonBytes, NotPlain } from './json-bytes.js';

/** What the writer wrote for `value`, as text. */
function written(value: unknown, size?: number): string {
  const out = new JsonBytes(size);
  out.value(value);
  return out.buffer.toString('utf8', 0, out.length);
}

t.test('the bytes of JSON.stringify, for odd strings', async (t) => {
  const strings = [
    '',
    'plain',
    'a "quoted" word',
    'back\\slash',
    'tab\there, new\nline, return\r, bell\u0007, nul\u0000, unit\u001f',
    'del\u007f',
    'é and ü',
    '𝄞 clef',
    'lone high \ud800 here',
    'lone low \udc00 here',
    'ends high \ud83d',
    '\udc00\ud800 reversed',
    '日本語',
    '\u2028\u2029 separators',
  ];
  // Named by their place: some are not text a TAP line can hold.
  strings.forEach((s, i) => {
    t.equal(written(s), JSON.stringify(s), `string ${i}`);
    t.equal(JSON.parse(written(s)), s, `string ${i} reads back the same`);
  });
});

t.test('numbers as JSON writes them', async (t) => {
  const numbers = [0, -0, 1, -1, 7, 10, 99, 100, 12345678, 99999999, 100000000, 123456789, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 1799452800000, -1799452800000];
  numbers.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 53, 1e21, 1e-7, 9.99, 0.1 + 0.2, -3.5, Number.NaN, Number.POSITIVE_INFINITY, -Infinity);
  // The same fraction twice (kept from the last write), then another.
  numbers.push(9.99, 9.99, 19.99);
  for (const n of numbers) t.equal(written(n), JSON.stringify(n), String(n));
  for (let i = 0; i < 2000; i++) {
    const n = Math.floor((Math.random() - 0.5) * 2 * Number.MAX_SAFE_INTEGER);
    if (written(n) !== JSON.stringify(n)) t.fail(`${n}: ${written(n)}`);
  }
});

t.test('objects and arrays: fields in order, undefined dropped from objects and null in arrays', async (t) => {
  const values: unknown[] = [
    {},
    [],
    { id: 'a', n: 1, missing: undefined, nested: { list: [1, null, 'x', undefined, true, false], empty: {} }, last: null },
    [undefined, { a: undefined }, [[]]],
    // Integer-like keys come first, as in Object.keys.
    { b: 1, 2: 'two', a: 2, 1: 'one' },
    { 'a "key"': 1, é: 2, '\n': 3 },
    Object.assign(Object.create(null), { bare: true }),
    Object.freeze({ frozen: [1] }),
  ];
  // A hole, written as null.
  const sparse: unknown[] = [1];
  sparse[2] = 3;
  values.push(sparse);
  for (const v of values) t.equal(written(v), JSON.stringify(v), JSON.stringify(v));
});

t.test('a value that is not plain data is refused, for JSON.stringify to write', async (t) => {
  class Thing {
    x = 1;
  }
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  for (const v of [new Date(0), new Map(), { toJSON: () => 1 }, new Thing(), () => 1, Symbol('s'), 10n, new Uint8Array(2), cycle, { deep: [new Date(0)] }]) {
    let thrown: unknown;
    try {
      written(v);
    } catch (error) {
      thrown = error;
    }
    t.ok(thrown instanceof NotPlain, typeof v);
  }
});

t.test('the buffer grows as it fills', async (t) => {
  const big = { text: 'x'.repeat(5000), odd: 'é'.repeat(3000), list: Array.from({ length: 2000 }, (_, i) => i * 1e9) };
  t.equal(written(big, 16), JSON.stringify(big));
});

t.test("an object's fields, written in place: odd names and strings, integers of every size, the buffer full at each step", async (t) => {
  const record: Record<string, unknown> = {
    id: 'e3b0c442-98fc-4c14-9afb-f4c8996fb924',
    'a "name"': 'a "value"',
    'new\nline': 'tab\t',
    é: 'ü',
    '': '',
    lone: '\ud800',
    // Names written as JSON.stringify writes them, each followed by a long number.
    '"': 1799452800000,
    '\\': -Number.MAX_SAFE_INTEGER,
    zero: 0,
    negative: -0,
    small: -7,
    digits8: 99999999,
    digits9: 100000000,
    timestamp: 1799452800000,
    before1970: -1799452800000,
    largest: Number.MAX_SAFE_INTEGER,
    smallest: Number.MIN_SAFE_INTEGER,
    unsafe: 2 ** 53,
    fraction: 9.99,
    nan: Number.NaN,
    none: null,
    yes: true,
    gone: undefined,
    nested: { list: [1, 'two', null], empty: {} },
  };
  // Every size up to the whole record: each field's room is checked and the buffer grows at each place.
  const whole = JSON.stringify(record);
  for (let size = 1; size <= whole.length + 8; size++) {
    if (written(record, size) !== whole) t.fail(`buffer of ${size} bytes: ${written(record, size)}`);
  }
  t.equal(written(record), whole);
  for (let i = 0; i < 2000; i++) {
    const n = Math.floor((Math.random() - 0.5) * 2 * Number.MAX_SAFE_INTEGER);
    if (written({ n }) !== JSON.stringify({ n })) t.fail(`${n}: ${written({ n })}`);
  }
});
