import t from 'tap';
import { clip, fitColumns, textWidth } from './format.js';

// The terminal UI's measures of text: display columns (wide characters, combining marks, control
// characters), clipping, and the columns a table's width leaves room for. The layouts built on
// them, at the sizes people use: layout.test.ts.

t.test('cells, clips and columns measure display columns', async (t) => {
  t.equal(textWidth('abc'), 3);
  t.equal(textWidth('注文'), 4, 'CJK takes two columns a character');
  t.equal(textWidth('🎉'), 2, 'so does an emoji');
  t.equal(textWidth('é'), 1, 'a combining mark none');
  t.equal(textWidth('a\nb\tc'), 5, 'control characters become blanks');
  t.equal(clip('order-1001', 10), 'order-1001');
  t.equal(clip('order-10012', 10), 'order-100…');
  t.equal(clip('注文番号', 5), '注文…', 'never half a wide character');
  t.equal(clip('ok   ', 3), 'ok', 'trailing blanks go without a mark');
  t.equal(clip('line one\nline two', 40), 'line one line two');

  const specs = [
    { key: 'a', width: 10 },
    { key: 'b', width: 10, drop: 1 },
    { key: 'c', width: 10, min: 5, flex: true, max: 20 },
    { key: 'd', width: 10, drop: 2 },
    { key: 'e', width: 10 },
  ] as const;
  t.same(
    fitColumns(49, specs).map((c) => c.key),
    ['a', 'b', 'c', 'd', 'e'],
    'all fit (the last needs no blank after it)',
  );
  t.same(
    fitColumns(44, specs),
    [
      { key: 'a', width: 10 },
      { key: 'b', width: 10 },
      { key: 'c', width: 5 },
      { key: 'd', width: 10 },
      { key: 'e', width: 10 },
    ],
    'the flex column gives way first',
  );
  t.same(
    fitColumns(40, specs).map((c) => c.key),
    ['a', 'c', 'd', 'e'],
    'then the lowest drop goes',
  );
  t.same(
    fitColumns(20, specs).map((c) => c.key),
    ['a', 'c', 'e'],
    'then the next',
  );
  t.same(
    fitColumns(100, specs).map((c) => c.width),
    [10, 10, 20, 10, 51],
    'a wide line: the flex column up to its max, the rest to the last',
  );
});
