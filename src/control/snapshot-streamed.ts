import { isAscii, isUtf8 } from 'node:buffer';
import { MAX_DEPTH, rejectProtoKeys } from '../http/body.js';
import { BadRequest, type Unprocessable } from '../http/errors.js';
import { checkJsonText } from '../http/text.js';
import { readAsId } from '../store/snapshot-file.js';

/** How many records of a list `parseRange` is given at once by its callers (materialize, snapshot-swap.ts): 100 records a JSON.parse. */
export const PARSED_AT_ONCE = 100;

/** A collection's records in a streamed snapshot: spans `from` to `to` (excluded) of its bytes. */
export class SpanList {
  constructor(
    readonly name: string,
    readonly from: number,
    public to: number,
  ) {}
}

/** A refusal of the body found in a piece the parser read whole, and how many records came before it. */
interface Found {
  error: Unprocessable;
  at: number;
}

/**
 * The body of `POST /_payemu/snapshot?all=true` as snapshot-body.ts reads it when the import may
 * replace the whole store (snapshot-swap.ts): the document's small fields parsed, and each record
 * of `data` kept as the bytes it was sent as (`bytes`, record i at [starts[i], ends[i])), in
 * place of its parsed value, so that the records are parsed one at a time as they are checked
 * and dropped, and are written as they came. `data.<collection>` is a SpanList. `record`
 * parses one as the parser would have (400: not UTF-8, not JSON); `materialize` makes the
 * document the parser would have made, with its refusals, for any other import.
 */
export class StreamedSnapshot {
  /** Whether all the records' bytes are UTF-8 (then each one is: they start and end on ASCII), checked once. */
  private utf8: boolean | undefined;
  /** Whether they are all ASCII, checked once: then a piece is decoded as Latin-1, a copy of its bytes. */
  private ascii: boolean | undefined;
  /** Whether any record may hold an escape (`\u`) or a `__proto__` key, or a line break: looked for once in all their bytes. */
  private readonly escapes: boolean;
  private readonly protos: boolean;
  readonly lineBreaks: boolean;
  /** The first `__proto__` key and ill-formed string in a record, found by `record`. */
  private proto: Found | undefined;
  private surrogate: Found | undefined;

  constructor(
    readonly doc: Record<string, unknown>,
    readonly bytes: Buffer,
    readonly starts: readonly number[],
    readonly ends: readonly number[],
    /** Each SpanList in the order the body holds them (a collection named twice: both). */
    readonly lists: readonly SpanList[],
    /** The first of each found in the document's other fields, with how many records came before it. */
    private readonly docProto: Found | undefined,
    private readonly docSurrogate: Found | undefined,
    /** Whether the records hold a backslash at all (KeptRecords.backslashes): without one, none holds an escape. */
    backslashes = true,
  ) {
    const used = this.recordBytes();
    this.escapes = backslashes && used.includes('\\u');
    this.protos = used.includes('__proto__');
    this.lineBreaks = used.includes(0x0a) || used.includes(0x0d);
  }

  /** Every record's bytes: the buffer up to the last record's end. */
  private recordBytes(): Buffer {
    return this.bytes.subarray(0, this.ends.at(-1) ?? 0);
  }

  get count(): number {
    return this.starts.length;
  }

  /** The text of record `i`; a 400 when it is not UTF-8. */
  text(i: number): string {
    const start = this.starts[i]!;
    const end = this.ends[i]!;
    this.utf8 ??= isUtf8(this.recordBytes());
    if (!this.utf8 && !isUtf8(this.bytes.subarray(start, end))) throw new BadRequest('The request body is not valid UTF-8.');
    return this.bytes.toString('utf8', start, end);
  }

  /**
   * Records `from` to `to` (excluded) of `list`, each parsed as `record` parses it. Where no
   * record's text needs a look of its own (no escape, no `__proto__` anywhere in the records),
   * in one JSON.parse of their bytes as a list (a list's records stand in the body with commas
   * between them): a third less CPU than one parse each (100 records a call). A piece that does
   * not parse, or not into as many values (a value of the list that the parser kept apart),
   * is parsed again one record at a time, which finds the first refusal.
   */
  parseRange(list: SpanList, from: number, to: number): unknown[] {
    if (!this.escapes && !this.protos && to > from) {
      this.utf8 ??= isUtf8(this.recordBytes());
      if (this.utf8) {
        this.ascii ??= isAscii(this.recordBytes());
        let values: unknown;
        try {
          values = JSON.parse(`[${this.bytes.toString(this.ascii ? 'latin1' : 'utf8', this.starts[from]!, this.ends[to - 1]!)}]`);
        } catch {
          values = undefined;
        }
        if (Array.isArray(values) && values.length === to - from) return values;
      }
    }
    const values: unknown[] = [];
    for (let i = from; i < to; i++) values.push(this.record(i, list, this.text(i)));
    return values;
  }

