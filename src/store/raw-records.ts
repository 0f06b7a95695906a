import fs from 'node:fs';
import type { IndexKey, StoredRecord } from './collection.js';
import { isRecord, StoreDamaged } from './files.js';
import { HeldChunks } from './held-chunks.js';

/**
 * Per collection, the names of the tests a snapshot's writer marked its records by (see
 * `Store.watch`): a marked record passed one of them when it was written.
 */
export type Marks = Readonly<Record<string, readonly string[]>>;

/** How a snapshot marks its records (see snapshot-file.ts). */
export interface SnapshotMarking {
  marks: Marks;
  /** Whether `record` of `collection` (one named in `marks`) passes one of its tests. */
  marked(collection: string, record: StoredRecord): boolean;
}

/** Index keys of a collection's records, per index, each record's by its position: index-keys.ts's KeyColumns (not imported: it imports this file). */
type KeptColumns = readonly (readonly unknown[])[];

/** A held record's index keys: its one index's key, or a list of them, one per index (see `hold`). */
export type HeldKeys = IndexKey | readonly IndexKey[];

/** A record as read from the snapshot, never parsed: written back to the next one as it is. */
export interface RawLine {
  readonly text: string;
  /**
   * When its bytes are held in memory (RawRecords.inMemory): how many, and a copy of them into
   * `target` at `at` (a snapshot is written without decoding them).
   */
  readonly byteLength?: number;
  copy?(target: Buffer, at: number): void;
  marked: boolean;
  /** Its place among its collection's records in the snapshot (see index-keys.ts). */
  position: number;
}

/** Bytes read from a record when it is first used: the records after it, often read next, come with it. */
const WINDOW = 64 * 1024;
/** Read when the record follows the last window: records read in order (an index built, a list, a stop). */
const SEQUENTIAL_WINDOW = 1024 * 1024;

/**
 * Records of a snapshot left in the file, each read and parsed on first use: a start on
 * 100,000 records then costs a scan for line ends and ids, not the parse of every record, the
 * garbage collection of what that builds, nor the memory of the file's text (see
 * docs/storage.md). The file stays open: a snapshot is replaced by renaming a new file over
 * it, never rewritten in place, so what this reads is what was scanned. A record is referred
 * to by its index here; the file is closed once every record kept is parsed or replaced.
 */
export class RawRecords {
  private fd: number | undefined;
  /** The records' bytes held in memory (an imported snapshot's: see `inMemory`), in place of the file. */
  private bytes: Buffer | undefined;
  /** Per collection, its records' index keys as found when they were checked (see `holdKeys`). */
  private readonly keys = new Map<string, KeptColumns>();
  private starts: Offsets;
  private ends: Offsets;
  private marks: Uint8Array;
  /** Each record's place among its collection's records in the file. */
  private positions: Uint32Array;
  private readonly ids: string[] = [];
  /** Records kept and not yet parsed or replaced. */
  private left = 0;
  /** Records held (`hold`): each one's chunk (-1: a record of the snapshot), and its index keys. */
  private chunkOf = new Int32Array(0);
  private keysOfHeld: (HeldKeys | undefined)[] = [];
  private readonly held = new HeldChunks();
  /** Indexes of held records gone, to use again: the lists stay as long as the records held at once. */
  private readonly free: number[] = [];
  /** The file's bytes last read: `window[0]` is at `windowStart`. */
  private window = Buffer.alloc(0);
  private windowStart = 0;
  private windowLength = 0;

  /** `size`: the file's, to size the lists (a record is rarely under 200 bytes), or `records`, how many there are. */
  constructor(
    fd: number,
    private readonly dir: string,
    size: number,
    records?: number,
  ) {
    this.fd = fd;
    const capacity = Math.max(1024, records ?? Math.ceil(size / 200));
    this.starts = offsets(capacity, size);
    this.ends = offsets(capacity, size);
    this.marks = new Uint8Array(capacity);
    this.positions = new Uint32Array(capacity);
    if (fd >= 0) this.window = Buffer.allocUnsafe(SEQUENTIAL_WINDOW);
  }

  /**
   * Records whose bytes are held in memory rather than in a file: those of a snapshot document
   * imported whole (src/control/snapshot-swap.ts), each checked and kept as it was received,
   * parsed on first use like those of a snapshot read at start. `bytes` is dropped once every
   * record kept is parsed or replaced.
   */
  static inMemory(bytes: Buffer, records: number): RawRecords {
    const raw = new RawRecords(-1, '', bytes.length, records);
    raw.fd = undefined;
    raw.bytes = bytes;
    return raw;
  }

