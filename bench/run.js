// `npm run bench`: a bare Node `http` server and payemu, side by side, measured the same way
// (each in its own child process, loaded over loopback). See docs/performance.md.
//
// The load generator: wrk when `wrk` and `taskset` are installed (and there are 2 cores): the
// server runs pinned to core 0 (`taskset -c 0 node ...`) and `taskset -c 1 wrk -t1 -c10` loads
// it from core 1, requests described by a small Lua script in a temp file. Otherwise autocannon
// (in this process, not pinned), which on a 2-core machine saturates before a bare Node server
// does. The report says which one measured, and the ratio of every rate to the bare server's.
//
// Environment:
//   BENCH_LOAD=wrk          `autocannon` forces the fallback
//   BENCH_SECONDS=5         length of each measurement (10 with autocannon)
//   BENCH_WARMUP=2          seconds of load before each measurement (not counted)
//   BENCH_CONNECTIONS=10    concurrent keep-alive connections (50 with autocannon)
//   BENCH_THREADS=1         wrk threads
//   BENCH_SEED=100000       sessions stored before the "stored" measurements
//   BENCH_STARTUP_RUNS=5    start-ups timed per server (the median is reported)
//   BENCH_POST_BODY=fixed   `fixed`: every POST sends {"amount":10} and payemu picks a unique
//                           reference; `unique`: autocannon writes a new reference into each body
//                           (costs the load generator about twice the CPU per request)
//   BENCH_QUIET_WAIT=0      seconds to wait, before each measurement, for the rest of the machine
//                           to fall under BENCH_QUIET_CORES (0.25) of CPU; 0: do not wait
//   BENCH_PAID=100000       paid payments stored before the "paid" restart (session + test card each)
//   BENCH_ONLY=bare,file,memory,seeded,paid,config,year   run only some of the parts (`config`:
//                           start-ups with --config FILE; `year`: bench/recurring.js --file in a
//                           child, 1,000 daily schedules advanced a year)
//   BENCH_YEAR_DAYS=365     days the `year` part advances (fewer for a quick check of the bench)
//   BENCH_KEEP_NODE_ENV=1   keep NODE_EXTRA_CA_CERTS in the servers' environment (see lib.js)
//   BENCH_PROFILE=1         run payemu under --cpu-prof (profiles in bench/results/profiles/)
//   BENCH_KEEP=1            keep the data directories
//   BENCH_ROOT=DIR          run the payemu of another checkout (built): a before/after comparison
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AUTH,
  ROOT,
  chooseLoadTool,
  cpuMs,
  elapsedMs,
  load,
  machineBusyMs,
  median,
  request,
  rssMb,
  seedPaid,
  sessionRequests,
  sleep,
  startServer,
  wrkLoad,
  wrkScript,
} from './lib.js';

const env = process.env;
const TOOL = chooseLoadTool(env.BENCH_LOAD);
const WRK = TOOL.tool === 'wrk';
const SERVER_CPU = 0;
const LOAD_CPU = 1;
const SECONDS = Number(env.BENCH_SECONDS ?? (WRK ? 5 : 10));
const WARMUP = Number(env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? (WRK ? 10 : 50));
const THREADS = Number(env.BENCH_THREADS ?? 1);
const SEED = Number(env.BENCH_SEED ?? 100_000);
const PAID = Number(env.BENCH_PAID ?? 100_000);
const STARTUP_RUNS = Math.max(1, Number(env.BENCH_STARTUP_RUNS ?? 5));
const POST_BODY = env.BENCH_POST_BODY === 'unique' ? 'unique' : 'fixed';
const QUIET_WAIT = Number(env.BENCH_QUIET_WAIT ?? 0);
const QUIET_CORES = Number(env.BENCH_QUIET_CORES ?? 0.25);
const ONLY = new Set((env.BENCH_ONLY ?? 'bare,file,memory,seeded,paid,config,year').split(',').map((s) => s.trim()));
const PROFILE_DIR = path.join(ROOT, 'bench/results/profiles');
const payemuNodeArgs = env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-bench-'));
let dirs = 0;
const newDataDir = () => path.join(TMP, `data-${++dirs}`);
const running = new Set();
const log = (line) => process.stderr.write(`${line}\n`);
const round1 = (n) => Math.round(n * 10) / 10;
const round2 = (n) => Math.round(n * 100) / 100;