  /**
   * Whether record `i`'s bytes hold a line break (which its line in a snapshot file cannot).
   * Searched in the record's bytes alone: a search from its start to the next break anywhere
   * would read on to the body's end for every record of one laid out a record a line.
   */
  hasLineBreak(i: number): boolean {
    if (!this.lineBreaks) return false;
    const record = this.bytes.subarray(this.starts[i]!, this.ends[i]!);
    return record.includes(0x0a) || record.includes(0x0d);
  }

  /** Whether record `i`'s bytes, as a line of a snapshot file, are read back under `id` (not so when "id" is named twice). */
  readAs(i: number, id: string): boolean {
    return readAsId(this.bytes, this.starts[i]!, this.ends[i]!, id);
  }

  /**
   * Record `i` of `list`, parsed from `text`: a 400 when it is not JSON; a `__proto__` key or a
   * string that is not well-formed is kept for `refusal` (a 422 answered once every record parsed).
   */
  record(i: number, list: SpanList, text: string): unknown {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new BadRequest(`The request body is not valid JSON: ${(error as Error).message}.`);
    }
    // A key can also spell `__proto__` with escapes; a lone surrogate can only come as an escape.
    const escapes = this.escapes && text.includes('\\u');
    if ((escapes || (this.protos && text.includes('__proto__'))) && (this.proto === undefined || this.surrogate === undefined)) {
      const path = `data.${list.name}.${i - list.from}`;
      this.proto ??= found(() => rejectProtoKeys(value, path), i);
      if (escapes) this.surrogate ??= found(() => checkJsonText(value, path), i);
    }
    return value;
  }

  /** The 422 the parser would answer once every record is parsed (`record`), first in the body; or undefined. */
  refusal(): Unprocessable | undefined {
    const first = (doc: Found | undefined, records: Found | undefined) =>
      doc !== undefined && (records === undefined || doc.at <= records.at) ? doc.error : records?.error;
    return first(this.docProto, this.proto) ?? first(this.docSurrogate, this.surrogate);
  }

  /** The first record that is not UTF-8 or not JSON, as its 400; or undefined. */
  badRecord(): BadRequest | undefined {
    for (const list of this.lists) {
      for (let i = list.from; i < list.to; i++) {
        try {
          JSON.parse(this.text(i));
        } catch (error) {
          return error instanceof BadRequest ? error : new BadRequest(`The request body is not valid JSON: ${(error as Error).message}.`);
        }
      }
    }
    return undefined;
  }

  /** The document the parser makes when it keeps every record parsed, with its refusals. */
  materialize(): Record<string, unknown> {
    const parsed = new Map<SpanList, unknown[]>();
    for (const list of this.lists) {
      const values: unknown[] = [];
      for (let i = list.from; i < list.to; i += PARSED_AT_ONCE) values.push(...this.parseRange(list, i, Math.min(i + PARSED_AT_ONCE, list.to)));
      parsed.set(list, values);
    }
    const refused = this.refusal();
    if (refused) throw refused;
    const data = this.doc.data as Record<string, unknown> | undefined;
    if (data !== null && typeof data === 'object' && !Array.isArray(data))
      for (const [name, value] of Object.entries(data)) if (value instanceof SpanList) define(data, name, parsed.get(value));
    return this.doc;
  }
}

/** What `check` refuses, at record `at`; or undefined. */
function found(check: () => void, at: number): Found | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return { error: error as Unprocessable, at };
  }
}

/** `object[key] = value` as JSON.parse sets it: an own property, even for `__proto__`. */
export function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** What a byte is to the scan of a record (KeptRecords.read): 0 for all but these. */
const [QUOTE, BACKSLASH, OPENING, CLOSING] = [1, 2, 3, 4];
const BYTE_KIND = new Uint8Array(256);
BYTE_KIND[0x22] = QUOTE;
BYTE_KIND[0x5c] = BACKSLASH;
BYTE_KIND[0x7b] = OPENING;
BYTE_KIND[0x5b] = OPENING;
BYTE_KIND[0x7d] = CLOSING;
BYTE_KIND[0x5d] = CLOSING;

/** What the parser expects next in a collection's list (snapshot-body.ts: its `Expect` there). */
type ListExpect = 'value' | 'valueOrClose' | 'commaOrClose';

