import t from 'tap';
import { AnswerCache } from './answer-cache.js';

t.test('an answer is made once per record and base URL', async (t) => {
  const cache = new AnswerCache(2);
  let made = 0;
  const record = { id: '1', status: 'PAID' };
  const make = (r: object) => () => ({ data: r, n: ++made });
  t.equal(cache.json(record, 'http://a', make(record)), '{"data":{"id":"1","status":"PAID"},"n":1}');
  t.equal(cache.json(record, 'http://a', make(record)), '{"data":{"id":"1","status":"PAID"},"n":1}', 'kept');
  t.equal(cache.json(record, 'http://b', make(record)), '{"data":{"id":"1","status":"PAID"},"n":2}', 'another base URL is made again');
  const next = { ...record, status: 'REFUNDED' };
  t.equal(cache.json(next, 'http://b', make(next)), '{"data":{"id":"1","status":"REFUNDED"},"n":3}', 'a new version of the record is a miss');
});

t.test('only the most recent records are kept', async (t) => {
  const cache = new AnswerCache(2);
  let made = 0;
  const records = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  for (const r of records) cache.json(r, 'x', () => ++made);
  t.equal(made, 3);
  cache.json(records[2]!, 'x', () => ++made);
  cache.json(records[1]!, 'x', () => ++made);
  t.equal(made, 3, 'the two newest are kept');
  cache.json(records[0]!, 'x', () => ++made);
  t.equal(made, 4, 'the oldest was dropped');
});