  /** No snapshot's records: only those held as they are written (`hold`). */
  static empty(): RawRecords {
    const raw = new RawRecords(-1, '', 0, 0);
    raw.fd = undefined;
    return raw;
  }

  /** Keeps the record `id` at bytes [start, end) of the file, its collection's `position`th; returns its index. */
  add(id: string, start: number, end: number, marked: boolean, position: number): number {
    const index = this.ids.length;
    this.room(index);
    this.starts[index] = start;
    this.ends[index] = end;
    this.marks[index] = marked ? 1 : 0;
    this.positions[index] = position;
    this.ids.push(id);
    this.left++;
    return index;
  }

  /**
   * Holds the record `id`, just written, as a copy of its bytes `from[start, end)` (the journal's
   * line: Store.holdWhen), with its index keys (`keys`), so that its deletion needs no parse;
   * returns its index. Its position is none of the snapshot's, so keys and due times kept beside
   * the snapshot are never read for it: it is parsed for those (index-keys.ts).
   */
  hold(id: string, from: Buffer, start: number, end: number, marked: boolean, keys: HeldKeys | undefined): number {
    const index = this.free.pop() ?? this.ids.length;
    this.room(index);
    const [chunk, at] = this.held.copy(from, start, end);
    this.chunkOf[index] = chunk;
    this.starts[index] = at;
    this.ends[index] = at + end - start;
    this.marks[index] = marked ? 1 : 0;
    this.positions[index] = NO_POSITION;
    this.keysOfHeld[index] = keys;
    if (index === this.ids.length) this.ids.push(id);
    else this.ids[index] = id;
    return index;
  }

  /** Whether record `index` is one held as it was written (`hold`). */
  isHeld(index: number): boolean {
    return index < this.chunkOf.length && this.chunkOf[index]! >= 0;
  }

  /** A held record's index keys, as `hold` was given them. */
  keysHeld(index: number): HeldKeys | undefined {
    return this.keysOfHeld[index];
  }

  /** Room in the lists for record `index`. */
  private room(index: number): void {
    if (index >= this.starts.length) {
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
      this.marks = grown(this.marks);
      this.positions = grown(this.positions);
    }
    if (index >= this.chunkOf.length) {
      const bigger = new Int32Array(Math.max(1024, this.starts.length)).fill(-1);
      bigger.set(this.chunkOf);
      this.chunkOf = bigger;
    }
  }

  /**
   * Keeps a collection's index keys (per index, in its order, each record's by its position; null
   * for none), found as its records were checked: its indexes are then built without parsing
   * them, as from the keys kept beside a snapshot (index-keys.ts).
   */
  holdKeys(collection: string, columns: KeptColumns): void {
    this.keys.set(collection, columns);
  }

  /** The index keys held for a collection's records (see `holdKeys`). */
  heldKeys(collection: string): KeptColumns | undefined {
    return this.keys.get(collection);
  }

  id(index: number): string {
    return this.ids[index]!;
  }

  marked(index: number): boolean {
    return this.marks[index] === 1;
  }

  /**
   * Whether record `index` may pass its collection's tests: its mark, when that was made by this
   * version's tests (`trusted`: the snapshot's marks are; a held record's always are, made as it
   * was written), or true.
   */
  mayPass(index: number, trusted: boolean): boolean {
    return trusted || this.isHeld(index) ? this.marked(index) : true;
  }

  position(index: number): number {
    return this.positions[index]!;
  }

  /**
   * The record, parsed now. A record that is not JSON (the file was damaged after it was
   * written, where the cheap checks at start could not see it) is a StoreDamaged error, as it
   * would have been at start when every record was parsed there.
   */
  parse(index: number): StoredRecord {
    const record = this.read(index);
    this.forget(index);
    return record;
  }

  /** The record, parsed now and not counted as read: it stays in the file (see `parse`). */
  read(index: number): StoredRecord {
    const id = this.ids[index]!;
    const start = this.starts[index]!;
    let record: unknown;
    try {
      record = JSON.parse(this.text(index));
    } catch (error) {
      throw new StoreDamaged({ file: 'snapshot.json', offset: start, problem: `is not valid JSON (${(error as Error).message})` }, this.dir);
    }
    if (!isRecord(record) || record.id !== id)
      throw new StoreDamaged({ file: 'snapshot.json', offset: start, problem: `record "${id}" is not a record with that id` }, this.dir);
    // The id the scan read, which the collection's map holds as its key: the parse made a copy,
    // and an index built from this record would keep that second string (100,000 of them after a
    // restart on 100,000 records).
    (record as { id: string }).id = id;
    return record;
  }

