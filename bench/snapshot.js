// Benchmark of snapshots (issue 17): a state of 100,000 payments (1,000 daily schedules billed
// 100 days), exported with `GET /_payemu/snapshot?all=true`, emptied with a reset, and imported
// back with `POST /_payemu/snapshot?all=true`, over HTTP as a test suite or the CLI would.
// Prints the size and the time of each step.
//   node bench/snapshot.js [--schedules 1000] [--days 100] [--file]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator } from 'payemu';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const schedules = Number(arg('schedules', 1000));
const days = Number(arg('days', 100));
const file = process.argv.includes('--file');
const dataDir = file ? fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-snapshot-')) : undefined;

const payemu = await startEmulator({ clockStart: '2027-01-01T12:00:00Z', freezeClock: true, inMemory: !file, dataDir });
const headers = { Authorization: `Bearer ${payemu.keys.test}`, 'Content-Type': 'application/json' };
/** @returns {Promise<any>} the answer's JSON */
const post = async (p, body) =>
  (await fetch(`${payemu.url}${p}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })).json();
const session = await post('/v1/sessions', { amount: 1, save_payment_method: true });
const card = (await post(`/_payemu/sessions/${session.data.id}/complete`, { card_number: '4242424242424242' })).payment.payment_method;
for (let i = 0; i < schedules; i++) await post('/v1/recurring-payments', { payment_method: card, amount: 9.99, frequency: 'daily', start_date: '2027-01-02' });
await payemu.clock.advance(`${days}d`);

const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(2);
let t0 = performance.now();
const exported = await fetch(`${payemu.url}/_payemu/snapshot?all=true`, { headers });
const text = await exported.text();
const exportTime = seconds(t0);
const snapshot = JSON.parse(text);
const payments = snapshot.data.payments.length;
const records = Object.values(snapshot.data).reduce((sum, list) => sum + list.length, 0);

await post('/_payemu/reset', { all: true });
t0 = performance.now();
const imported = await post('/_payemu/snapshot?all=true', text);
const importTime = seconds(t0);
if (imported.counts?.payments !== payments) throw new Error(`import failed: ${JSON.stringify(imported).slice(0, 500)}`);
const check = await fetch(`${payemu.url}/v1/payments?per_page=1`, { headers });
const total = /** @type {any} */ (await check.json()).meta.total;
if (total !== payments) throw new Error(`after import: ${total} payments, not ${payments}`);

const mb = (n) => (n / 1e6).toFixed(1);
console.log(
  `| ${file ? 'file-backed' : 'in memory'} | ${payments} payments (${records} records) | ${mb(Buffer.byteLength(text))} MB | export ${exportTime} s | import ${importTime} s | peak RSS ${Math.round((process.resourceUsage().maxRSS * 1024) / 1e6)} MB |`,
);
await payemu.close();
if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
