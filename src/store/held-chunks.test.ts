import t from 'tap';
import { HeldChunks } from './held-chunks.js';

/** The chunks that hold records kept as their bytes (RawRecords.hold): filled in order, used again once emptied. */

const record = (n: number) => Buffer.from(`{"id":"${n}","pad":"${'x'.repeat(1000)}"}`);

t.test('records are copied in whole, a chunk after another; an emptied chunk is used again, not dropped', async (t) => {
  const held = new HeldChunks();
  const placed: [number, number, number][] = [];
  // About 3.6 MB: three chunks and some.
  for (let n = 0; n < 3500; n++) {
    const bytes = record(n);
    const [chunk, at] = held.copy(bytes, 0, bytes.length);
    placed.push([chunk, at, bytes.length]);
  }
  t.same([...new Set(placed.map(([chunk]) => chunk))], [0, 1, 2, 3], 'four chunks, filled in order');
  t.ok(
    placed.every(([chunk, at, length], n) =>
      held
        .chunk(chunk)
        .subarray(at, at + length)
        .equals(record(n)),
    ),
    'each record reads back as it was copied',
  );
  const first = held.chunk(0);
  // The oldest go first, as the event log's do: the first chunk empties.
  for (const [chunk] of placed.filter(([chunk]) => chunk === 0)) held.release(chunk);
  t.throws(() => held.chunk(0).length, 'an emptied chunk is let go');
  // Filling on reaches a new chunk, which is the emptied one again.
  let last = 3;
  for (let n = 0; last === 3; n++) {
    const bytes = record(n);
    last = held.copy(bytes, 0, bytes.length)[0];
  }
  t.equal(held.chunk(last), first, 'the new chunk is the first one, used again');
  // A record larger than a chunk gets one of its own.
  const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
  const [chunk, at] = held.copy(big, 0, big.length);
  t.equal(at, 0);
  t.ok(held.chunk(chunk).subarray(0, big.length).equals(big));
  held.clear();
  t.throws(() => held.chunk(0).length, 'cleared: nothing is held');
});
