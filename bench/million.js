// `npm run bench:million`: a million paid payments, file-backed (issue 39). Seeds them through
// the library (bench/million-seed.js, in a child of its own: 1,000 daily schedules billed 1,000
// days), then times restarts of `payemu start --data DIR` on them (spawn -> first answer, its
// CPU, spawn -> first `POST /v1/sessions` answered, resident memory after it, and at rest), and
// measures `POST /v1/sessions` (durable) with the million stored and with an empty store, side
// by side, alternating, as bench/run.js measures (wrk pinned apart from the server when
// installed, autocannon otherwise; the server's CPU per request beside each rate). Takes about
// five minutes on 2 cores, so it is not part of `npm run bench`. See docs/performance.md.
//   node bench/million.js [--schedules 1000] [--days 1000] [--data DIR] [--json]
// `--data DIR`: a data directory seeded before (BENCH_KEEP=1 keeps the one this run seeds; a
// restart writes its sessions into it). Environment: BENCH_SECONDS (5), BENCH_WARMUP (2),
// BENCH_CONNECTIONS, BENCH_REST_SECONDS (20), BENCH_ROUNDS (2: empty, million, empty, million),
// BENCH_LOAD, BENCH_KEEP as in bench/run.js.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childJson, cpuMs, dirSize, elapsedMs, load, median, request, restingRss, rssMb, runBench, serverSet } from './lib.js';
import { chooseLoadTool, wrkLoad, wrkScript } from './wrk.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const env = process.env;
const schedules = Number(arg('schedules', 1000));
const days = Number(arg('days', 1000));
const given = arg('data', undefined);
const TOOL = chooseLoadTool(env.BENCH_LOAD);
const WRK = TOOL.tool === 'wrk';
const SECONDS = Number(env.BENCH_SECONDS ?? (WRK ? 5 : 10));
const WARMUP = Number(env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? (WRK ? 10 : 50));
const REST_SECONDS = Number(env.BENCH_REST_SECONDS ?? 20);
const ROUNDS = Math.max(1, Number(env.BENCH_ROUNDS ?? 2));
const RESTARTS = 3;

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-million-'));
const log = (line) => process.stderr.write(`${line}\n`);
const round1 = (n) => Math.round(n * 10) / 10;
const round2 = (n) => Math.round(n * 100) / 100;
const mb = (bytes) => round1(bytes / 1024 / 1024);

const servers = serverSet(log);
/** @param {{ dataDir: string }} options */
const start = (options) => servers.start('payemu', { ...options, ...(WRK ? { cpu: 0 } : {}) });
const stop = servers.stop;

/** Restarts on `dataDir`: per start, spawn -> first answer (and its CPU), -> first POST answered, RSS after it. */
async function restarts(dataDir) {
  /** @type {{ firstAnswerMs: number, cpuMs: number | undefined, firstPostMs: number, firstPostCpuMs: number | undefined, rssMb: number | undefined }[]} */
  const runs = [];
  let server;
  for (let i = 0; i < RESTARTS; i++) {
    if (server) await stop(server);
    server = await start({ dataDir });
    const created = await request(server.url, 'POST', '/v1/sessions', { amount: 10 });
    if (created.status !== 201) throw new Error(`first POST /v1/sessions answered ${created.status}`);
    const firstPostMs = round1(performance.now() - server.spawnedAt);
    const firstPostCpuMs = cpuMs(server.pid);
    runs.push({ firstAnswerMs: round1(server.startupMs ?? Number.NaN), cpuMs: server.startupCpuMs, firstPostMs, firstPostCpuMs, rssMb: rssMb(server.pid) });
    log(
      `  restart ${i + 1}: first answer ${runs[i]?.firstAnswerMs} ms (${server.startupCpuMs} ms of CPU), first POST answered ${firstPostMs} ms (${firstPostCpuMs} ms of CPU), RSS ${runs[i]?.rssMb} MB`,
    );
  }
  if (!server) throw new Error('no restart');
  const atRest = REST_SECONDS > 0 ? await restingRss(server.pid, REST_SECONDS) : undefined;
  if (atRest) log(`  idle ${REST_SECONDS} s: RSS ${atRest.mb} MB at its lowest, after ${atRest.afterSeconds} s`);
  await stop(server);
  return { runs, atRest };
}

/** `POST /v1/sessions` (payemu picks each reference) for SECONDS after WARMUP: rate, latency, the server's CPU per request. */
async function creates(server, label) {
  const script = WRK ? wrkScript({ dir: TMP, name: 'post', method: 'POST', path: '/v1/sessions', body: '{"amount":10}' }) : '';
  const requests = [
    {
      method: 'POST',
      path: '/v1/sessions',
      headers: { authorization: 'Bearer sk_test_payemu_acme', 'content-type': 'application/json' },
      body: '{"amount":10}',
    },
  ];
  const drive = (seconds) =>
    WRK
      ? wrkLoad({ url: server.url, script, connections: CONNECTIONS, threads: 1, seconds: Math.max(1, Math.round(seconds)), cpu: 1, tool: TOOL })
      : load({ url: server.url, requests, connections: CONNECTIONS, seconds });
  // The first POST builds the index of the payments' references (timed with the restarts):
  // answered before the warm-up, so that the measurement sees creates, not that build.
  const first = await request(server.url, 'POST', '/v1/sessions', { amount: 10 });
  if (first.status !== 201) throw new Error(`${label}: first POST /v1/sessions answered ${first.status}`);
  if (WARMUP > 0) await drive(WARMUP);
  const before = cpuMs(server.pid);
  const result = await drive(SECONDS);
  const serverMs = elapsedMs(before, cpuMs(server.pid));
  const cpuUsPerRequest = Math.round((serverMs * 1000) / Math.max(1, result.completed));
  // A compaction (a child process: the million's snapshot parsed and written again) started
  // once the journal passed 64 MiB; pinned with the server, it shares the server's core.
  const compactions = server.compactions.length;
  log(
    `  ${label}: ${result.rps} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, server ${cpuUsPerRequest} µs of CPU a request${compactions ? `, ${compactions} compactions ended by then` : ''}`,
  );
  if (result.non2xx || result.errors) throw new Error(`${label}: non-2xx ${result.non2xx}, errors ${result.errors}`);
  return { rps: result.rps, latency: result.latency, cpuUsPerRequest, compactions };
}

