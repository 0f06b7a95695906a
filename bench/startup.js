// `npm run bench:startup`: spawn to first answer, and spawn to the first `POST /v1/sessions`
// answered, for a bare Node `http` server, payemu on its embedded defaults and payemu with
// `--config FILE` (a copy of the default config written to a temporary file), each on a new
// data directory, and once more without the code cache that every start after the first reads
// (a first start). They are started in turn (bare, defaults, config, bare, ...) so a drift in
// the machine's speed hits them alike; the minimum and the median of each are printed.
// See docs/performance.md.
//
// Environment:
//   BENCH_STARTUP_RUNS=15   starts of each server
//   BENCH_PIN=0             run every server pinned to that core (taskset), as npm run bench does
//   BENCH_COMPARE=DIR       also start the payemu of another checkout (built) the same two ways,
//                           in the same rounds: a before/after comparison
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, median, request, startServer, which } from './lib.js';

const RUNS = Math.max(1, Number(process.env.BENCH_STARTUP_RUNS ?? 15));
const PIN = process.env.BENCH_PIN !== undefined && which('taskset') ? Number(process.env.BENCH_PIN) : undefined;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-startup-'));
const CONFIG = path.join(TMP, 'payemu.config.json');
fs.copyFileSync(path.join(ROOT, 'fixtures/payemu.config.json'), CONFIG);

/** @type {{ label: string, kind: 'bare' | 'payemu', options: (i: number) => object }[]} */
const cases = [
  { label: 'bare node:http', kind: 'bare', options: () => ({}) },
  { label: 'payemu, embedded defaults', kind: 'payemu', options: (i) => ({ dataDir: path.join(TMP, `defaults-${i}`) }) },
  { label: 'payemu, --config FILE', kind: 'payemu', options: (i) => ({ dataDir: path.join(TMP, `config-${i}`), configFile: CONFIG }) },
  {
    label: 'payemu, embedded defaults, no code cache (a first start)',
    kind: 'payemu',
    options: (i) => ({ dataDir: path.join(TMP, `uncached-${i}`), env: { NODE_DISABLE_COMPILE_CACHE: '1' } }),
  },
];
if (process.env.BENCH_COMPARE) {
  const root = path.resolve(process.env.BENCH_COMPARE);
  cases.push(
    { label: `payemu of ${root}, embedded defaults`, kind: 'payemu', options: (i) => ({ root, dataDir: path.join(TMP, `other-defaults-${i}`) }) },
    { label: `payemu of ${root}, --config FILE`, kind: 'payemu', options: (i) => ({ root, dataDir: path.join(TMP, `other-config-${i}`), configFile: CONFIG }) },
  );
}
/** @type {{ first: number[], post: number[], cpu: number[] }[]} */
const results = cases.map(() => ({ first: [], post: [], cpu: [] }));

try {
  // One start of each payemu first, untimed: it writes the code cache the timed starts read.
  for (const c of cases.filter((c) => c.kind === 'payemu')) await (await startServer(c.kind, c.options(-1))).stop();
  for (let i = 0; i < RUNS; i++) {
    for (const [n, c] of cases.entries()) {
      const r = /** @type {{ first: number[], post: number[], cpu: number[] }} */ (results[n]);
      const server = await startServer(c.kind, { ...c.options(i), ...(PIN !== undefined ? { cpu: PIN } : {}) });
      try {
        const created = await request(server.url, 'POST', '/v1/sessions', { amount: 10 });
        if (c.kind === 'payemu' && created.status !== 201) throw new Error(`${c.label}: first POST /v1/sessions answered ${created.status}`);
        r.post.push(performance.now() - server.spawnedAt);
        r.first.push(/** @type {number} */ (server.startupMs));
        if (server.startupCpuMs !== undefined) r.cpu.push(server.startupCpuMs);
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  fs.rmSync(TMP, { recursive: true, force: true });
}

const ms = (n) => `${Math.round(n)} ms`;
const line = (values) => `min ${ms(Math.min(...values))}, median ${ms(median(values))}`;
console.log(
  `start-up, ${RUNS} starts each, ${new Date().toISOString()}, load average ${(os.loadavg()[0] ?? 0).toFixed(2)}${PIN !== undefined ? `, pinned to core ${PIN}` : ''}`,
);
console.log('| server | spawn to first answer | spawn to first POST /v1/sessions answered | CPU to first answer |');
console.log('|---|--:|--:|--:|');
for (const [n, c] of cases.entries()) {
  const r = /** @type {{ first: number[], post: number[], cpu: number[] }} */ (results[n]);
  console.log(`| ${c.label} | ${line(r.first)} | ${line(r.post)} | ${r.cpu.length ? ms(median(r.cpu)) : 'n/a'} |`);
}
