/**
 * JSON written straight into a buffer as UTF-8: the bytes `JSON.stringify` of the same value
 * would encode to, without the string in between. The journal writes every change of every
 * transaction (a year of daily billing: six for each of 365,000 charges); with `JSON.stringify`
 * each record was a string built character by character, then encoded into the line's buffer,
 * then left to the garbage collector. Here plain ASCII is copied byte by byte as it is checked,
 * a safe integer's digits are written without making a string (a timestamp's `toString` is a
 * double's, and costs about ten times more), and anything else, rare in stored records (a string
 * that needs escaping or is not ASCII, a fraction), goes through `JSON.stringify` or `String`.
 *
 * Only plain data is written here: objects whose prototype is Object's (or none), arrays,
 * strings, numbers, booleans, null, and `undefined` where JSON drops it. A value of any other
 * kind (a Date, a Map, a function, a `toJSON`, a BigInt, a cycle) throws `NotPlain`, for the
 * caller to write the whole entry with `JSON.stringify`, whose answer for it (or whose error)
 * then stands.
 */
export class NotPlain extends Error {}

/**
 * Writes `s` quoted at `b[at]` when it is printable ASCII but the quote and the backslash (each
 * character its own byte), and returns where it ends; -1 otherwise, for the caller to write it as
 * `JSON.stringify` does. The caller has made room for `s.length + 2` bytes.
 */
function quoted(b: Buffer, at: number, s: string): number {
  b[at++] = 0x22; // "
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) b[at++] = c;
    else return -1;
  }
  b[at++] = 0x22;
  return at;
}

/** Deeper than this, a value is handed to `JSON.stringify` (a cycle: its TypeError). */
const MAX_DEPTH = 200;

/**
 * Writes a safe integer's decimal digits at `b[at]` (-0 is `0`, as JSON writes it) and returns
 * where they end; the caller has made room for 17 bytes. Written as two halves of at most 8
 * digits each, in 32-bit arithmetic: a timestamp's 13 digits cost 26 divisions of doubles
 * otherwise.
 */
function integerAt(b: Buffer, at: number, v: number): number {
  if (v < 0) {
    b[at++] = 0x2d; // -
    v = -v;
  }
  if (v < 1e8) return digitsAt(b, at, v | 0, 0);
  // Up to 2^53: the high part is below 2^31, the low one below 10^8.
  const high = Math.floor(v / 1e8);
  return digitsAt(b, digitsAt(b, at, high, 0), (v - high * 1e8) | 0, 8);
}

/** Writes the digits of `n` (below 2^31), zero-padded to `width`, at `b[at]`; returns where they end. */
function digitsAt(b: Buffer, at: number, n: number, width: number): number {
  let count = 1;
  for (let rest = n; rest >= 10; rest = (rest / 10) | 0) count++;
  if (count < width) count = width;
  const end = at + count;
  let i = end;
  while (i > at) {
    const rest = (n / 10) | 0;
    b[--i] = 0x30 + (n - rest * 10);
    n = rest;
  }
  return end;
}

export class JsonBytes {
  /** The bytes written so far are `buffer[0, length)`. */
  buffer: Buffer;
  length = 0;
  /** The last fractional number written, and its text: a batch writes the same amount many times. */
  private lastNumber = Number.NaN;
  private lastText = '';

  constructor(size = 64 * 1024) {
    this.buffer = Buffer.allocUnsafe(size);
  }

  /** Room for `more` bytes past `length`. */
  reserve(more: number): void {
    const need = this.length + more;
    if (need <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(need, this.buffer.length * 2));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }

  /** One ASCII byte (punctuation). */
  byte(code: number): void {
    if (this.length >= this.buffer.length) this.reserve(1);
    this.buffer[this.length++] = code;
  }

  /** Text that is already JSON, as UTF-8. */
  raw(text: string): void {
    this.reserve(text.length * 3);
    this.length += this.buffer.write(text, this.length);
  }

