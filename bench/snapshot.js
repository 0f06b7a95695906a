// Benchmark of snapshots (issues 17 and 39): a state of 100,000 payments (1,000 daily schedules
// billed 100 days), exported with `GET /_payemu/snapshot?all=true`, emptied with a reset, and
// imported back with `POST /_payemu/snapshot?all=true`, over HTTP as a test suite or the CLI
// would; then a restart on the same data, the yardstick of both (issue 39: each within 3x of it).
// payemu runs in a child process (bin/payemu.js start), so that the CPU time and the peak
// resident memory of each step are the server's alone: CPU from /proc/PID/stat before and after
// the step, the peak from VmHWM, which is reset before each step (`5` into /proc/PID/clear_refs).
// File-backed (--file): the restart is the same server stopped and started on its data directory,
// timed from spawn to the first answer. In memory: there is no restart to time, so the
// yardstick is the file-backed restart of the same data (the snapshot imported into a
// file-backed payemu, untimed, which is then stopped and started).
//   node bench/snapshot.js [--schedules 1000] [--days 100] [--file] [--rounds 3] [--json]
//     [--rounds N]    N rounds, each in servers of its own (so each timed import is the first of its
//                     process when billed, as a test suite's is): the medians, and each round's ratios
//     [--from FILE]   start from this snapshot (imported, untimed) instead of billing schedules
//     [--save FILE]   write the exported snapshot to FILE (for --from)
//     [--root DIR]    run the payemu of another built checkout (a before/after comparison)
//   BENCH_PROFILE=DIR  run the server under --cpu-prof, its profiles in DIR
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { AUTH, cpuMs, median, request, rssMb, runBench, startServer } from './lib.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const schedules = Number(arg('schedules', 1000));
const days = Number(arg('days', 100));
const file = process.argv.includes('--file');
const json = process.argv.includes('--json');
const from = arg('from', undefined);
const save = arg('save', undefined);
const root = arg('root', undefined);
const rounds = Math.max(1, Number(arg('rounds', 3)));
const profileDir = process.env.BENCH_PROFILE;
const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
const CLOCK = ['--clock-start', '2027-01-01T12:00:00Z', '--freeze-clock'];

/** @type {string[]} */
const dirs = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-snapshot-'));
  dirs.push(dir);
  return dir;
};
/** @type {import('./lib.js').BenchServer[]} */
const servers = [];
const start = async (options) => {
  const server = await startServer('payemu', { nodeArgs, args: CLOCK, root, ...options });
  servers.push(server);
  return server;
};

/** The peak resident memory of `pid` since the last `resetPeak` (VmHWM), in MB. */
function peakMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1]) / 1024);
}
function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // An older kernel: the peak is then the process's whole life's.
  }
}

/** Runs `work` against the server of `pid`: its wall time, the server's CPU time and its peak RSS during it. */
async function step(pid, work) {
  resetPeak(pid);
  const cpu0 = cpuMs(pid) ?? Number.NaN;
  const t0 = performance.now();
  const value = await work();
  const ms = performance.now() - t0;
  return { value, ms: Math.round(ms), cpuMs: Math.round((cpuMs(pid) ?? Number.NaN) - cpu0), peakMb: peakMb(pid) };
}

