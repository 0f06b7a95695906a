/**
 * Amounts are judged on the number as the JSON text writes it, not on the double JSON.parse
 * makes of it: `0.3000000000000000001` parses to 0.3, and `1.005` to a double a float test can
 * only judge with a tolerance. The exact value a literal denotes must have at most two decimal
 * places (trailing zeros add none: `12.500` is 12.5; `1.0e-2` is 0.01).
 *
 * `noteWrittenNumbers(value, text)` (the request body, once parsed) keeps the text of a body that
 * may hold such a literal; the `money` keyword asks `writtenLiteral(parent, key, root)` (see
 * lib/schemas.ts), whose first question about a body scans its text once for the literals whose
 * exact value has more than two decimals, and remembers each by the object or array that holds
 * it and its key there. Nothing is copied or marked on the body itself, and a body without such
 * a literal costs a look at each `.` and `-` of its text (mayHaveLooseLiteral).
 */

type Key = string | number;

/** The literals with more than two decimals, by the object or array that holds them and their key. */
const written = new WeakMap<object, Map<Key, string>>();
/** The texts of the bodies that may hold such a literal, not scanned yet. */
const texts = new WeakMap<object, string>();
/** Until a body may have such a literal, the money keyword's question needs no look-up. */
let anyText = false;

/**
 * Whether `text` may hold a number literal with more than two decimals: three fraction digits or
 * more, or a negative exponent, with a delimiter after it (`,`, `}`, `]`, or white space first),
 * so that a timestamp's `00:00.000Z` in a string does not count. A string that does only costs
 * the scan, which decides. Its candidates are found by the `.` and `-` of the text (indexOf,
 * which finds one character much faster than a regular expression scans: one over the whole
 * text cost a third of what JSON.parse does).
 */
export function mayHaveLooseLiteral(text: string): boolean {
  for (let dot = text.indexOf('.'); dot >= 0; dot = text.indexOf('.', dot + 1)) {
    if (!isDigit(text.charCodeAt(dot - 1))) continue;
    let end = dot + 1;
    while (isDigit(text.charCodeAt(end))) end++;
    if (end - dot > 3 && endsLiteral(text, end)) return true;
  }
  // A negative exponent: `-` after a digit's `e` or `E`, a digit after it.
  for (let dash = text.indexOf('-'); dash >= 0; dash = text.indexOf('-', dash + 1)) {
    const e = text.charCodeAt(dash - 1) | 0x20;
    if (e !== 0x65 || !isDigit(text.charCodeAt(dash - 2)) || !isDigit(text.charCodeAt(dash + 1))) continue;
    let end = dash + 2;
    while (isDigit(text.charCodeAt(end))) end++;
    if (endsLiteral(text, end)) return true;
  }
  return false;
}

/** Whether the number's digits ending before `end` are a literal: an exponent, or a delimiter next. */
function endsLiteral(text: string, end: number): boolean {
  let c = text.charCodeAt(end);
  if (c === 0x65 || c === 0x45) return true; // an exponent: let the scan decide
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++end);
  return c === 0x2c || c === 0x7d || c === 0x5d || Number.isNaN(c);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The decimal places of the exact value a JSON number literal denotes (trailing zeros are not places). */
