// Benchmark of clock-driven work: 1,000 daily schedules advanced one year, 365,000 charges, in
// one `clock.advance`. Prints CPU and wall time, the time spent in garbage collection (pauses on
// the main thread), and memory. Wall time moves with the machine's other load; CPU less so.
//   node bench/recurring.js [--days 365] [--schedules 1000] [--file] [--listen] [--json]
// `--listen` listens to webhook attempts as `payemu start` does (its terminal UI or log tells each
// event that has no webhook endpoint).
// `--json` prints the figures as one JSON line instead of a table row (npm run bench reads it).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { startEmulator } from 'payemu';
import { request } from './request.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const days = Number(arg('days', 365));
const schedules = Number(arg('schedules', 1000));
const file = process.argv.includes('--file');
const listen = process.argv.includes('--listen');
const dataDir = file ? fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-recurring-')) : undefined;

const payemu = await startEmulator({ clockStart: '2027-01-01T12:00:00Z', freezeClock: true, inMemory: !file, dataDir });
let told = 0;
if (listen) payemu.bus.on('webhook.attempt', () => told++);
// node:http, one kept-alive connection, rather than fetch: this process's memory is read as
// payemu's, and fetch's own client (undici) would add about 35 MB of its own to it.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** @returns {Promise<any>} the answer's JSON */
const post = async (p, body) => (await request(payemu.url, 'POST', p, body, agent)).json;
const session = await post('/v1/sessions', { amount: 1, save_payment_method: true });
const card = (await post(`/_payemu/sessions/${session.data.id}/complete`, { card_number: '4242424242424242' })).payment.payment_method;
for (let i = 0; i < schedules; i++) await post('/v1/recurring-payments', { payment_method: card, amount: 9.99, frequency: 'daily', start_date: '2027-01-02' });

const mb = (n) => Math.round(n / 1e6);
global.gc?.();
const before = process.memoryUsage();
let gcMs = 0;
const gcWatch = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
});
gcWatch.observe({ entryTypes: ['gc'] });
const cpu0 = process.cpuUsage();
const t0 = performance.now();
// `GET /_payemu/health` asked every 100 ms through the advance: the slowest answer (client and
// server share this process, so it is an upper bound).
let advancing = true;
let slowestHealth = 0;
const probe = (async () => {
  while (advancing) {
    const asked = performance.now();
    await request(payemu.url, 'GET', '/_payemu/health', undefined, agent);
    slowestHealth = Math.max(slowestHealth, performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();
const result = await payemu.clock.advance(`${days}d`);
advancing = false;
await probe;
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
// The peak of the year's work, read before this script's own full collection below: payemu never
// forces one, and a forced compaction takes pages of its own before it gives any back (18 to 35
// MB more, measured).
const peakRss = mb(process.resourceUsage().maxRSS * 1024);
// GC entries are delivered asynchronously: let the last ones in before reading the total.
await new Promise((resolve) => setImmediate(resolve));
gcWatch.disconnect();
global.gc?.();
const after = process.memoryUsage();
const charges = result.ran['recurring.charge'] ?? 0;
// Heap per charge: what stays is the stored payments (the event log is capped), so this is
// the cost of one stored payment with its index entries.
const perCharge = charges > 0 ? Math.round((after.heapUsed - before.heapUsed) / charges) : 0;
const figures = {
  schedules,
  days,
  file,
  charges,
  ...(listen ? { toldNoEndpoint: told } : {}),
  wallS: Math.round(wall * 10) / 10,
  cpuS: Math.round((cpu.user + cpu.system) / 1e5) / 10,
  // The figure that holds on any machine better than wall time: the work one charge costs.
  cpuPerChargeUs: charges > 0 ? Math.round((cpu.user + cpu.system) / charges) : 0,
  gcS: Math.round(gcMs / 100) / 10,
  heapMb: { before: mb(before.heapUsed), after: mb(after.heapUsed) },
  rssMb: { before: mb(before.rss), after: mb(after.rss) },
  peakRssMb: peakRss,
  slowestHealthMs: Math.round(slowestHealth),
};
if (process.argv.includes('--json')) console.log(JSON.stringify(figures));
else
  console.log(
    `| ${schedules} daily schedules, ${days} days, ${file ? 'file-backed' : 'in memory'} | ${charges} charges | ${wall.toFixed(1)} s wall | ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU, ${figures.cpuPerChargeUs} µs a charge (GC ${(gcMs / 1000).toFixed(1)} s) | ${Math.round(charges / wall)} charges/s | heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)} MB (${perCharge} B a charge) | RSS ${mb(before.rss)} -> ${mb(after.rss)} MB, peak ${peakRss} MB | health answered within ${Math.round(slowestHealth)} ms |`,
  );
agent.destroy();
await payemu.close();
if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