  /**
   * An ASCII word (`null`, `true`, `false`), byte by byte: `raw` goes through `Buffer#write`,
   * whose checks of its arguments cost more than the write (every event record holds a null).
   */
  word(text: string): void {
    this.reserve(text.length);
    const b = this.buffer;
    let at = this.length;
    for (let i = 0; i < text.length; i++) b[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** A string as a JSON string. */
  string(s: string): void {
    this.reserve(s.length + 2);
    const end = quoted(this.buffer, this.length, s);
    // Escapes, other characters, lone surrogates: as JSON.stringify writes them.
    if (end === -1) this.raw(JSON.stringify(s));
    else this.length = end;
  }

  number(v: number): void {
    if (Number.isSafeInteger(v)) {
      this.integer(v);
      return;
    }
    if (v !== this.lastNumber) {
      this.lastNumber = v;
      // NaN and the infinities are null in JSON; anything else is its shortest text, as String gives.
      this.lastText = Number.isFinite(v) ? String(v) : 'null';
    }
    const text = this.lastText;
    this.reserve(text.length);
    const b = this.buffer;
    let at = this.length;
    for (let i = 0; i < text.length; i++) b[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** A safe integer's digits (see `integerAt`). */
  private integer(v: number): void {
    this.reserve(17);
    this.length = integerAt(this.buffer, this.length, v);
  }

  /** Any plain value (see the class comment); `undefined` here (in an array) is `null`, as JSON writes it. */
  value(v: unknown, depth = 0): void {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        this.number(v);
        return;
      case 'boolean':
        this.word(v ? 'true' : 'false');
        return;
      case 'undefined':
        this.word('null');
        return;
      case 'object':
        if (v === null) this.word('null');
        else if (Array.isArray(v)) this.array(v, depth + 1);
        else this.object(v as Record<string, unknown>, depth + 1);
        return;
      default:
        throw new NotPlain();
    }
  }

  /**
   * A plain object: its own fields in their order, those holding `undefined` left out. Each
   * field's name and a string value are written here, with one check of the room left, rather
   * than through `byte`, `string` and `value` (a journal line is about 70 fields a charge of a
   * year's billing: 0.92 of the time the calls took, the same bytes).
   */
  object(o: Record<string, unknown>, depth = 0): void {
    if (depth > MAX_DEPTH) throw new NotPlain();
    const proto = Object.getPrototypeOf(o) as unknown;
    if ((proto !== Object.prototype && proto !== null) || typeof o.toJSON === 'function') throw new NotPlain();
    this.byte(0x7b); // {
    let first = true;
    for (const key in o) {
      const v = o[key];
      if (v === undefined) continue;
      // Room for the comma, the quoted name, the colon and a short value.
      let at = this.length;
      if (at + key.length + 32 > this.buffer.length) this.reserve(key.length + 32);
      const b = this.buffer;
      if (!first) b[at++] = 0x2c; // ,
      first = false;
      const end = quoted(b, at, key);
      if (end === -1) {
        this.length = at;
        this.raw(JSON.stringify(key));
        this.byte(0x3a);
      } else {
        b[end] = 0x3a; // :
        this.length = end + 1;
      }
      if (typeof v === 'string') {
        at = this.length;
        if (at + v.length + 2 > this.buffer.length) this.reserve(v.length + 2);
        const done = quoted(this.buffer, at, v);
        if (done === -1) this.raw(JSON.stringify(v));
        else this.length = done;
      } else if (typeof v === 'number' && Number.isSafeInteger(v)) {
        // An id, an amount, a timestamp: its digits in place too.
        if (this.length + 17 > this.buffer.length) this.reserve(17);
        this.length = integerAt(this.buffer, this.length, v);
      } else this.value(v, depth);
    }
    this.byte(0x7d); // }
  }

  array(a: readonly unknown[], depth = 0): void {
    if (depth > MAX_DEPTH || Object.getPrototypeOf(a) !== Array.prototype) throw new NotPlain();
    this.byte(0x5b); // [
    for (let i = 0; i < a.length; i++) {
      if (i > 0) this.byte(0x2c);
      this.value(a[i], depth);
    }
    this.byte(0x5d); // ]
  }
}
