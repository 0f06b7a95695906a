/** Bytes held records are copied into, a megabyte at a time. */
const CHUNK_BYTES = 1024 * 1024;
/** Emptied chunks kept to be used again, rather than left to a full collection to free. */
const SPARE_CHUNKS = 4;

/**
 * The bytes of the records held (RawRecords.hold in raw-records.ts), in chunks filled one after
 * the other. A chunk whose records have all gone (the event log's oldest, as its cap lets them
 * go) is used again: one dropped would stay in memory until V8's next full collection, as its
 * handle lives long enough to reach the old generation (75 MB of them at the peak of a year of
 * billing, measured before they were used again).
 */
export class HeldChunks {
  private chunks: (Buffer | undefined)[] = [];
  private live: number[] = [];
  private tail = 0;
  private spare: Buffer[] = [];

  /** Copies `from[start, end)` in; answers its chunk and where it starts there. */
  copy(from: Buffer, start: number, end: number): [number, number] {
    const size = end - start;
    let last = this.chunks.length - 1;
    if (last < 0 || this.tail + size > this.chunks[last]!.length) {
      // The chunk filled last may have emptied meanwhile (its release came while it was last).
      if (last >= 0 && this.live[last] === 0) this.drop(last);
      this.chunks.push((size <= CHUNK_BYTES ? this.spare.pop() : undefined) ?? Buffer.allocUnsafe(Math.max(CHUNK_BYTES, size)));
      this.live.push(0);
      this.tail = 0;
      last++;
    }
    const at = this.tail;
    from.copy(this.chunks[last]!, at, start, end);
    this.tail += size;
    this.live[last]!++;
    return [last, at];
  }

  chunk(n: number): Buffer {
    return this.chunks[n]!;
  }

  /** A record of chunk `n` has gone. */
  release(n: number): void {
    if (--this.live[n]! === 0 && n !== this.chunks.length - 1) this.drop(n);
  }

  private drop(n: number): void {
    const chunk = this.chunks[n]!;
    if (chunk.length === CHUNK_BYTES && this.spare.length < SPARE_CHUNKS) this.spare.push(chunk);
    this.chunks[n] = undefined;
  }

  clear(): void {
    this.chunks = [];
    this.live = [];
    this.spare = [];
    this.tail = 0;
  }
}
