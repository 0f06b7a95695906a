import type zlib from 'node:zlib';

let loaded: typeof zlib | undefined;

/**
 * zlib's CRC-32 (of the snapshot and of the index keys' fingerprints). node:zlib is loaded at
 * the first use: a start on a new data directory has no snapshot to check, and imported at
 * load it took 0.5 ms of every start.
 */
export function crc32(data: string | Uint8Array, value?: number): number {
  loaded ??= process.getBuiltinModule('node:zlib');
  return loaded.crc32(data, value);
}
