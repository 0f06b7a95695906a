// The seeding of bench/million.js, in a child node of its own (its memory and CPU its own): a
// file-backed payemu started through the library (`startEmulator`), SCHEDULES daily schedules
// on a saved card, and the clock advanced DAYS days, a chunk at a time: each charge is a paid
// payment (SCHEDULES x DAYS of them), made by payemu's own recurring billing as a user's test
// would make it. The fastest honest way to a million: a checkout paid through the API (session,
// then complete) costs about 20 times the CPU of a charge. Prints one JSON line.
//   node bench/million-seed.js DIR [--schedules 1000] [--days 1000] [--chunk 50]
import http from 'node:http';
import { startEmulator } from 'payemu';
import { request } from './request.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const dataDir = process.argv[2];
if (!dataDir || dataDir.startsWith('--')) throw new Error('usage: node bench/million-seed.js DIR [--schedules N] [--days N] [--chunk N]');
const schedules = Number(arg('schedules', 1000));
const days = Number(arg('days', 1000));
const chunk = Number(arg('chunk', 50));

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const payemu = await startEmulator({ clockStart: '2027-01-01T12:00:00Z', freezeClock: true, inMemory: false, dataDir });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** @returns {Promise<any>} the answer's JSON */
const post = async (p, body) => (await request(payemu.url, 'POST', p, body, agent)).json;
const session = await post('/v1/sessions', { amount: 1, save_payment_method: true });
const card = (await post(`/_payemu/sessions/${session.data.id}/complete`, { card_number: '4242424242424242' })).payment.payment_method;
for (let i = 0; i < schedules; i++) await post('/v1/recurring-payments', { payment_method: card, amount: 9.99, frequency: 'daily', start_date: '2027-01-02' });
agent.destroy();

let charges = 0;
let compactions = 0;
payemu.bus.on('store.compacted', () => compactions++);
for (let done = 0; done < days; done += chunk) {
  const span = Math.min(chunk, days - done);
  const result = await payemu.clock.advance(`${span}d`);
  charges += result.ran['recurring.charge'] ?? 0;
  const s = (performance.now() - t0) / 1000;
  process.stderr.write(
    `  seeding: ${done + span} of ${days} days, ${charges.toLocaleString('en-US')} charges, ${s.toFixed(0)} s, RSS ${mb(process.memoryUsage().rss)} MB\n`,
  );
}
const advanced = performance.now();
// The clean stop writes the snapshot and index-keys.json a restart reads.
await payemu.close();
const closeS = (performance.now() - advanced) / 1000;
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    schedules,
    days,
    charges,
    wallS: round1((performance.now() - t0) / 1000),
    cpuS: round1((cpu.user + cpu.system) / 1e6),
    closeS: round1(closeS),
    compactions,
    peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
  }),
);

function mb(bytes) {
  return Math.round(bytes / 1e6);
}
function round1(n) {
  return Math.round(n * 10) / 10;
}
