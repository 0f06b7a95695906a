import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { RouteApp } from '../http/http-app.js';
import { BODY_LIMIT, isJsonType, MAX_DEPTH, parseJsonBody, readJson, rejectProtoKeys } from '../http/body.js';
import { BadRequest, PayloadTooLarge, type Unprocessable } from '../http/errors.js';
import { moreOpenings, nestedDeeperThan } from '../http/json-depth.js';
import { checkJsonText } from '../http/text.js';
import { define, KeptRecords, StreamedSnapshot } from './snapshot-streamed.js';

/**
 * The body of `POST /_payemu/snapshot`, read as it arrives and never held as one text: the
 * document's small fields each whole, each record of `data.<collection>` on its own (an import
 * of everything keeps the records' bytes, StreamedSnapshot; any other, the records parsed). A
 * scan of the bytes finds where each piece ends (brackets and strings, as json-depth.ts reads
 * text); JSON.parse reads it. The answers are readJson's (body.ts): 400 for bytes that are not
 * UTF-8, JSON that does not parse (its message read from the piece that does not) or nests more
 * than MAX_DEPTH levels, 422 for a `__proto__` key or a string that is not well-formed, 413 over
 * the limit, 415 for a body not declared as JSON; the whole body is read before a refusal is
 * sent. A body that is not an object is read whole and parsed as readJson does.
 */
export function readSnapshotBody(req: IncomingMessage, limit = BODY_LIMIT, app?: RouteApp): Promise<unknown> {
  // What is refused before the body is read, or not JSON at all: readJson's own answers.
  if (!isJsonType(req.headers['content-type']) || Number(req.headers['content-length']) > limit || req.destroyed) return readJson(req, limit);
  // An import of everything may replace the store as a start reads a snapshot (snapshot-swap.ts):
  // its records are kept as sent. With an Idempotency-Key the body is read as any, to be fingerprinted.
  const all = /[?&]all=true(&|$)/.test(req.url ?? '') && req.headers['idempotency-key'] === undefined;
  // A compaction running is stopped now, not at the swap, so as not to share the cores with the
  // reading of the body (a refused body leaves its segment to the next compaction).
  if (all) void app?.store.stopCompaction();
  return new Promise((resolve, reject) => {
    const parser = new SnapshotParser(all ? { keep: Number(req.headers['content-length']) || 0 } : undefined);
    // A record not read yet, before the refusal, that the parser would have refused first.
    const first = (error: unknown) => parser.badRecord() ?? error;
    let size = 0;
    let failed = false;
    let refusal: unknown;
    req.on('data', (chunk: Buffer) => {
      if (failed || refusal !== undefined) return;
      size += chunk.length;
      if (size > limit) {
        refusal = parser.badRecord();
        if (refusal !== undefined) return;
        failed = true;
        reject(new PayloadTooLarge(limit));
        return;
      }
      try {
        parser.feed(chunk);
      } catch (error) {
        // Answered once the body is read, as readJson answers.
        refusal = first(error);
      }
    });
    req.on('end', () => {
      if (failed) return;
      if (refusal !== undefined) return reject(refusal);
      try {
        resolve(parser.end());
      } catch (error) {
        reject(first(error));
      }
    });
    req.on('error', (error) => failed || reject(new BadRequest(`The request body could not be read: ${error.message}`)));
    req.on('close', () => failed || req.readableEnded || reject(new BadRequest('The request body could not be read: the connection was closed.')));
  });
}

/** What comes next in the text. */
type Expect = 'open' | 'key' | 'keyOrClose' | 'colon' | 'value' | 'valueOrClose' | 'commaOrClose' | 'done';

const DOCUMENT = 1;
const DATA = 2;
const LIST = 3;
const BETWEEN_RECORDS = Buffer.from('},{');
const LAST_RECORD = Buffer.from('}]');

/**
 * The scanner: the document (level DOCUMENT), its `data` (DATA) and each collection's list
 * (LIST) are walked here; any other value (a key, a field of the document, a record) is a piece,
 * scanned to its end across chunks and then parsed.
 */
