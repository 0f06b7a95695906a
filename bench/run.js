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
//   BENCH_REST_SECONDS=30   seconds the last "paid" restart is left idle, its memory read each
//                           second (memory at rest); 0: not read
//   BENCH_ONLY=bare,file,memory,seeded,paid,config,year,namespaces,snapshot   run only some of the parts
//                           (`config`: start-ups with --config FILE; `year`: bench/recurring.js
//                           --file in a child, 1,000 daily schedules advanced a year;
//                           `namespaces`: bench/namespaces.js in a child, what a namespace costs,
//                           with its own BENCH_NS_* settings)
//   BENCH_YEAR_DAYS=365     days the `year` part advances (fewer for a quick check of the bench)
//   BENCH_KEEP_NODE_ENV=1   keep NODE_EXTRA_CA_CERTS in the servers' environment (see lib.js)
//   BENCH_PROFILE=1         run payemu under --cpu-prof (profiles in bench/results/profiles/)
//   BENCH_KEEP=1            keep the data directories
//   BENCH_ROOT=DIR          run the payemu of another checkout (built): a before/after comparison
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AUTH,
  GET_REFERENCE,
  ROOT,
  childJson,
  coreSpeed,
  cpuMs,
  dirSize,
  preparePayment,
  restingRss,
  elapsedMs,
  load,
  machineBusyMs,
  median,
  request,
  rssMb,
  runBench,
  seedPaid,
  sessionRequests,
  sleep,
  startServer,
} from './lib.js';
import { report, writeResults } from './report.js';
import { chooseLoadTool, wrkLoad, wrkScript } from './wrk.js';

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
const REST_SECONDS = Number(env.BENCH_REST_SECONDS ?? 30);
const STARTUP_RUNS = Math.max(1, Number(env.BENCH_STARTUP_RUNS ?? 5));
const POST_BODY = env.BENCH_POST_BODY === 'unique' ? 'unique' : 'fixed';
const QUIET_WAIT = Number(env.BENCH_QUIET_WAIT ?? 0);
const QUIET_CORES = Number(env.BENCH_QUIET_CORES ?? 0.25);
const ONLY = new Set((env.BENCH_ONLY ?? 'bare,file,memory,seeded,paid,config,year,namespaces,snapshot').split(',').map((s) => s.trim()));
const PROFILE_DIR = path.join(ROOT, 'bench/results/profiles');
const payemuNodeArgs = env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-bench-'));
let dirs = 0;
const newDataDir = () => path.join(TMP, `data-${++dirs}`);
const running = new Set();
const log = (line) => process.stderr.write(`${line}\n`);
const round1 = (n) => Math.round(n * 10) / 10;
const round2 = (n) => Math.round(n * 100) / 100;

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

/** The core speed (see coreSpeed) before the run's first measurement: what the others are read against. */
/** @type {number | undefined} */
let firstCoreSpeed;

