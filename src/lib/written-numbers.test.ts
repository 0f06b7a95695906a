import t from 'tap';
import { decimalPlaces, looseLiterals, mayHaveLooseLiteral, noteWrittenNumbers, writtenLiteral } from './written-numbers.js';

t.test('the decimal places of the exact value a literal writes', async (t) => {
  const cases: [string, number][] = [
    ['12', 0],
    ['12.5', 1],
    ['12.50', 1],
    ['12.500', 1],
    ['12.5000000000000000000', 1],
    ['1.005', 3],
    ['0.30000001', 8],
    ['0.3000000000000000001', 19],
    ['1e2', 0],
    ['1E+2', 0],
    ['1.5e1', 0],
    ['1.0e-2', 2],
    ['100e-4', 2],
    ['1e-3', 3],
    ['1.2345e2', 2],
    ['1.23456e2', 3],
    ['-0', 0],
    ['-0.000', 0],
    ['0e-400', 0],
    ['-1.005', 3],
    ['-12.34', 2],
    [`1e-${'9'.repeat(400)}`, Number.POSITIVE_INFINITY],
    [`1.005e${'9'.repeat(400)}`, 0],
  ];
  for (const [literal, places] of cases) t.equal(decimalPlaces(literal), places, literal);
});

t.test('the pre-check: no scan for a body without a candidate, never a loose literal missed', async (t) => {
  for (const text of [
    '{"amount": 12.5, "currency": "EUR"}',
    '{"amount":25.50,"customer_email":"jenny.rosen@example.com","success_url":"https://example.com/ok?x=1.234"}',
    '{"to": "2026-11-21T10:00:00.000000Z", "by": "1d"}',
    '{"description": "one-time 3e-4x", "amount": 1e2, "fee": 1.5E+1}',
    '[1.25, 2.5e1]',
  ])
    t.notOk(mayHaveLooseLiteral(text), text);
  // Every literal written with three fraction digits or more, or a negative exponent, wherever it stands.
  const literals = ['1.005', '-0.001', '12.500', '1e-3', '1E-3', '1.5e-1', '2.0000e0', '1.2345E+2', '0.30000001'];
  for (const literal of literals) {
    for (const text of [
      `{"a":${literal}}`,
      `[${literal}]`,
      `{"a": [1, ${literal} ], "b": 2}`,
      `{"a" :\n\t${literal}\r\n}`,
      `{"s": "1.2345Z", "a": ${literal},"t":0}`,
    ]) {
      t.ok(mayHaveLooseLiteral(text), text);
    }
  }
  // Random literals: each whose exact value has more than two decimals is a candidate.
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
  let loose = 0;
  for (let i = 0; i < 5000; i++) {
    const fraction = Math.random() < 0.7 ? `.${digits(1 + Math.floor(Math.random() * 5))}` : '';
    const exponent = Math.random() < 0.5 ? `${Math.random() < 0.5 ? 'e' : 'E'}${['', '+', '-'][i % 3]}${digits(1)}` : '';
    const literal = `${Math.random() < 0.2 ? '-' : ''}${1 + Math.floor(Math.random() * 999)}${fraction}${exponent}`;
    if (decimalPlaces(literal) <= 2) continue;
    loose++;
    if (!mayHaveLooseLiteral(`{"a": ${literal}}`)) t.fail(literal);
  }
  t.ok(loose > 1000, `${loose} random loose literals, each a candidate`);
});