const GET_REFERENCE = 'bench-get';
const getRequests = [{ method: 'GET', path: `/v1/payments/${GET_REFERENCE}`, headers: AUTH }];
const fixedPost = [{ method: 'POST', path: '/v1/sessions', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"amount":10}' }];
let phase = 0;
const postRequests = () => (POST_BODY === 'unique' ? sessionRequests(`p${++phase}`) : fixedPost);

/** What to send: autocannon's request list, or the wrk script that sends the same. */
function workload(kind) {
  if (kind === 'get') {
    return { requests: getRequests, script: WRK ? wrkScript({ dir: TMP, name: 'get', method: 'GET', path: `/v1/payments/${GET_REFERENCE}` }) : '' };
  }
  const requests = postRequests();
  const name = `post-${phase}`;
  const script = WRK
    ? wrkScript({
        dir: TMP,
        name,
        method: 'POST',
        path: '/v1/sessions',
        ...(POST_BODY === 'unique' ? { uniquePrefix: `w${name}` } : { body: '{"amount":10}' }),
      })
    : '';
  return { requests, script };
}

/** One load of `seconds` with the chosen tool; loadCpuMs is wrk's CPU (autocannon's is this process's). */
async function drive(server, work, seconds) {
  if (WRK) {
    return wrkLoad({
      url: server.url,
      script: work.script,
      connections: CONNECTIONS,
      threads: THREADS,
      seconds: Math.max(1, Math.round(seconds)),
      cpu: LOAD_CPU,
      tool: TOOL,
    });
  }
  return { ...(await load({ url: server.url, requests: work.requests, connections: CONNECTIONS, seconds })), loadCpuMs: 0 };
}

async function start(kind, options) {
  const server = await startServer(kind, {
    ...options,
    nodeArgs: kind === 'payemu' ? payemuNodeArgs : [],
    ...(WRK ? { cpu: SERVER_CPU } : {}),
    ...(kind === 'payemu' && env.BENCH_ROOT ? { root: path.resolve(env.BENCH_ROOT) } : {}),
  });
  running.add(server);
  return server;
}

async function stop(server) {
  const result = await server.stop();
  running.delete(server);
  if (result.code !== 0) log(`  warning: ${server.kind} exited with ${result.code ?? result.signal}: ${server.stderr.trim()}`);
  return result;
}

/**
 * Starts `runs` times (each on a fresh data directory unless `dataDir` is given) and keeps the
 * last one running. Per start: spawn -> first 200 of a probe, and spawn -> first answered
 * `POST /v1/sessions` (sent right after the probe's answer).
 */
async function timedStarts(kind, options, runs) {
  const startups = [];
  const startupCpu = [];
  const firstPosts = [];
  const readyLines = [];
  let server;
  for (let i = 0; i < runs; i++) {
    if (server) await stop(server);
    const dataDir = options.dataDir ?? (options.inMemory || kind === 'bare' ? undefined : newDataDir());
    server = await start(kind, { ...options, dataDir });
    const created = await request(server.url, 'POST', '/v1/sessions', { amount: 10 });
    if (created.status !== 201) throw new Error(`${kind}: first POST /v1/sessions answered ${created.status}`);
    firstPosts.push(round1(performance.now() - server.spawnedAt));
    startups.push(round1(server.startupMs));
    if (server.startupCpuMs !== undefined) startupCpu.push(Math.round(server.startupCpuMs));
    if (server.readyLineMs !== undefined) readyLines.push(round1(server.readyLineMs));
  }
  if (!server) throw new Error('timedStarts: no start (runs < 1)');
  return {
    server,
    startup: {
      medianMs: median(startups),
      runsMs: startups,
      cpuMedianMs: startupCpu.length ? median(startupCpu) : undefined,
      firstPostMedianMs: median(firstPosts),
      firstPostRunsMs: firstPosts,
      readyLineMedianMs: readyLines.length ? median(readyLines) : undefined,
    },
  };
}

/** A paid session with the reference the GET measurement reads. */
async function preparePayment(url) {
  const created = await request(url, 'POST', '/v1/sessions', { amount: 10, reference: GET_REFERENCE });
  if (created.status !== 201) throw new Error(`POST /v1/sessions answered ${created.status}`);
  const paid = await request(url, 'POST', `/_payemu/sessions/${created.json.data.id}/complete`, { card_number: '4242424242424242' });
  if (paid.status !== 200) throw new Error(`complete answered ${paid.status}`);
  const got = await request(url, 'GET', `/v1/payments/${GET_REFERENCE}`);
  if (got.status !== 200) throw new Error(`GET /v1/payments answered ${got.status}`);
}

/** CPU used by everything but this process and `server` over one second, in cores. */
async function othersCores(server) {
  const machine = machineBusyMs();
  const mine = cpuMs(server.pid);
  const self = process.cpuUsage();
  await sleep(1000);
  const selfUsage = process.cpuUsage(self);
  return Math.max(0, elapsedMs(machine, machineBusyMs()) - elapsedMs(mine, cpuMs(server.pid)) - (selfUsage.user + selfUsage.system) / 1000) / 1000;
}

async function waitForQuiet(server) {
  if (QUIET_WAIT <= 0) return;
  const deadline = Date.now() + QUIET_WAIT * 1000;
  for (;;) {
    const others = await othersCores(server);
    if (others <= QUIET_CORES) return;
    if (Date.now() > deadline) return log(`  (the machine stayed busy: other processes use ${others.toFixed(2)} cores)`);
  }
}

async function measure(server, label, kind) {
  const work = workload(kind);
  if (WARMUP > 0) await drive(server, work, WARMUP);
  await waitForQuiet(server);
  const cpuBefore = cpuMs(server.pid);
  const selfBefore = process.cpuUsage();
  const machineBefore = machineBusyMs();
  /** @type {Awaited<ReturnType<typeof drive>> & { serverCpuUsPerRequest?: number, serverCpuCores?: number, loadCpuCores?: number, otherCpuCores?: number }} */
  const result = await drive(server, work, SECONDS);
  const serverMs = elapsedMs(cpuBefore, cpuMs(server.pid));
  const selfUsage = process.cpuUsage(selfBefore);
  // The load generator's CPU: autocannon runs in this process; wrk in its own.
  const selfMs = (selfUsage.user + selfUsage.system) / 1000 + result.loadCpuMs;
  // CPU the server spent per answered request: steadier than req/s on a shared, noisy machine.
  result.serverCpuUsPerRequest = Math.round((serverMs * 1000) / Math.max(1, result.completed));
  result.serverCpuCores = round2(serverMs / 1000 / result.seconds);
  result.loadCpuCores = round2(selfMs / 1000 / result.seconds);
  // Everything else on the machine (other people's builds and tests, a compaction child...).
  result.otherCpuCores = round2(Math.max(0, elapsedMs(machineBefore, machineBusyMs()) - serverMs - selfMs) / 1000 / result.seconds);
  log(
    `  ${label}: ${result.rps} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ` +
      `CPU cores: server ${result.serverCpuCores} (${result.serverCpuUsPerRequest} µs/request), ${TOOL.tool} ${result.loadCpuCores}, others ${result.otherCpuCores}` +
      `${result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, errors ${result.errors})` : ''}`,
  );
  return result;
}

/** GET and POST on one server kind: start-up, then the two loads on the last start. */
async function sideBySide(label, kind, options) {
  log(`${label}: start-up x${STARTUP_RUNS}`);
  const { server, startup } = await timedStarts(kind, options, STARTUP_RUNS);
  log(
    `  spawn -> first answer: median ${startup.medianMs} ms (${startup.runsMs.join(', ')}), ${startup.cpuMedianMs} ms of CPU; -> first POST answered: median ${startup.firstPostMedianMs} ms`,
  );
  if (kind === 'payemu') await preparePayment(server.url);
  const get = await measure(server, 'GET /v1/payments/{reference}', 'get');
  const post = await measure(server, 'POST /v1/sessions', 'post');
  const rss = rssMb(server.pid);
  await stop(server);
  return { label, startup, get, post, rssMbAfter: rss, compactions: server.compactions };
}

/** Start-ups with `--config FILE` (a copy of the embedded defaults), each on a new data directory. */
async function withConfig() {
  const configFile = path.join(TMP, 'payemu.config.json');
  fs.copyFileSync(path.join(ROOT, 'fixtures/payemu.config.json'), configFile);
  log(`payemu --config FILE: start-up x${STARTUP_RUNS}`);
  const { server, startup } = await timedStarts('payemu', { configFile }, STARTUP_RUNS);
  await stop(server);
  log(`  spawn -> first answer: median ${startup.medianMs} ms (${startup.runsMs.join(', ')}); -> first POST answered: median ${startup.firstPostMedianMs} ms`);
  return { label: 'payemu (--config FILE)', startup };
}

/**
 * The year of billing: bench/recurring.js in a child of its own (it runs payemu in-process, so
 * its peak memory is payemu's), file-backed, with its summary as one JSON line.
 */
async function year() {
  log(`year of billing: 1,000 daily schedules advanced ${env.BENCH_YEAR_DAYS ?? 365} days, file-backed`);
  const child = spawn(
    process.execPath,
    ['--expose-gc', path.join(ROOT, 'bench/recurring.js'), '--file', '--json', '--days', String(env.BENCH_YEAR_DAYS ?? 365)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`bench/recurring.js exited with ${code}`);
  const result = JSON.parse(out.trim().split('\n').at(-1) ?? '');
  log(
    `  ${result.charges} charges in ${result.wallS} s (${result.cpuS} s of CPU), peak RSS ${result.peakRssMb} MB, health within ${result.slowestHealthMs} ms`,
  );
  return result;
}

/** Seeds SEED sessions through the API, restarts on the data, then measures on top of them. */
async function seeded() {
  const dataDir = newDataDir();
  log(`payemu (file) with ${SEED} stored sessions: seeding through the API (a unique reference per request)`);
  let server = await start('payemu', { dataDir });
  const t0 = performance.now();
  const seeding = await load({ url: server.url, requests: sessionRequests('seed'), connections: CONNECTIONS, amount: SEED });
  const seedSeconds = (performance.now() - t0) / 1000;
  if (seeding.ok !== SEED) throw new Error(`seeding stored ${seeding.ok} of ${SEED} sessions (non-2xx ${seeding.non2xx}, errors ${seeding.errors})`);
  const rssAfterSeeding = rssMb(server.pid);
  log(`  seeded ${SEED} in ${seedSeconds.toFixed(1)} s (${Math.round(SEED / seedSeconds)} req/s), RSS ${rssAfterSeeding} MB`);
  await preparePayment(server.url);
  await stop(server);
  const dataBytes = dirSize(dataDir);

  const runs = Math.max(1, Math.min(STARTUP_RUNS, 3));
  log(`  restart on the seeded data x${runs}`);
  const restarted = await timedStarts('payemu', { dataDir }, runs);
  server = restarted.server;
  log(
    `  spawn -> first answer: median ${restarted.startup.medianMs} ms (${restarted.startup.runsMs.join(', ')}), ${restarted.startup.cpuMedianMs} ms of CPU; -> first POST answered: median ${restarted.startup.firstPostMedianMs} ms`,
  );
  const rssAfterRestart = rssMb(server.pid);
  const get = await measure(server, 'GET /v1/payments/{reference}', 'get');
  const post = await measure(server, 'POST /v1/sessions', 'post');
  const rssAfterMeasurement = rssMb(server.pid);
  await stop(server);
  log(`  RSS after restart ${rssAfterRestart} MB, after the measurements ${rssAfterMeasurement} MB`);
  return {
    label: `payemu (file, ${SEED.toLocaleString('en-US')} stored)`,
    seeding: { sessions: SEED, seconds: round1(seedSeconds), rps: Math.round(SEED / seedSeconds), latency: seeding.latency },
    dataDirMb: round1(dataBytes / 1024 / 1024),
    startup: restarted.startup,
    get,
    post,
    rssMb: { afterSeeding: rssAfterSeeding, afterRestart: rssAfterRestart, afterMeasurement: rssAfterMeasurement },
    compactions: server.compactions,
  };
}

/**
 * Stores PAID paid payments through the API (each a session completed with a test card), then
 * times restarts on them: spawn -> first answer, its CPU, and resident memory right after.
 * No load on top (the "stored" part measures rates with stored records).
 */
async function paid() {
  const dataDir = newDataDir();
  log(`payemu (file) with ${PAID} stored paid payments: seeding through the API (session, then complete with a test card)`);
  let server = await start('payemu', { dataDir });
  const t0 = performance.now();
  await seedPaid(server.url, PAID, { connections: CONNECTIONS });
  const seedSeconds = (performance.now() - t0) / 1000;
  const rssAfterSeeding = rssMb(server.pid);
  log(`  seeded ${PAID} in ${seedSeconds.toFixed(1)} s (${Math.round(PAID / seedSeconds)} payments/s), RSS ${rssAfterSeeding} MB`);
  const closing = performance.now();
  await stop(server);
  const stopMs = round1(performance.now() - closing);
  const dataBytes = dirSize(dataDir);
  const runs = Math.max(1, Math.min(STARTUP_RUNS, 3));
  log(`  stopped in ${stopMs} ms; data directory ${round1(dataBytes / 1024 / 1024)} MB; restart on it x${runs}`);
  const restarted = await timedStarts('payemu', { dataDir }, runs);
  server = restarted.server;
  const rssAfterRestart = rssMb(server.pid);
  log(
    `  spawn -> first answer: median ${restarted.startup.medianMs} ms (${restarted.startup.runsMs.join(', ')}), ${restarted.startup.cpuMedianMs} ms of CPU; RSS after restart ${rssAfterRestart} MB`,
  );
  await stop(server);
  return {
    label: `payemu (file, ${PAID.toLocaleString('en-US')} paid payments stored)`,
    seeding: { payments: PAID, seconds: round1(seedSeconds) },
    stopMs,
    dataDirMb: round1(dataBytes / 1024 / 1024),
    startup: restarted.startup,
    rssMb: { afterSeeding: rssAfterSeeding, afterRestart: rssAfterRestart },
  };
}

function dirSize(dir) {
  let total = 0;
  for (const name of fs.readdirSync(dir)) total += fs.statSync(path.join(dir, name)).size;
  return total;
}

// ---------------------------------------------------------------------------------------------

const fmt = (n, digits = 0) =>
  n === undefined || n === null || Number.isNaN(n)
    ? 'n/a'
    : Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (n) => (n === undefined || Number.isNaN(n) ? 'n/a' : `${Math.round(n * 100)}%`);

function report(results) {
  const { bare, file, memory, stored, paid, config, year } = results;
  const rows = [bare, file, memory, stored, config].filter(Boolean);
  const lines = [];
  lines.push(`payemu benchmark, ${new Date().toISOString()}`);
  lines.push(
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), node ${process.version}, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} at the end`,
  );
  lines.push(
    (WRK
      ? `load: wrk -t${THREADS} -c${CONNECTIONS} pinned to core ${LOAD_CPU} (taskset), servers pinned to core ${SERVER_CPU}`
      : `load: autocannon, ${CONNECTIONS} connections, not pinned (fallback: ${TOOL.reason}; rates of fast servers are capped by autocannon itself)`) +
      `; ${SECONDS} s per measurement after ${WARMUP} s warm-up, POST body: ${POST_BODY}` +
      `${env.BENCH_KEEP_NODE_ENV || !process.env.NODE_EXTRA_CA_CERTS ? '' : ', servers started without NODE_EXTRA_CA_CERTS'}`,
  );
  lines.push('');
  if (bare) {
    const ratio = (r, b) => (r && b ? fmt(r.rps / b.rps, 2) : 'n/a');
    lines.push(`Requests per second, and the ratio to the bare server measured in this run (${TOOL.tool}):`);
    lines.push('');
    lines.push('| server | GET /v1/payments/{reference} | GET ratio to bare | POST /v1/sessions | POST ratio to bare |');
    lines.push('|---|--:|--:|--:|--:|');
    for (const row of rows) {
      lines.push(`| ${row.label} | ${fmt(row.get?.rps)} | ${ratio(row.get, bare.get)} | ${fmt(row.post?.rps)} | ${ratio(row.post, bare.post)} |`);
    }
    lines.push('');
  }
  lines.push('| server | GET req/s | GET p50 / p99 | POST /v1/sessions req/s | POST p50 / p99 | start-up to first answer | to first POST answered |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|');
  for (const row of rows) {
    lines.push(
      `| ${row.label} | ${fmt(row.get?.rps)} | ${fmt(row.get?.latency.p50, 2)} / ${fmt(row.get?.latency.p99, 2)} ms | ${fmt(row.post?.rps)} | ${fmt(row.post?.latency.p50, 2)} / ${fmt(row.post?.latency.p99, 2)} ms | ${fmt(row.startup?.medianMs)} ms | ${fmt(row.startup?.firstPostMedianMs)} ms |`,
    );
  }
  lines.push('');
  lines.push(
    `CPU during the measurements, in cores (server / ${TOOL.tool} / everything else on the machine), server CPU per request, and the CPU the server used from spawn to its first answer:`,
  );
  lines.push('');
  lines.push('| server | GET cores | GET µs/request | POST cores | POST µs/request | start-up CPU |');
  lines.push('|---|--:|--:|--:|--:|--:|');
  const cores = (r) => (r ? `${fmt(r.serverCpuCores, 2)} / ${fmt(r.loadCpuCores, 2)} / ${fmt(r.otherCpuCores, 2)}` : 'n/a');
  for (const row of rows) {
    lines.push(
      `| ${row.label} | ${cores(row.get)} | ${fmt(row.get?.serverCpuUsPerRequest)} | ${cores(row.post)} | ${fmt(row.post?.serverCpuUsPerRequest)} | ${fmt(row.startup?.cpuMedianMs)} ms |`,
    );
  }
  lines.push('');

  const targets = [];
  const target = (name, measured, goal, met) => targets.push({ name, measured, goal, met });
  if (bare && file) {
    const get = file.get.rps / bare.get.rps;
    target('GET /v1/payments/{reference}, ratio to bare', `${fmt(get, 2)} (${fmt(file.get.rps)} / ${fmt(bare.get.rps)} req/s)`, '>= 0.50', get >= 0.5);
    const post = file.post.rps / bare.post.rps;
    target('POST /v1/sessions, durable, ratio to bare POST', `${fmt(post, 2)} (${fmt(file.post.rps)} / ${fmt(bare.post.rps)} req/s)`, '>= 0.30', post >= 0.3);
  }
  if (file && stored) {
    const ratio = stored.post.rps / file.post.rps;
    target(
      `POST /v1/sessions with ${fmt(SEED)} stored vs empty`,
      `${pct(ratio)} (${fmt(stored.post.rps)} / ${fmt(file.post.rps)} req/s)`,
      '>= 80%',
      ratio >= 0.8,
    );
  }
  if (file) target('start-up to first answer, empty', `${fmt(file.startup.medianMs)} ms`, '< 150 ms', file.startup.medianMs < 150);
  if (config) {
    target('start-up to first answer, --config FILE', `${fmt(config.startup.medianMs)} ms`, '< 150 ms', config.startup.medianMs < 150);
    target(
      'spawn to first POST /v1/sessions answered, --config FILE',
      `${fmt(config.startup.firstPostMedianMs)} ms`,
      '< 150 ms',
      config.startup.firstPostMedianMs < 150,
    );
  }
  if (year) {
    target(
      `${year.days} days over ${fmt(year.schedules)} daily schedules, file-backed`,
      `${fmt(year.wallS, 1)} s (${fmt(year.cpuS, 1)} s of CPU, GC ${fmt(year.gcS, 1)} s)`,
      '< 10 s',
      year.wallS < 10,
    );
    target('peak resident memory of that advance', `${fmt(year.peakRssMb)} MB`, '< 400 MB', year.peakRssMb < 400);
    target('GET /_payemu/health during that advance, slowest', `${fmt(year.slowestHealthMs)} ms`, '< 200 ms', year.slowestHealthMs < 200);
  }
  for (const [row, what] of [
    [stored, `${fmt(SEED)} stored sessions`],
    [paid, `${fmt(PAID)} stored paid payments`],
  ]) {
    if (!row) continue;
    target(
      `restart to first answer, ${what}`,
      `${fmt(row.startup.medianMs)} ms (${fmt(row.startup.cpuMedianMs)} ms of CPU)`,
      '< 500 ms',
      row.startup.medianMs < 500,
    );
    target(
      `resident memory after that restart, ${what}`,
      `${fmt(row.rssMb.afterRestart, 1)} MB (after seeding ${fmt(row.rssMb.afterSeeding, 1)})`,
      '< 150 MB (stretch < 120 MB)',
      row.rssMb.afterRestart < 150,
    );
  }
  lines.push('| target | measured | goal | |');
  lines.push('|---|---|---|---|');
  for (const t of targets) lines.push(`| ${t.name} | ${t.measured} | ${t.goal} | ${t.met ? 'met' : '**missed**'} |`);
  lines.push('');

  if (bare && file) lines.push(`Bare node:http start-up to first answer: ${fmt(bare.startup.medianMs)} ms (the floor: node itself).`);
  if (stored) {
    lines.push(
      `Seeding: ${fmt(SEED)} sessions through the API in ${stored.seeding.seconds} s (${fmt(stored.seeding.rps)} req/s); data directory ${stored.dataDirMb} MB. ` +
        `RSS: ${stored.rssMb.afterSeeding} MB after seeding, ${stored.rssMb.afterRestart} MB after a restart on it, ${stored.rssMb.afterMeasurement} MB after the measurements on top (more sessions by then).`,
    );
  }
  if (paid) {
    lines.push(
      `Paid payments: ${fmt(PAID)} seeded through the API in ${paid.seeding.seconds} s; stop (with its snapshot) ${fmt(paid.stopMs)} ms; data directory ${paid.dataDirMb} MB; ` +
        `restart ${fmt(paid.startup.medianMs)} ms (${paid.startup.runsMs.join(', ')}), RSS ${paid.rssMb.afterRestart} MB after it.`,
    );
  }
  for (const row of [file, memory, stored]) {
    if (row?.compactions?.length) lines.push(`Compactions during "${row.label}": ${row.compactions.map((c) => c.line).join('; ')}`);
  }
  for (const row of rows) {
    for (const [name, r] of [
      ['GET', row.get],
      ['POST', row.post],
    ]) {
      if (r && (r.non2xx || r.errors || r.timeouts))
        lines.push(`Warning: ${row.label} ${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts.`);
      if (r && r.otherCpuCores > QUIET_CORES)
        lines.push(`Noise: during ${row.label} ${name}, other processes used ${fmt(r.otherCpuCores, 2)} of the ${os.cpus().length} cores.`);
    }
  }
  return { text: lines.join('\n'), targets };
}

