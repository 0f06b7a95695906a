import t from 'tap';
import { noteWrittenNumbers } from '../../lib/written-numbers.js';
import { render } from './template.js';
import { bodyText, keepWritten, WrittenNumber } from './written.js';

t.test("a trigger's data keeps the numbers its text wrote with more than two decimals, and its steps' bodies write them so", async (t) => {
  const text = '{"amount": 0.3000000000000000001, "new_amount": 30, "metadata": {"n": [1, 1.005]}, "reference": "r"}';
  const data = JSON.parse(text);
  noteWrittenNumbers(data, text);
  const kept = keepWritten(data, data);
  t.not(kept, data, 'a copy');
  t.same(data.amount, 0.3, 'the body itself is as parsed');
  t.ok(kept.amount instanceof WrittenNumber);
  t.equal(kept.new_amount, 30);
  t.equal(kept.metadata.n[0], 1);
  t.equal(String(kept.metadata.n[1]), '1.005', 'in arrays too');
  const body = render({ amount: '{{amount}}', reference: '{{reference}}', path: 'x/{{amount}}', metadata: '{{metadata}}' }, kept);
  t.equal(bodyText(body), '{"amount":0.3000000000000000001,"reference":"r","path":"x/0.3000000000000000001","metadata":{"n":[1,1.005]}}');
  const plain = JSON.parse('{"amount": 12.5}');
  t.equal(keepWritten(plain, plain), plain, 'no copy without such a number');
  for (const value of [{ a: [1, null, 'x', { b: true }], c: undefined, d: 'é"\\' }, [undefined, 1], 'text', 5, null]) {
    t.equal(bodyText(value), JSON.stringify(value), `as JSON.stringify: ${JSON.stringify(value)}`);
  }
});