t.test('the scanner finds each loose literal by its path', async (t) => {
  const paths = (text: string) => looseLiterals(text).map(({ path, literal }) => [path, literal]);
  t.same(paths('{"amount": 12.5, "currency": "EUR"}'), [], 'none');
  t.same(paths('{"amount":1.005}'), [[['amount'], '1.005']]);
  t.same(paths('{"amount": -0.001 }'), [[['amount'], '-0.001']], 'negative');
  t.same(paths('{"a": 1e-3, "b": 1e2, "c": 1.0e-2, "d": 12.500}'), [[['a'], '1e-3']], 'exponents and trailing zeros');
  t.same(
    paths('{"items": [{"unit_price": 1}, {"unit_price": 2.001, "quantity": 3}], "tax": {"lines": [{"amount": 0.3000000000000000001}]}}'),
    [
      [['items', 1, 'unit_price'], '2.001'],
      [['tax', 'lines', 0, 'amount'], '0.3000000000000000001'],
    ],
    'nested objects and arrays',
  );
  t.same(paths('[[1, 2.222], [], {}, {"x": [3.333]}]'), [
    [[0, 1], '2.222'],
    [[3, 'x', 0], '3.333'],
  ]);
  t.same(paths('[{}, "k", 1.111]'), [[[2], '1.111']], 'a string after an empty object in an array is no key');
  t.same(
    paths('{"a\\"b": 1.111, "c\\\\": 2.222, "\\u0064": 3.333, "s": "x\\\\", "t": "{\\"u\\": 4.444}"}'),
    [
      [['a"b'], '1.111'],
      [['c\\'], '2.222'],
      [['d'], '3.333'],
    ],
    'escapes in keys decoded; brackets, numbers and quotes inside strings are text',
  );
  t.same(paths('{"amount": 1.005, "amount": 1.00}'), [], 'a key given twice: the last wins');
  t.same(paths('{"amount": 1, "amount": 1.005}'), [[['amount'], '1.005']]);
  t.same(paths('{"a": {"b": 1.005}, "a": {"b": 2}}'), [], 'the last duplicate of a parent too');
  t.same(paths('{"a.b": 1.005, "a": {"b": 1}}'), [[['a.b'], '1.005']], 'a key with a dot is one key');
  t.same(paths(' { "x" : [ true , false , null , 1.111 ] } '), [[['x', 3], '1.111']], 'whitespace and literals');
});

t.test('noteWrittenNumbers and writtenLiteral: the loose literals of a parsed body, by their parent, once a question names the body', async (t) => {
  const note = (text: string) => {
    const value = JSON.parse(text);
    noteWrittenNumbers(value, text);
    return value;
  };
  const body = note('{"amount": 0.3000000000000000001, "items": [{"unit_price": 1}, {"unit_price": 1.005}], "ok": 12.500}');
  t.equal(body.amount, 0.3, 'JSON.parse rounds it');
  t.equal(writtenLiteral(body, 'amount', undefined), undefined, 'not known before a question names the body (its scan)');
  t.equal(writtenLiteral(body, 'amount', body), '0.3000000000000000001');
  t.equal(writtenLiteral(body.items[1], 'unit_price', body), '1.005');
  t.equal(writtenLiteral(body.items[0], 'unit_price', body), undefined);
  t.equal(writtenLiteral(body, 'ok', body), undefined);
  t.equal(writtenLiteral(body, 'items', body), undefined);
  const list = note('{"a": [1, 2.005]}');
  t.equal(writtenLiteral(list.a, 1, list), '2.005', 'an array item by its index');
  t.equal(writtenLiteral(list.a, '1', list), undefined, 'not by a string');
  const replaced = note('{"a": [1, 2.005], "a": {"1": 5}}');
  t.equal(writtenLiteral(replaced.a, '1', replaced), undefined, 'a duplicate that replaced the array');
  t.equal(writtenLiteral(replaced.a, 1, replaced), undefined);
  const string = note('{"a": {"b": 1.005}, "a": {"b": "text"}}');
  t.equal(writtenLiteral(string.a, 'b', string), undefined, 'a duplicate that is no number');
  const stamps = note('{"to": "2026-11-21T10:00:00.000000Z", "amount": 12.5}');
  t.equal(writtenLiteral(stamps, 'to', stamps), undefined, 'a timestamp is text');
  const spaced = note('{\n  "amount" :\n    1E-3\n}');
  t.equal(writtenLiteral(spaced, 'amount', spaced), '1E-3', 'across lines');
  t.equal(writtenLiteral(undefined, 'x', undefined), undefined);
  t.equal(writtenLiteral(5, 'x', undefined), undefined);
});