export class SnapshotParser {
  private expect: Expect = 'open';
  private level = 0;
  private doc: Record<string, unknown> | undefined;
  private data: Record<string, unknown> | undefined;
  private list: unknown[] | undefined;
  /** The key of the document's field, and of the data's collection, whose value comes next. */
  private key = '';
  private collection = '';
  /** Bytes before the chunk being read (positions in the messages). */
  private offset = 0;
  /** The piece being scanned: whether it is a key, where it starts in this chunk, its parts from earlier chunks, and the scan's state. */
  private inPiece = false;
  private pieceIsKey = false;
  private pieceStart = 0;
  private parts: Buffer[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  private primitive = false;
  /** The chunk `record` searched, and where the next `},{` and `}]` stand in it (-1: none; -2: not searched). */
  private searched: Buffer | undefined;
  private betweenAt = -2;
  private lastAt = -2;
  /** A body that is not an object, read whole. */
  private whole: Buffer[] | undefined;
  /** The first `__proto__` key and the first ill-formed string: readJson refuses the first before the second, once all parsed. */
  private proto: Unprocessable | undefined;
  private surrogate: Unprocessable | undefined;
  /** With `keep`: each record's bytes, kept unparsed (see StreamedSnapshot). */
  private kept: KeptRecords | undefined;
  /** When `kept`: the first `__proto__` key and ill-formed string of the other fields, with the records before them. */
  private docProto: { error: Unprocessable; at: number } | undefined;
  private docSurrogate: { error: Unprocessable; at: number } | undefined;

  /** `keep`: keep each record's bytes rather than parse it (the body's declared size: see KeptRecords). */
  constructor(options?: { keep: number }) {
    if (options) this.kept = new KeptRecords(options.keep, LIST);
  }

  /** The first record kept that the parser would have refused (400); undefined when none is, or none is kept. */
  badRecord(): BadRequest | undefined {
    return this.kept ? this.streamed().badRecord() : undefined;
  }

  private streamed(): StreamedSnapshot {
    const { bytes, starts, ends, lists, backslashes } = this.kept!;
    return new StreamedSnapshot(this.doc ?? {}, bytes, starts, ends, lists, this.docProto, this.docSurrogate, backslashes);
  }

  feed(chunk: Buffer): void {
    if (this.whole) {
      this.whole.push(chunk);
      return;
    }
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.kept && this.level === LIST && !this.inPiece) {
        // Only ever in a list's values: `structure` reads its opening and its end.
        i = this.kept.read(chunk, i, this.expect as 'value' | 'valueOrClose' | 'commaOrClose');
        this.expect = this.kept.expect;
        if (i === n) break;
      }
      if (this.inPiece) {
        const end = this.scan(chunk, i);
        if (end === -1) {
          this.parts.push(chunk.subarray(this.pieceStart));
          this.pieceStart = 0;
          break;
        }
        const bytes = this.parts.length === 0 ? chunk.subarray(this.pieceStart, end) : Buffer.concat([...this.parts, chunk.subarray(0, end)]);
        this.parts = [];
        this.inPiece = false;
        this.finish(bytes);
        i = end;
        continue;
      }
      const c = chunk[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      if (this.expect === 'open') {
        if (c !== 0x7b) {
          // Not an object: readJson's way, whole.
          this.whole = [chunk.subarray(i)];
          return;
        }
        this.doc = {};
        this.level = DOCUMENT;
        this.expect = 'keyOrClose';
        i++;
        continue;
      }
      i = this.structure(chunk, i, c);
    }
    this.offset += n;
  }

  /** The document, once the body has ended. */
  end(): unknown {
    if (this.whole) return parseJsonBody(Buffer.concat(this.whole));
    // Nothing but white space: no body, as readJson answers.
    if (this.expect === 'open') return undefined;
    if (this.inPiece || this.expect !== 'done') throw new BadRequest('The request body is not valid JSON: Unexpected end of JSON input.');
    if (this.kept) return this.streamed();
    if (this.proto ?? this.surrogate) throw this.proto ?? this.surrogate;
    return this.doc;
  }

  /** Reads the structural character `c` at `i` (not in a piece); answers where to go on. */
  private structure(chunk: Buffer, i: number, c: number): number {
    switch (this.expect) {
      case 'keyOrClose':
      case 'key':
        if (c === 0x22) return this.start(chunk, i, true);
        if (c === 0x7d && this.expect === 'keyOrClose') return this.close(i);
        break;
      case 'colon':
        if (c === 0x3a) {
          this.expect = 'value';
          return i + 1;
        }
        break;
      case 'valueOrClose':
      case 'value':
        if (c === 0x5d && this.expect === 'valueOrClose') return this.close(i);
        if (c === 0x2c || c === 0x3a || c === 0x7d || c === 0x5d) break;
        if (this.level === DOCUMENT && c === 0x7b && this.key === 'data') {
          this.data = {};
          define(this.doc!, 'data', this.data);
          this.level = DATA;
          this.expect = 'keyOrClose';
          return i + 1;
        }
        if (this.level === DATA && c === 0x5b) {
          this.list = [];
          define(this.data!, this.collection, this.kept ? this.kept.list(this.collection) : this.list);
          this.level = LIST;
          this.expect = 'valueOrClose';
          return i + 1;
        }
        return this.start(chunk, i, false);
      case 'commaOrClose':
        if (c === 0x2c) {
          this.expect = this.level === LIST ? 'value' : 'key';
          return i + 1;
        }
        if (c === (this.level === LIST ? 0x5d : 0x7d)) return this.close(i);
        break;
      default:
        break;
    }
    throw new BadRequest(
      `The request body is not valid JSON: Unexpected token '${String.fromCharCode(c)}' at position ${this.offset + i}${this.expect === 'done' ? ' (after the JSON)' : ''}.`,
    );
  }

  private close(i: number): number {
    this.level--;
    this.expect = this.level === 0 ? 'done' : 'commaOrClose';
    return i + 1;
  }

