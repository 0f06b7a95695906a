import t from 'tap';
import { cutDeeperThan, nestedDeeperThan } from './json-depth.js';

const nest = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

t.test('nestedDeeperThan counts brackets outside strings only', async (t) => {
  t.notOk(nestedDeeperThan(nest(3), 3), 'exactly the limit');
  t.ok(nestedDeeperThan(nest(4), 3), 'one more');
  t.notOk(nestedDeeperThan(`["[[[[", "\\"[[[["]`, 3), 'brackets and escaped quotes in strings do not count');
  t.ok(nestedDeeperThan(nest(100_000), 64), 'any depth, no recursion');
});

t.test('cutDeeperThan replaces each value that opens too deep, and nothing else', async (t) => {
  const marker = '"cut"';
  t.equal(cutDeeperThan(nest(70), 64, marker), nest(64, marker), '70 levels: the 65th and what it holds become the marker');
  t.equal(cutDeeperThan(`${nest(64)}${' '.repeat(200)}`, 64, marker), undefined, 'exactly 64 levels: whole');
  const deep = cutDeeperThan(`{"a": ${nest(70)}, "b": ${nest(66)}, "s": "${'['.repeat(80)}"}`, 64, marker)!;
  t.same(
    JSON.parse(deep),
    { a: JSON.parse(nest(63, marker)), b: JSON.parse(nest(63, marker)), s: '['.repeat(80) },
    'both deep values cut at 64 levels; the string kept',
  );
  t.equal(cutDeeperThan(`${'['.repeat(200)}`, 64, marker), `${'['.repeat(64)}"cut"`, 'unclosed text stays text that is not JSON');
});