/**
 * The records of a body kept as sent (snapshot-body.ts, for a StreamedSnapshot): their bytes in
 * one buffer, where each starts and ends, and each collection's list of them. `read` finds the
 * records as the chunks come, in one loop over the bytes.
 */
export class KeptRecords {
  bytes: Buffer;
  private length = 0;
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  readonly lists: SpanList[] = [];
  private spans: SpanList | undefined;
  /** Whether a record kept holds a backslash (an escape): found by the scan, so that the records need no search for `\\u` when none does. */
  backslashes = false;
  /** Inside a record, which starts at `recordStart` in `bytes`; the scan's state at the last chunk's end. */
  private inRecord = false;
  private recordStart = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** What comes next in the list, after `read`. */
  expect: ListExpect = 'valueOrClose';

  /**
   * `size`: the body's declared size (at most 128 MiB taken at once, as a declared size need not
   * be sent; more as it comes); `level`: how deep in the document a list's records stand.
   */
  constructor(
    size: number,
    private readonly level: number,
  ) {
    this.bytes = Buffer.allocUnsafe(Math.min(Math.max(size, 64 * 1024), 128 * 1024 * 1024));
  }

  /** A collection's list begins: its records are those kept from now on, until the next. */
  list(name: string): SpanList {
    this.spans = new SpanList(name, this.starts.length, this.starts.length);
    this.lists.push(this.spans);
    return this.spans;
  }

  /** A value of the list read whole by the parser (not an object): kept as it came. */
  keep(bytes: Buffer): void {
    if (bytes.includes(0x5c)) this.backslashes = true;
    this.reserve(bytes.length);
    bytes.copy(this.bytes, this.length);
    this.starts.push(this.length);
    this.length += bytes.length;
    this.ends.push(this.length);
    this.spans!.to++;
  }

  /**
   * Reads on from `from` for as long as what comes is records (objects), commas between them
   * and white space, in one loop over the bytes that finds each record's end by its brackets and
   * strings (as the parser's `scan` does, a record across chunks too), and copies the bytes read
   * at once; `expect` is what comes next. Anything else (the list's end, a value that is not an object,
   * a byte out of place) is left to the parser at the index returned. Whether each record is
   * JSON is for its parse (StreamedSnapshot.record).
   */
  read(chunk: Buffer, from: number, expect: ListExpect): number {
    const n = chunk.length;
    // Where chunk[i] goes in `bytes`: every byte read here is copied.
    const base = this.length - from;
    let inRecord = this.inRecord;
    let depth = inRecord ? this.depth : 0;
    let inString = inRecord && this.inString;
    let tooDeep = false;
    let i = from;
    // The byte after a backslash that ended the last chunk is its escape's.
    if (inRecord && this.escaped && i < n) i++;
    let escaped = false;
    outer: while (i < n) {
      if (inRecord) {
        // Inside a record, only quotes, backslashes in strings and brackets out of them matter
        // (BYTE_KIND): most bytes are passed over by one look-up.
        for (; i < n; i++) {
          const kind = BYTE_KIND[chunk[i]!]!;
          if (kind === 0) continue;
          if (kind === QUOTE) inString = !inString;
          else if (inString) {
            if (kind === BACKSLASH) {
              this.backslashes = true;
              if (++i === n) escaped = true;
            }
          } else if (kind === OPENING) {
            if (++depth + this.level > MAX_DEPTH) {
              tooDeep = true;
              break outer;
            }
          } else if (kind === CLOSING && --depth === 0) {
            this.starts.push(this.recordStart);
            this.ends.push(base + i + 1);
            this.spans!.to++;
            inRecord = false;
            expect = 'commaOrClose';
            i++;
            continue outer;
          }
        }
        break;
      }
      const c = chunk[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else if (c === 0x2c && expect === 'commaOrClose') {
        expect = 'value';
        i++;
      } else if (c === 0x7b && (expect === 'value' || expect === 'valueOrClose')) {
        inRecord = true;
        depth = 1;
        this.recordStart = base + i;
        i++;
      } else break;
    }
    const end = Math.min(i, n);
    this.reserve(end - from);
    chunk.copy(this.bytes, this.length, from, end);
    this.length += end - from;
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.inRecord = inRecord;
    this.expect = expect;
    if (tooDeep) throw new BadRequest(`The request body is nested too deeply: more than ${MAX_DEPTH} levels.`);
    return end;
  }

  /** Room for `more` bytes. */
  private reserve(more: number): void {
    const end = this.length + more;
    if (end <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(end, this.bytes.length * 2));
    this.bytes.copy(bigger, 0, 0, this.length);
    this.bytes = bigger;
  }
}