  private start(chunk: Buffer, i: number, key: boolean): number {
    this.inPiece = true;
    this.pieceIsKey = key;
    this.pieceStart = i;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    const c = chunk[i]!;
    this.primitive = c !== 0x22 && c !== 0x7b && c !== 0x5b;
    if (this.level === LIST && c === 0x7b && !this.kept) {
      const end = this.record(chunk, i);
      if (end !== -1) {
        this.inPiece = false;
        return end;
      }
    }
    return i;
  }

  /**
   * A record read without scanning its bytes: it ends, as a rule, at the first `},{` after its
   * start (or `}]`, the last of its list), and JSON.parse says whether that is its end. A text
   * cut inside a string or inside a nested object does not parse, so a record that parses is the
   * whole record. Otherwise (a `},{` inside the record, white space between records, a record
   * that is not JSON, or its end in a later chunk): -1, and the scan finds its end.
   */
  private record(chunk: Buffer, i: number): number {
    // Each search's answer is kept for the chunk: the first `},{` at or after a point is the same
    // from any point before it, and none after a point means none after any later one (a document
    // laid out with white space has none: each record would search the rest of its chunk).
    if (this.searched !== chunk) {
      this.searched = chunk;
      this.betweenAt = -2;
      this.lastAt = -2;
    }
    if (this.betweenAt !== -1 && this.betweenAt < i) this.betweenAt = chunk.indexOf(BETWEEN_RECORDS, i);
    let at = this.betweenAt;
    if (at === -1) {
      if (this.lastAt !== -1 && this.lastAt < i) this.lastAt = chunk.indexOf(LAST_RECORD, i);
      at = this.lastAt;
    }
    if (at === -1) return -1;
    const bytes = chunk.subarray(i, at + 1);
    if (!isUtf8(bytes)) return -1;
    const text = bytes.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return -1;
    }
    // Deeper than MAX_DEPTH can only be with more brackets than that: the scan decides.
    if (moreOpenings(text, MAX_DEPTH - LIST) && nestedDeeperThan(text, MAX_DEPTH - LIST)) return -1;
    this.place(text, value);
    return at + 1;
  }

  /** Scans the piece on from `i`: the index after its end, or -1 when the chunk ends first (the state kept). */
  private scan(chunk: Buffer, from: number): number {
    const n = chunk.length;
    if (this.primitive) {
      for (let i = from; i < n; i++) {
        const c = chunk[i]!;
        if (c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return i;
      }
      return -1;
    }
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let i = from;
    for (; i < n; i++) {
      const c = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (depth === 0) return i + 1;
        }
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        if (++depth + this.level > MAX_DEPTH) throw new BadRequest(`The request body is nested too deeply: more than ${MAX_DEPTH} levels.`);
      } else if (c === 0x7d || c === 0x5d) {
        if (--depth === 0) return i + 1;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return -1;
  }

  /** Parses a piece and puts it where it belongs. */
  private finish(bytes: Buffer): void {
    if (this.kept && this.level === LIST) {
      this.kept.keep(bytes);
      this.expect = 'commaOrClose';
      return;
    }
    if (!isUtf8(bytes)) throw new BadRequest('The request body is not valid UTF-8.');
    const text = bytes.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new BadRequest(`The request body is not valid JSON: ${(error as Error).message}.`);
    }
    this.place(text, value);
  }

  /** With records kept: where in them a refusal of the other fields was first found. */
  private noteFound(): void {
    if (!this.kept) return;
    if (this.proto) this.docProto ??= { error: this.proto, at: this.kept.starts.length };
    if (this.surrogate) this.docSurrogate ??= { error: this.surrogate, at: this.kept.starts.length };
  }

  /** Puts a value parsed from `text` where it belongs. */
  private place(text: string, value: unknown): void {
    if (this.pieceIsKey) {
      const key = value as string;
      if (key === '__proto__') this.proto ??= unprocessable(() => rejectProtoKeys({ ['__proto__']: null }, this.level === DOCUMENT ? '' : 'data'));
      else if (!key.isWellFormed()) this.surrogate ??= unprocessable(() => checkJsonText({ [key]: null }, this.level === DOCUMENT ? '' : 'data'));
      this.noteFound();
      if (this.level === DOCUMENT) this.key = key;
      else this.collection = key;
      this.expect = 'colon';
      return;
    }
    // A key can also spell `__proto__` with escapes; a lone surrogate can only come as an escape.
    const escapes = text.includes('\\u');
    if (escapes || text.includes('__proto__')) {
      const path = this.level === DOCUMENT ? this.key : this.level === DATA ? `data.${this.collection}` : `data.${this.collection}.${this.list!.length}`;
      this.proto ??= unprocessable(() => rejectProtoKeys(value, path));
      if (escapes) this.surrogate ??= unprocessable(() => checkJsonText(value, path));
      this.noteFound();
    }
    if (this.level === DOCUMENT) define(this.doc!, this.key, value);
    else if (this.level === DATA) define(this.data!, this.collection, value);
    else this.list!.push(value);
    this.expect = 'commaOrClose';
  }
}

/** What `check` refuses, or undefined. */
function unprocessable(check: () => void): Unprocessable | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return error as Unprocessable;
  }
}