/** A request whose body (a string or bytes) and answer are read whole, as text. */
function text(url, method, urlPath, body) {
  return new Promise((resolve, reject) => {
    const headers = { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) };
    const req = http.request(`${url}${urlPath}`, { method, agent: false, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const answer = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`${method} ${urlPath} answered ${res.statusCode}: ${answer.slice(0, 500)}`));
        else resolve(answer);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function seed(server) {
  if (from !== undefined) {
    await text(server.url, 'POST', '/_payemu/snapshot?all=true', fs.readFileSync(from, 'utf8'));
    return;
  }
  const post = async (p, body) => (await request(server.url, 'POST', p, body)).json;
  const session = await post('/v1/sessions', { amount: 1, save_payment_method: true });
  const card = (await post(`/_payemu/sessions/${session.data.id}/complete`, { card_number: '4242424242424242' })).payment.payment_method;
  for (let i = 0; i < schedules; i++)
    await post('/v1/recurring-payments', { payment_method: card, amount: 9.99, frequency: 'daily', start_date: '2027-01-02' });
  await post('/_payemu/clock/advance', { by: `${days}d` });
}

/** Stops `server` and starts one on its data directory: the restart, timed from spawn to the first answer. */
async function restart(server, dataDir) {
  await server.stop();
  const again = await start({ dataDir });
  return {
    server: again,
    ms: Math.round(/** @type {number} */ (again.startupMs)),
    cpuMs: Math.round(again.startupCpuMs ?? Number.NaN),
    peakMb: peakMb(again.pid),
  };
}

/** One round of export, import and restart, in servers of its own, stopped at its end. */
async function oneRound() {
  const dataDir = file ? tempDir() : undefined;
  let server = await start(file ? { dataDir } : { inMemory: true });
  await seed(server);

  const exported = await step(server.pid, () => text(server.url, 'GET', '/_payemu/snapshot?all=true'));
  const snapshot = /** @type {string} */ (exported.value);
  if (save) fs.writeFileSync(save, snapshot);
  const parsed = JSON.parse(snapshot);
  const payments = parsed.data.payments.length;
  const records = Object.values(parsed.data).reduce((sum, list) => sum + list.length, 0);

  await request(server.url, 'POST', '/_payemu/reset', { all: true });
  // Sent as bytes, as `payemu import FILE` sends the file it read: encoding the 33 MB string
  // here would be this script's time (about 40 ms), not the server's.
  const bytes = Buffer.from(snapshot);
  const imported = await step(server.pid, () => text(server.url, 'POST', '/_payemu/snapshot?all=true', bytes));
  const report = JSON.parse(/** @type {string} */ (imported.value));
  if (report.counts?.payments !== payments) throw new Error(`import failed: ${JSON.stringify(report).slice(0, 500)}`);
  const total = (await request(server.url, 'GET', '/v1/payments?per_page=1')).json.meta.total;
  if (total !== payments) throw new Error(`after import: ${total} payments, not ${payments}`);

  let restarted;
  if (file) {
    restarted = await restart(server, /** @type {string} */ (dataDir));
    server = restarted.server;
  } else {
    // The yardstick of an in-memory run: the file-backed restart of the same data.
    const other = tempDir();
    const durable = await start({ dataDir: other });
    await text(durable.url, 'POST', '/_payemu/snapshot?all=true', snapshot);
    restarted = await restart(durable, other);
    server = restarted.server;
  }
  const after = (await request(server.url, 'GET', '/v1/payments?per_page=1')).json.meta.total;
  if (after !== payments) throw new Error(`after restart: ${after} payments, not ${payments}`);
  const rssAfterMb = rssMb(server.pid);
  for (const running of servers.splice(0)) await running.stop();
  return { payments, records, bytes: Buffer.byteLength(snapshot), exported, imported, restarted, rssAfterMb };
}

async function main() {
  const first = await oneRound();
  const all = [first];
  for (let i = 1; i < rounds; i++) all.push(await oneRound());
  const { payments, records } = first;
  // Each step's median over the rounds; the ratios are of the medians (and, per round, of its own).
  const mid = (pick) => Math.round(median(all.map(pick)));
  const stepOf = (key) => ({ ms: mid((r) => r[key].ms), cpuMs: mid((r) => r[key].cpuMs), peakMb: mid((r) => r[key].peakMb) });
  const exported = stepOf('exported');
  const imported = stepOf('imported');
  const restarted = stepOf('restarted');
  const ratio = (ms, of = restarted.ms) => Math.round((ms / of) * 10) / 10;
  const result = {
    store: file ? 'file' : 'memory',
    payments,
    records,
    bytes: first.bytes,
    rounds,
    export: { ...exported, ofRestart: ratio(exported.ms), eachRound: all.map((r) => ratio(r.exported.ms, r.restarted.ms)) },
    import: { ...imported, ofRestart: ratio(imported.ms), eachRound: all.map((r) => ratio(r.imported.ms, r.restarted.ms)) },
    restart: { ...restarted, of: file ? 'this data directory' : 'a file-backed payemu of the same data', eachRound: all.map((r) => r.restarted.ms) },
    rssAfterMb: mid((r) => r.rssAfterMb),
  };
  if (json) {
    console.log(JSON.stringify(result));
    return;
  }
  const mb = (n) => (n / 1e6).toFixed(1);
  const cell = (s) => `${(s.ms / 1000).toFixed(2)} s (CPU ${(s.cpuMs / 1000).toFixed(2)} s, peak ${s.peakMb} MB)`;
  console.log(
    `| ${file ? 'file-backed' : 'in memory'} | ${payments} payments (${records} records), ${mb(result.bytes)} MB, median of ${rounds} | export ${cell(exported)}, ${result.export.ofRestart}x (${result.export.eachRound.join(', ')}) | import ${cell(imported)}, ${result.import.ofRestart}x (${result.import.eachRound.join(', ')}) | restart ${cell(restarted)}${file ? '' : ' (file-backed)'} |`,
  );
}

runBench(main, async () => {
  for (const server of servers) await server.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