async function measure(server, label, kind) {
  const work = workload(kind);
  if (WARMUP > 0) await drive(server, work, WARMUP);
  await waitForQuiet(server);
  const speedBefore = WRK ? coreSpeed(SERVER_CPU) : undefined;
  const cpuBefore = cpuMs(server.pid);
  const selfBefore = process.cpuUsage();
  const machineBefore = machineBusyMs();
  /** @type {Awaited<ReturnType<typeof drive>> & { serverCpuUsPerRequest?: number, serverCpuCores?: number, loadCpuCores?: number, otherCpuCores?: number, coreSpeed?: { before: number, after: number }, coreSpeedOfFirst?: number }} */
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
  if (speedBefore !== undefined) {
    result.coreSpeed = { before: speedBefore, after: coreSpeed(SERVER_CPU) };
    firstCoreSpeed ??= result.coreSpeed.before;
    result.coreSpeedOfFirst = round2(Math.min(result.coreSpeed.before, result.coreSpeed.after) / firstCoreSpeed);
  }
  log(
    `  ${label}: ${result.rps} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ` +
      `CPU cores: server ${result.serverCpuCores} (${result.serverCpuUsPerRequest} µs/request), ${TOOL.tool} ${result.loadCpuCores}, others ${result.otherCpuCores}` +
      (result.coreSpeedOfFirst === undefined ? '' : `; core ${SERVER_CPU} at ${Math.round(result.coreSpeedOfFirst * 100)} % of its first speed`) +
      `${result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, errors ${result.errors})` : ''}`,
  );
  return result;
}

/** GET and POST on one server kind: start-up, then the two loads on the last start. */
async function sideBySide(label, kind, options) {
  log(`${label}: start-up x${STARTUP_RUNS}`);
  const { server, startup } = await timedStarts(kind, options, STARTUP_RUNS);
  // Read before any load: after start-up and the first POST, as the restarts' RSS is read.
  const rssAfterStart = rssMb(server.pid);
  log(
    `  spawn -> first answer: median ${startup.medianMs} ms (${startup.runsMs.join(', ')}), ${startup.cpuMedianMs} ms of CPU; -> first POST answered: median ${startup.firstPostMedianMs} ms; RSS ${rssAfterStart} MB`,
  );
  if (kind === 'payemu') await preparePayment(server.url);
  const get = await measure(server, 'GET /v1/payments/{reference}', 'get');
  const post = await measure(server, 'POST /v1/sessions', 'post');
  const rss = rssMb(server.pid);
  await stop(server);
  return { label, startup, get, post, rssMbAfterStart: rssAfterStart, rssMbAfter: rss, compactions: server.compactions };
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
  const result = await childJson(['--expose-gc', 'bench/recurring.js', '--file', '--json', '--days', String(env.BENCH_YEAR_DAYS ?? 365)]);
  log(
    `  ${result.charges} charges in ${result.wallS} s (${result.cpuS} s of CPU), peak RSS ${result.peakRssMb} MB, health within ${result.slowestHealthMs} ms`,
  );
  return result;
}

/**
 * Snapshots: bench/snapshot.js --file in a child of its own (payemu in a child of its own too),
 * export and import of 100,001 payments against a restart on the same data (medians of three rounds), as one JSON line.
 */
async function snapshot() {
  log('snapshots: bench/snapshot.js --file, 100,001 payments exported, imported, and a restart on them, three rounds');
  const result = await childJson(['bench/snapshot.js', '--file', '--json']);
  log(`  medians: export ${result.export.ms} ms, import ${result.import.ms} ms, restart ${result.restart.ms} ms`);
  return result;
}

/**
 * What a namespace costs (memory, first request, 32 workers against one namespace):
 * bench/namespaces.js in a child of its own, with its figures as one JSON line.
 */
async function namespaces() {
  log('namespaces: bench/namespaces.js');
  return childJson(['bench/namespaces.js', '--json']);
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
  const atRest = REST_SECONDS > 0 ? await restingRss(server.pid, REST_SECONDS) : undefined;
  if (atRest) log(`  idle ${REST_SECONDS} s: RSS ${atRest.mb} MB at its lowest, ${atRest.afterSeconds} s after the first POST`);
  await stop(server);
  return {
    label: `payemu (file, ${PAID.toLocaleString('en-US')} paid payments stored)`,
    seeding: { payments: PAID, seconds: round1(seedSeconds) },
    stopMs,
    dataDirMb: round1(dataBytes / 1024 / 1024),
    startup: restarted.startup,
    rssMb: { afterSeeding: rssAfterSeeding, afterRestart: rssAfterRestart, ...(atRest ? { atRest } : {}) },
  };
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
  if (ONLY.has('namespaces')) results.namespaces = await namespaces();
  if (ONLY.has('snapshot')) results.snapshot = await snapshot();

  const settings = {
    load: TOOL.tool,
    loadReason: TOOL.reason,
    threads: WRK ? THREADS : undefined,
    pinned: WRK ? { server: SERVER_CPU, load: LOAD_CPU } : undefined,
    seconds: SECONDS,
    warmup: WARMUP,
    connections: CONNECTIONS,
    seed: SEED,
    paid: PAID,
    restSeconds: REST_SECONDS,
    startupRuns: STARTUP_RUNS,
    postBody: POST_BODY,
    quietWait: QUIET_WAIT,
    quietCores: QUIET_CORES,
    keepNodeEnv: Boolean(env.BENCH_KEEP_NODE_ENV),
    profile: Boolean(env.BENCH_PROFILE),
  };
  const { text, targets } = report(results, settings);
  process.stdout.write(`\n${text}\n`);
  const out = writeResults(path.join(ROOT, 'bench/results/latest.json'), { settings, results, targets });
  log(`\nraw numbers: ${path.relative(process.cwd(), out)}`);
}

async function cleanup() {
  await Promise.all([...running].map((server) => server.stop().catch(() => {})));
  if (!env.BENCH_KEEP) fs.rmSync(TMP, { recursive: true, force: true });
  else log(`data directories kept in ${TMP}`);
}

runBench(main, cleanup);