async function main() {
  log(`load generator: ${TOOL.tool} (${TOOL.reason})`);
  const results = {};
  if (ONLY.has('bare')) results.bare = await sideBySide('bare node:http', 'bare', {});
  if (ONLY.has('file')) results.file = await sideBySide('payemu (file, durable)', 'payemu', {});
  if (ONLY.has('memory')) results.memory = await sideBySide('payemu (--in-memory)', 'payemu', { inMemory: true });
  if (ONLY.has('seeded')) results.stored = await seeded();
  if (ONLY.has('paid')) results.paid = await paid();
  if (ONLY.has('config')) results.config = await withConfig();
  if (ONLY.has('year')) results.year = await year();

  const { text, targets } = report(results);
  process.stdout.write(`\n${text}\n`);
  const out = path.join(ROOT, 'bench/results/latest.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        machine: {
          node: process.version,
          cpus: os.cpus().length,
          model: os.cpus()[0]?.model,
          totalMemMb: Math.round(os.totalmem() / 1024 / 1024),
          loadavg: os.loadavg(),
        },
        settings: {
          load: TOOL.tool,
          loadReason: TOOL.reason,
          threads: WRK ? THREADS : undefined,
          pinned: WRK ? { server: SERVER_CPU, load: LOAD_CPU } : undefined,
          seconds: SECONDS,
          warmup: WARMUP,
          connections: CONNECTIONS,
          seed: SEED,
          paid: PAID,
          startupRuns: STARTUP_RUNS,
          postBody: POST_BODY,
          quietWait: QUIET_WAIT,
          keepNodeEnv: Boolean(env.BENCH_KEEP_NODE_ENV),
          profile: Boolean(env.BENCH_PROFILE),
        },
        results,
        targets,
      },
      null,
      2,
    )}\n`,
  );
  log(`\nraw numbers: ${path.relative(process.cwd(), out)}`);
}

async function cleanup() {
  await Promise.all([...running].map((server) => server.stop().catch(() => {})));
  if (!env.BENCH_KEEP) fs.rmSync(TMP, { recursive: true, force: true });
  else log(`data directories kept in ${TMP}`);
}

process.on('SIGINT', () => cleanup().then(() => process.exit(130)));
main().then(
  () => cleanup(),
  async (error) => {
    log(`bench failed: ${error.stack ?? error}`);
    await cleanup();
    process.exitCode = 1;
  },
);
