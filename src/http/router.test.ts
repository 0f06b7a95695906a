import t from 'tap';
import { parseTarget, RouteTable } from './router.js';

const table = new RouteTable<string>();
table.add('GET', '/v1/payments', 'list');
table.add('GET', '/v1/payments/:reference', 'read');
table.add('POST', '/v1/payments/:reference/refunds', 'refund');
table.add('GET', '/_payemu/events/:id', 'event');
table.add('GET', '/_payemu/events/stream', 'stream');
table.add('PATCH', '/v1/payments/:reference', 'patch');

t.test('a path matches its route, with its params decoded', async (t) => {
  t.same(table.find('GET', '/v1/payments'), { value: 'list', params: {} });
  t.same(table.find('GET', '/v1/payments/abc'), { value: 'read', params: { reference: 'abc' } });
  t.same(table.find('GET', '/v1/payments/a%20b'), { value: 'read', params: { reference: 'a b' } });
  t.same(table.find('GET', '/v1/payments/%E0%A4%A'), { value: 'read', params: { reference: '%E0%A4%A' } }, 'left as sent when it does not decode');
  t.same(table.find('POST', '/v1/payments/x/refunds'), { value: 'refund', params: { reference: 'x' } });
});

t.test('one trailing slash is allowed, an empty segment is no param', async (t) => {
  t.equal(table.find('GET', '/v1/payments/')?.value, 'list');
  t.equal(table.find('GET', '/v1/payments/abc/')?.value, 'read');
  t.equal(table.find('GET', '/v1/payments//'), undefined);
  t.equal(table.find('GET', '/v1/payments/abc//'), undefined);
  t.equal(table.find('GET', '/v1//abc'), undefined);
});

t.test('letter case is exact; the route listed first wins; HEAD is served by GET', async (t) => {
  t.equal(table.find('GET', '/V1/payments'), undefined);
  t.equal(table.find('GET', '/_payemu/events/stream')?.value, 'event');
  t.equal(table.find('HEAD', '/v1/payments/abc')?.value, 'read');
  t.equal(table.find('DELETE', '/v1/payments/abc'), undefined);
  t.equal(table.find('GET', 'http://example.com/v1/payments'), undefined);
});

t.test('the methods of a path, for Allow', async (t) => {
  t.same(table.methodsFor('/v1/payments/abc'), ['GET', 'PATCH']);
  t.same(table.methodsFor('/v1/payments/abc/refunds'), ['POST']);
  t.same(table.methodsFor('/v1/nothing'), []);
});

t.test('a target splits into path, search and query; a fragment is dropped', async (t) => {
  t.same(parseTarget('/v1/payments'), { path: '/v1/payments', search: '', query: {} });
  t.same(parseTarget('/v1/payments?limit=2&a=1&a=2#top'), { path: '/v1/payments', search: '?limit=2&a=1&a=2', query: { limit: '2', a: ['1', '2'] } });
  t.same(parseTarget('/v1/payments?'), { path: '/v1/payments', search: '?', query: {} });
  t.same(parseTarget('/v1/x#a?b'), { path: '/v1/x', search: '', query: {} });
});

t.test('routes are found by their first segment: one starting with a :param is refused when added', async (t) => {
  t.throws(() => new RouteTable<string>().add('GET', '/:anything', 'x'), /first segment must be literal/);
  t.equal(table.find('GET', '/'), undefined);
  t.equal(table.find('GET', '/payments/abc'), undefined, 'a known second segment under an unknown first');
});
