import { randomFillSync, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const POOL = Buffer.alloc(4096);
let offset = POOL.length;

function randomByte(): number {
  if (offset >= POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  return POOL[offset++]!;
}

/** `length` uniformly random base62 characters (bytes >= 248 are rejected to avoid bias). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** DESIGN.md section 4: `cs_`, `re_`, `pm_`, `ch_`, `inv_` + 24 base62; references `pay_` + 16. */
export const newId = (prefix: string, length = 24): string => `${prefix}${base62(length)}`;

export const newUuid = (): string => randomUUID();
