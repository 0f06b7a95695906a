import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readLines, scanLines } from './lines.js';

/** The one line reader of the store's files (journal segments, the snapshot, the index keys' head). */

t.test('lines longer than a read, UTF-8 split between reads, offsets and numbers', async (t) => {
  const file = path.join(t.testdir(), 'f');
  const lines = ['short', 'é𝄞'.repeat(50), '', 'x'.repeat(40), 'end'];
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const fd = fs.openSync(file, 'r');
  t.teardown(() => fs.closeSync(fd));
  const seen: [string, number, number][] = [];
  let checked = 0;
  const scanned = scanLines(
    fd,
    (bytes, start, end, offset, line) => {
      seen.push([bytes.toString('utf8', start, end), offset, line]);
      return true;
    },
    { chunk: 8, afterRead: (_bytes, whole) => (checked += whole) },
  );
  let at = 0;
  t.same(
    seen,
    lines.map((text, i) => {
      const offset = at;
      at += Buffer.byteLength(text) + 1;
      return [text, offset, i + 1];
    }),
    'each line whole, at its byte offset, numbered from 1',
  );
  t.same(scanned, { whole: at }, 'every byte is in a whole line');
  t.equal(checked, at, 'afterRead saw each whole line once');
});

t.test('an unfinished last line is the tail; a false stops the scan', async (t) => {
  const file = path.join(t.testdir(), 'f');
  fs.writeFileSync(file, 'one\ntwo\nthr');
  const texts: string[] = [];
  t.same(
    readLines(file, (text) => texts.push(text)),
    { whole: 8, tail: { line: 3, offset: 8, length: 3, start: 'thr' } },
  );
  t.same(texts, ['one', 'two']);
  const fd = fs.openSync(file, 'r');
  t.teardown(() => fs.closeSync(fd));
  let calls = 0;
  t.equal(
    scanLines(fd, () => ++calls > 1),
    undefined,
    'stopped at the first line',
  );
  t.equal(calls, 1);
});