  /** The record's line as read, for a snapshot written with it unparsed. */
  line(index: number): RawLine {
    const bytes = this.isHeld(index) ? this.held : this.bytes;
    if (bytes === undefined) return { text: this.text(index), marked: this.marked(index), position: this.position(index) };
    return new HeldLine(this, index, this.ends[index]! - this.starts[index]!);
  }

  /** Record `index` is parsed or replaced: once no record of the snapshot is left, the file is closed. */
  forget(index: number): void {
    if (this.isHeld(index)) {
      this.held.release(this.chunkOf[index]!);
      this.chunkOf[index] = -1;
      this.keysOfHeld[index] = undefined;
      this.ids[index] = '';
      this.free.push(index);
    } else if (--this.left === 0) this.closeFile();
  }

  /** The snapshot's file (or bytes) is no longer needed: the records held stay. */
  private closeFile(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    this.bytes = undefined;
  }

  /** Every record is dropped (the store is replaced or closed). */
  close(): void {
    this.closeFile();
    this.held.clear();
  }

  /** Copies the bytes held of record `index` into `target` at `at` (held, or RawRecords.inMemory). */
  copy(index: number, target: Buffer, at: number): void {
    if (this.isHeld(index)) this.held.chunk(this.chunkOf[index]!).copy(target, at, this.starts[index]!, this.ends[index]!);
    else this.bytes!.copy(target, at, this.starts[index]!, this.ends[index]!);
  }

  /** The record's text, read from the file or from the bytes held. */
  text(index: number): string {
    const start = this.starts[index]!;
    const end = this.ends[index]!;
    if (this.isHeld(index)) return this.held.chunk(this.chunkOf[index]!).toString('utf8', start, end);
    if (this.bytes !== undefined) return this.bytes.toString('utf8', start, end);
    if (this.fd === undefined) throw new Error('the snapshot file is closed');
    if (start < this.windowStart || end > this.windowStart + this.windowLength) {
      const inOrder = start >= this.windowStart + this.windowLength && start < this.windowStart + this.windowLength + WINDOW;
      const size = inOrder ? SEQUENTIAL_WINDOW : WINDOW;
      if (end - start > size) {
        const bytes = Buffer.allocUnsafe(end - start);
        readAt(this.fd, bytes, start);
        return bytes.toString('utf8');
      }
      this.windowStart = start;
      this.windowLength = readAt(this.fd, this.window.subarray(0, size), start);
    }
    return this.window.toString('utf8', start - this.windowStart, end - this.windowStart);
  }
}

/** A record's line whose bytes are held in memory: decoded only if its text is asked for. */
class HeldLine implements RawLine {
  marked: boolean;
  readonly position: number;

  constructor(
    private readonly raw: RawRecords,
    private readonly index: number,
    readonly byteLength: number,
  ) {
    this.marked = raw.marked(index);
    this.position = raw.position(index);
  }

  get text(): string {
    return this.raw.text(this.index);
  }

  copy(target: Buffer, at: number): void {
    this.raw.copy(this.index, target, at);
  }
}

/** The position of a held record: none of the snapshot's (see `RawRecords.hold`). */
const NO_POSITION = 0xffffffff;

/** A collection's records as a snapshot is written from them: those kept unparsed in `raw` as their lines. */
export function* linesOf(raw: RawRecords, list: readonly (StoredRecord | number)[]): IterableIterator<StoredRecord | RawLine> {
  for (let i = 0; i < list.length; i++) {
    const value = list[i]!;
    yield typeof value === 'number' ? raw.line(value) : value;
  }
}

/** Byte offsets into the file: 4 bytes each below 4 GiB (for 200,000 records, 2.3 MB less than 8). */
type Offsets = Uint32Array | Float64Array;

function offsets(capacity: number, fileSize: number): Offsets {
  return fileSize < 2 ** 32 ? new Uint32Array(capacity) : new Float64Array(capacity);
}

function grown<L extends Uint8Array | Uint32Array | Float64Array>(list: L): L {
  const bigger = new (list.constructor as new (length: number) => L)(list.length * 2);
  bigger.set(list);
  return bigger;
}

/** Fills `buffer` from `position` of the file, or up to its end; returns the bytes read. */
function readAt(fd: number, buffer: Buffer, position: number): number {
  let filled = 0;
  while (filled < buffer.length) {
    const read = fs.readSync(fd, buffer, filled, buffer.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}