export function decimalPlaces(literal: string): number {
  const e = literal.search(/[eE]/);
  let mantissa = e < 0 ? literal : literal.slice(0, e);
  if (mantissa.charCodeAt(0) === 0x2d) mantissa = mantissa.slice(1);
  const exponent = e < 0 ? 0 : Number(literal.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  if (!/[1-9]/.test(digits)) return 0; // a zero, however written
  const fraction = dot < 0 ? 0 : mantissa.length - dot - 1;
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  // An exponent of hundreds of digits is an infinity here: places without end, or none.
  return Math.max(0, fraction - (digits.length - end) - exponent);
}

/** A number literal of the text with more than two decimals: where it is, and how it is written. */
export interface LooseLiteral {
  /** Keys and array indexes from the top, decoded as JSON.parse decodes them. */
  path: Key[];
  literal: string;
}

/**
 * The number literals of `text`, valid JSON, whose exact value has more than two decimals. A
 * key given twice is its last value's, as JSON.parse keeps it: a later literal at the same path
 * replaces the verdict of an earlier one. One pass over the text; a key is decoded only for the
 * path of such a literal, and of a later one under the same last key (for the duplicates).
 */
export function looseLiterals(text: string): LooseLiteral[] {
  // One frame per open object or array: the position of the current key's opening quote (an
  // object), or -1 and the current index (an array).
  const keyAt: number[] = [];
  const index: number[] = [];
  // The frames' keys once decoded, and their paths as text up to them (each kept for all the
  // literals under the frame, until its key or index moves on).
  const keys: (string | undefined)[] = [];
  const prefixes: (string | undefined)[] = [];
  let expectKey = false;
  const key = (k: number): Key => (keyAt[k]! < 0 ? index[k]! : (keys[k] ??= keyText(text, keyAt[k]!)));
  const pathHere = (): Key[] => keyAt.map((_, k) => key(k));
  // Keys as JSON strings, indexes as digits: "0" and 0, or "a.b" and a, b, stay apart.
  const prefix = (k: number): string => (prefixes[k] ??= `${k > 0 ? prefix(k - 1) : ''},${JSON.stringify(key(k))}`);
  // By the path's text; and the last keys of the loose literals' paths so far.
  let verdicts: Map<string, LooseLiteral | null> | undefined;
  let lastKeys: Set<Key> | undefined;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      if (expectKey) {
        keyAt[keyAt.length - 1] = i;
        keys[keys.length - 1] = undefined;
        prefixes[prefixes.length - 1] = undefined;
        expectKey = false;
      }
      const end = closingQuote(text, i);
      if (end < 0) break; // not JSON: never, once JSON.parse took it
      i = end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      const array = c === 0x5b;
      keyAt.push(array ? -1 : 0);
      index.push(0);
      keys.push(undefined);
      prefixes.push(undefined);
      expectKey = !array;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      keyAt.pop();
      index.pop();
      keys.pop();
      prefixes.pop();
      expectKey = false;
      i++;
    } else if (c === 0x2c) {
      const array = keyAt[keyAt.length - 1]! < 0;
      if (array) {
        index[index.length - 1]!++;
        prefixes[prefixes.length - 1] = undefined;
      }
      expectKey = !array;
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      let dot = -1;
      let exponent = false;
      for (let d = text.charCodeAt(end); end < n && isNumberChar(d); d = text.charCodeAt(++end)) {
        if (d === 0x2e) dot = end;
        else if (d === 0x65 || d === 0x45) exponent = true;
      }
      // Without an exponent, two fraction digits at most are two decimals at most.
      const loose = (exponent || (dot >= 0 && end - dot > 3)) && decimalPlaces(text.slice(i, end)) > 2;
      // A fine literal can only replace the verdict of a loose one with the same last key.
      const top = keyAt.length - 1;
      if (loose || (lastKeys && top >= 0 && lastKeys.has(key(top)))) {
        (verdicts ??= new Map()).set(top >= 0 ? prefix(top) : '', loose ? { path: pathHere(), literal: text.slice(i, end) } : null);
        if (loose && top >= 0) (lastKeys ??= new Set()).add(key(top));
      }
      i = end;
    } else {
      i++; // whitespace, `:`, and the letters of true, false and null
    }
  }
  return verdicts ? [...verdicts.values()].filter((found): found is LooseLiteral => found !== null) : [];
}

/** The position of the quote that closes the string opened at `open`: the first not escaped by an odd run of backslashes. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end > 0 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
  return end;
}

/** The key whose string opens at `open`, decoded as JSON.parse decodes it. */
function keyText(text: string, open: number): string {
  const end = closingQuote(text, open);
  const raw = text.slice(open + 1, end);
  return raw.includes('\\') ? (JSON.parse(text.slice(open, end + 1)) as string) : raw;
}

/**
 * Keeps the text of the body `value` for `writtenLiteral`, if it may hold a number literal with
 * more than two decimals (mayHaveLooseLiteral). The text is scanned only when a question about
 * this body comes (a `money` field validated, a trigger's data), once: a body no such question
 * is asked about (a snapshot import whose tax rates have three decimals) costs no scan.
 */
export function noteWrittenNumbers(value: unknown, text: string): void {
  if (value === null || typeof value !== 'object' || !mayHaveLooseLiteral(text)) return;
  texts.set(value, text);
  anyText = true;
}

/**
 * The text of the number at `parent[key]`, inside the body `root`, if the body's text wrote it
 * with more than two decimals; undefined otherwise, and for data that did not come from a text.
 */
export function writtenLiteral(parent: unknown, key: unknown, root: unknown): string | undefined {
  if (!anyText || parent === null || typeof parent !== 'object') return undefined;
  if (root !== null && typeof root === 'object') {
    const text = texts.get(root);
    if (text !== undefined) {
      texts.delete(root);
      remember(root, text);
    }
  }
  return written.get(parent)?.get(key as Key);
}

/**
 * Remembers the loose literals of `text` (looseLiterals) by their parent in `value`, the body
 * parsed from it, if the value there is a number still (a later duplicate of a key on its path
 * may have put something else there).
 */
function remember(value: object, text: string): void {
  for (const { path, literal } of looseLiterals(text)) {
    let parent: unknown = value;
    for (let k = 0; k < path.length - 1 && parent !== undefined; k++) parent = child(parent, path[k]!);
    const key = path[path.length - 1];
    if (key === undefined || parent === undefined || typeof child(parent, key) !== 'number') continue;
    const holder = parent as object;
    let literals = written.get(holder);
    if (!literals) written.set(holder, (literals = new Map()));
    literals.set(key, literal);
  }
}

/** `parent[key]`, if `parent` is the container the key is for (an index for an array, a name for an object). */
function child(parent: unknown, key: Key): unknown {
  if (parent === null || typeof parent !== 'object') return undefined;
  if (Array.isArray(parent) !== (typeof key === 'number')) return undefined;
  return Object.hasOwn(parent, key) ? (parent as Record<Key, unknown>)[key] : undefined;
}

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}