async function main() {
  const dataDir = given ? path.resolve(given) : path.join(TMP, 'million');
  let seeding;
  if (!given) {
    log(`seeding through the library: ${schedules} daily schedules billed ${days} days, file-backed (bench/million-seed.js)`);
    seeding = await childJson(['bench/million-seed.js', dataDir, '--schedules', String(schedules), '--days', String(days)]);
    log(
      `  ${seeding.charges.toLocaleString('en-US')} paid payments in ${seeding.wallS} s (${seeding.cpuS} s of CPU in payemu's process, ${seeding.compactions} compactions beside it), its stop ${seeding.closeS} s, peak RSS ${seeding.peakRssMb} MB`,
    );
  }
  const files = Object.fromEntries(fs.readdirSync(dataDir).map((name) => [name, mb(fs.statSync(path.join(dataDir, name)).size)]));
  log(`data directory ${mb(dirSize(dataDir))} MB: ${JSON.stringify(files)}`);

  log(`restarts on it x${RESTARTS} (payemu start --data DIR)`);
  const restarted = await restarts(dataDir);

  log(`POST /v1/sessions, durable: an empty store and the million, side by side, ${ROUNDS} rounds (${TOOL.tool})`);
  /** @type {{ empty: Awaited<ReturnType<typeof creates>>[], million: Awaited<ReturnType<typeof creates>>[] }} */
  const rates = { empty: [], million: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const empty = await start({ dataDir: path.join(TMP, `empty-${round}`) });
    rates.empty.push(await creates(empty, `empty, round ${round + 1}`));
    await stop(empty);
    const million = await start({ dataDir });
    rates.million.push(await creates(million, `stored, round ${round + 1}`));
    // A stop with a journal past 1 MiB writes the snapshot again: the next round restarts on it.
    await stop(million);
  }
  const rateOf = (list) => median(list.map((r) => r.rps));
  const cpuOf = (list) => median(list.map((r) => r.cpuUsPerRequest));
  const figures = {
    schedules,
    days,
    // The schedules' charges and the payment of the checkout that saved their card.
    payments: seeding ? seeding.charges + 1 : undefined,
    seeding,
    dataDirMb: files,
    restart: {
      firstAnswerMs: median(restarted.runs.map((r) => r.firstAnswerMs)),
      firstPostMs: median(restarted.runs.map((r) => r.firstPostMs)),
      cpuMs: median(restarted.runs.map((r) => r.cpuMs ?? Number.NaN)),
      firstPostCpuMs: median(restarted.runs.map((r) => r.firstPostCpuMs ?? Number.NaN)),
      rssMb: median(restarted.runs.map((r) => r.rssMb ?? Number.NaN)),
      runs: restarted.runs,
      atRest: restarted.atRest,
    },
    creates: {
      load: TOOL.tool,
      rates,
      rateRatio: round2(rateOf(rates.million) / rateOf(rates.empty)),
      cpuRatio: round2(cpuOf(rates.empty) / cpuOf(rates.million)),
    },
  };
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(figures));
    return;
  }
  const r = figures.restart;
  const rows = [
    ['seeding through the library', seeding ? `${seeding.wallS} s (${seeding.cpuS} s of CPU), peak RSS ${seeding.peakRssMb} MB` : '(given)', 'minutes'],
    [
      'restart to first answer (median of 3)',
      `${r.firstAnswerMs} ms (${r.cpuMs} ms of CPU); first POST answered ${r.firstPostMs} ms (${r.firstPostCpuMs} ms of CPU)`,
      '< 3 s',
    ],
    ['resident memory after it and its first POST', `${r.rssMb} MB${r.atRest ? `, ${r.atRest.mb} MB at rest` : ''}`, '< 600 MB'],
    [
      'creates with them stored / empty',
      `${figures.creates.rateRatio} of the rate (${rateOf(rates.million)} / ${rateOf(rates.empty)} req/s), ${figures.creates.cpuRatio} by CPU (${cpuOf(rates.million)} / ${cpuOf(rates.empty)} µs a request)`,
      '>= 0.8',
    ],
  ];
  console.log(
    `\n${figures.payments === undefined ? 'The paid payments of DIR' : `${figures.payments.toLocaleString('en-US')} paid payments`}, file-backed (${os.cpus()[0]?.model}, node ${process.version})\n`,
  );
  console.log('| | measured | goal |\n|---|---|---|');
  for (const [what, measured, goal] of rows) console.log(`| ${what} | ${measured} | ${goal} |`);
}

async function cleanup() {
  await servers.stopAll();
  if (!env.BENCH_KEEP) fs.rmSync(TMP, { recursive: true, force: true });
  else log(`data directories kept in ${TMP}`);
}

runBench(main, cleanup);
