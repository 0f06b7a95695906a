import t from 'tap';
import { createRequire } from 'node:module';
import { createAjv, hasAtMostTwoDecimals, KEYWORD_TESTS, toFieldErrors } from './schemas.js';
import { noteWrittenNumbers } from './written-numbers.js';

const require = createRequire(import.meta.url);

t.test('the float test of a number without its text', async (t) => {
  for (const value of [0, 12.5, 0.1 + 0.2, 0.30000001, 999999.99, 558157399.69, 999999999.99, 1e21]) t.ok(hasAtMostTwoDecimals(value), String(value));
  for (const value of [1.005, 0.001, 0.3000001, 558157399.691, Number.POSITIVE_INFINITY, Number.NaN, 1e308])
    t.notOk(hasAtMostTwoDecimals(value), String(value));
  // Every two-decimal amount up to the largest a field takes, as JSON text writes it.
  for (let i = 0; i < 20_000; i++) {
    const cents = Math.floor(Math.random() * 99_999_999_999);
    const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    if (!hasAtMostTwoDecimals(Number(text))) t.fail(text);
  }
});

t.test('the money keyword judges a body by its text, compiled and as the build writes it (standalone code)', async (t) => {
  const money = { type: 'number', minimum: 0, money: true } as const;
  const schema = {
    type: 'object',
    properties: {
      amount: money,
      discount: { anyOf: [money, { type: 'null' }] },
      items: { type: 'array', items: { type: 'object', properties: { unit_price: money } } },
      extra: { type: 'object', additionalProperties: money },
    },
  };
  const compiled = createAjv().compile(schema);
  const ajv = createAjv({ source: true });
  const code = (require('ajv/dist/standalone').default as (ajv: unknown, validate: unknown) => string)(ajv, ajv.compile(schema));
  const factory = new Function('formats', 'keywords', 'require', `const module = { exports: {} }; ${code}; return module.exports;`);
  const standalone = factory({}, KEYWORD_TESTS, require);
  const text =
    '{"amount": 0.3000000000000000001, "discount": 1.0000000000000000001, "items": [{"unit_price": 1}, {"unit_price": 2.0000000000000000001}], "extra": {"a.b": 100000000000000000001e-20, "c": 12.500}}';
  for (const [name, validate] of [
    ['compiled', compiled],
    ['standalone', standalone],
  ] as const) {
    const body = JSON.parse(text);
    t.ok(validate(body), `${name}: without the text, the doubles pass`);
    noteWrittenNumbers(body, text);
    t.notOk(validate(body), `${name}: with it, they do not`);
    t.same(Object.keys(toFieldErrors(validate)).sort(), ['amount', 'discount', 'extra.a.b', 'items.1.unit_price'], `${name}: each named by its path`);
    t.same(toFieldErrors(validate).amount, ['The amount field must have at most 2 decimal places.']);
  }
});
