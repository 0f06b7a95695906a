import { randomFillSync } from 'node:crypto';

const ALPHABET = Buffer.from('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 'latin1');
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const POOL = Buffer.alloc(4096);
let offset = POOL.length;

function randomByte(): number {
  if (offset >= POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  return POOL[offset++]!;
}

// Ids are written as bytes and decoded once: a string built a character at a time (or
// crypto.randomUUID's pieces) is a chain of small string objects, and ids stay in memory as
// long as their records do.
const text = Buffer.alloc(64);

/** `prefix` and `length` uniformly random base62 characters (bytes >= 248 are rejected to avoid bias). */
function prefixedBase62(prefix: string, length: number): string {
  const start = prefix.length;
  const out = start + length <= text.length ? text : Buffer.alloc(start + length);
  out.write(prefix, 0, 'latin1');
  for (let i = start; i < start + length; ) {
    const byte = randomByte();
    if (byte < 248) out[i++] = ALPHABET[byte % 62]!;
  }
  return out.toString('latin1', 0, start + length);
}

export const base62 = (length: number): string => prefixedBase62('', length);

/** Ids: `cs_`, `re_`, `pm_`, `ch_`, `inv_`, `tc_` + 24 base62; references `pay_` + 16. */
export const newId = (prefix: string, length = 24): string => prefixedBase62(prefix, length);

/** A random (version 4) UUID, `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`, from a CSPRNG. */
export function newUuid(): string {
  let j = 0;
  for (let i = 0; i < 16; i++) {
    let byte = randomByte();
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // RFC 4122 variant
    if (i === 4 || i === 6 || i === 8 || i === 10) text[j++] = 0x2d; // '-'
    text[j++] = HEX[byte >> 4]!;
    text[j++] = HEX[byte & 15]!;
  }
  return text.toString('latin1', 0, 36);
}
