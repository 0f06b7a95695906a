// The memory of an empty namespace: payemu in this process (its heap is what is read), 200
// namespaces made by one `GET /v1/me` each, then (heapUsed + external) after a full collection,
// against the same before them, divided by 200. In memory, or with `--file` on a new data
// directory (each namespace its own directory, journal and lock-free store).
//   node --expose-gc bench/namespace-memory.js [--count 200] [--file] [--json]
// `--json` prints one JSON line (what bench/namespaces.js reads).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startEmulator } from 'payemu';
import { KEY } from './request.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const COUNT = Number(arg('count', 200));
// Made before the baseline: the first namespaces pay for code compiled and caches filled once
// per process, which is not what one more namespace costs.
const WARM = 10;
const file = process.argv.includes('--file');
if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
const gc = /** @type {() => void} */ (global.gc);

const dataDir = file ? fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-ns-memory-')) : undefined;
const payemu = await startEmulator({ port: 0, inMemory: !file, dataDir, maxNamespaces: COUNT + WARM });
// node:http over one kept-alive connection: the client's own memory is made before the
// baseline and stays the same (fetch's client, undici, would add its own to what is read).
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** @param {string} name */
const firstRequest = (name) =>
  new Promise((resolve, reject) => {
    const req = http.get(`${payemu.url}/v1/me`, { agent, headers: { authorization: `Bearer ${KEY}~${name}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(undefined) : reject(new Error(`GET /v1/me in ${name} answered ${res.statusCode}`))));
    });
    req.on('error', reject);
  });

/** heapUsed + external after full collections (twice: what the first frees may let a second free more). */
const settled = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, external: usage.external, rss: usage.rss };
};

for (let i = 0; i < WARM; i++) await firstRequest(`warm${i}`);
const before = settled();
for (let i = 0; i < COUNT; i++) await firstRequest(`n${i}`);
// Let what a creation leaves for later (timers of a second, a compaction check) run first.
await new Promise((resolve) => setTimeout(resolve, 200));
const after = settled();

const perNamespace = (after.heap + after.external - before.heap - before.external) / COUNT;
const figures = {
  count: COUNT,
  file,
  bytesPerNamespace: Math.round(perNamespace),
  heapBytesPerNamespace: Math.round((after.heap - before.heap) / COUNT),
  externalBytesPerNamespace: Math.round((after.external - before.external) / COUNT),
  rssBytesPerNamespace: Math.round((after.rss - before.rss) / COUNT),
};
agent.destroy();
await payemu.close();
if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
if (process.argv.includes('--json')) console.log(JSON.stringify(figures));
else
  console.log(
    `| ${COUNT} empty namespaces, ${file ? 'file-backed' : 'in memory'} | ${(figures.bytesPerNamespace / 1024).toFixed(1)} KB each (heap ${(figures.heapBytesPerNamespace / 1024).toFixed(1)}, external ${(figures.externalBytesPerNamespace / 1024).toFixed(1)}) | RSS ${(figures.rssBytesPerNamespace / 1024).toFixed(1)} KB each |`,
  );
