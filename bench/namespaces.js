// `npm run bench:namespaces`, and the `namespaces` part of `npm run bench`: what a namespace
// costs (docs/performance.md).
//  1. Memory of an empty namespace: bench/namespace-memory.js in a child (its own heap), in
//     memory and file-backed.
//  2. First-request cost: `GET /v1/me` in a namespace that does not exist yet (made by that
//     request) against the same in one that does, alternated over one kept-alive connection,
//     payemu a child pinned to core 0 as bench/run.js runs it; medians.
//  3. 32 workers: durable `POST /v1/sessions` over 32 keep-alive connections, one to each of 32
//     namespaces, against all 32 to one namespace, alternated in the same run; each namespace's
//     clock advanced by this process all along (one `POST /_payemu/clock/advance` of 10 s every
//     250 ms per connection). After it: each namespace holds the sessions its own connection
//     asked for, its clock moved by its own advances only, and the default namespace saw none.
//
// The load generator: wrk (the same choice as bench/run.js), one thread per connection
// (`-t32 -c32`): wrk calls a script's `request()` with no word of the connection it is for, but
// each thread has its own script state, so a thread's one connection carries its thread's key.
// Both cases run the same `-t32 -c32`. autocannon otherwise, each connection keeping the key of
// its first request (setupRequest's per-connection context).
//
// Environment: BENCH_LOAD, BENCH_SECONDS (5), BENCH_WARMUP (2) as bench/run.js;
//   BENCH_NS_MEMORY=200      namespaces made for the memory figure
//   BENCH_NS_FIRST=200       first requests timed (each in a new namespace)
//   BENCH_NS_WORKERS=32      connections, and namespaces in the spread case
//   BENCH_NS_ROUNDS=2        measured runs of each case, alternated
//   BENCH_NS_ONLY=memory,first,workers   some of the parts
//   BENCH_NS_ADVANCE_MS=250  how often each connection's namespace is advanced (0: never)
//   BENCH_NS_ARGS=           more options of `payemu start` for every server (`--journal-size 0`)
//   BENCH_PROFILE=1          payemu under --cpu-prof (profiles in bench/results/profiles/)
// `--json`: the figures as one JSON line on stdout (what bench/run.js reads).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { KEY, ROOT, childJson, cpuMs, elapsedMs, load, median, runBench, sleep, startServer } from './lib.js';
import { namespaceTargets } from './report.js';
import { chooseLoadTool, wrkLoad } from './wrk.js';

const env = process.env;
const TOOL = chooseLoadTool(env.BENCH_LOAD);
const WRK = TOOL.tool === 'wrk';
const SECONDS = Number(env.BENCH_SECONDS ?? (WRK ? 5 : 10));
const WARMUP = Number(env.BENCH_WARMUP ?? 2);
const MEMORY_COUNT = Number(env.BENCH_NS_MEMORY ?? 200);
const FIRST_COUNT = Number(env.BENCH_NS_FIRST ?? 200);
const WORKERS = Number(env.BENCH_NS_WORKERS ?? 32);
const ROUNDS = Math.max(1, Number(env.BENCH_NS_ROUNDS ?? 2));
const ONLY = new Set((env.BENCH_NS_ONLY ?? 'memory,first,workers').split(',').map((s) => s.trim()));
const ADVANCE_EVERY_MS = Number(env.BENCH_NS_ADVANCE_MS ?? 250);
const ADVANCE_BY_SECONDS = 10;
const PROFILE_DIR = path.join(ROOT, 'bench/results/profiles');
const nodeArgs = env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];
const pinned = WRK ? { cpu: 0 } : {};
const serverArgs = (env.BENCH_NS_ARGS ?? '').split(' ').filter(Boolean);

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-bench-ns-'));
const log = (line) => process.stderr.write(`${line}\n`);
const round2 = (n) => Math.round(n * 100) / 100;
const running = new Set();

async function start(options) {
  const server = await startServer('payemu', { ...options, args: [...serverArgs, ...(options.args ?? [])], nodeArgs, ...pinned });
  running.add(server);
  return server;
}

async function stop(server) {
  const result = await server.stop();
  running.delete(server);
  if (result.code !== 0) log(`  warning: payemu exited with ${result.code ?? result.signal}: ${server.stderr.trim()}`);
}

/** One request over `agent` as `name`'s key (the default's without a name): status, JSON, ms. */
function call(server, agent, method, urlPath, name, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = {
      authorization: `Bearer ${KEY}${name ? `~${name}` : ''}`,
      ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
    };
    const t0 = performance.now();
    const req = http.request(`${server.url}${urlPath}`, { method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, json: text ? JSON.parse(text) : undefined, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** 1. bench/namespace-memory.js in a child of its own: one JSON line. */
const memory = (file) => childJson(['--expose-gc', 'bench/namespace-memory.js', '--json', '--count', String(MEMORY_COUNT), ...(file ? ['--file'] : [])]);

/**
 * 2. The first `GET /v1/me` of a new namespace against one in a namespace made long before:
 * alternated, each timed by the client (medians); then the server's CPU over FIRST_COUNT first
 * requests in a row against as many in the old namespace, which a busy machine moves less.
 */
async function firstRequest(label, options) {
  const warm = 20;
  const server = await start({ ...options, args: ['--max-namespaces', String(2 * FIRST_COUNT + warm + 1)] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = async (name) => {
    const answer = await call(server, agent, 'GET', '/v1/me', name);
    if (answer.status !== 200) throw new Error(`GET /v1/me in ${name} answered ${answer.status}`);
    return answer.ms;
  };
  // The code of a namespace's creation warmed up, and the namespace the others are read against.
  await get('old');
  for (let i = 0; i < warm; i++) await get(`warm${i}`);
  for (let i = 0; i < warm * 10; i++) await get('old');
  const fresh = [];
  const existing = [];
  for (let i = 0; i < FIRST_COUNT; i++) {
    fresh.push(await get(`first${i}`));
    existing.push(await get('old'));
  }
  const cpuOf = async (names) => {
    const before = cpuMs(server.pid);
    for (const name of names) await get(name);
    return (elapsedMs(before, cpuMs(server.pid)) * 1000) / names.length;
  };
  const freshCpuUs = await cpuOf(Array.from({ length: FIRST_COUNT }, (_, i) => `cpu${i}`));
  const existingCpuUs = await cpuOf(Array.from({ length: FIRST_COUNT }, () => 'old'));
  agent.destroy();
  await stop(server);
  const sorted = [...fresh].sort((a, b) => a - b);
  const result = {
    label,
    count: FIRST_COUNT,
    firstMedianMs: round2(median(fresh)),
    firstP90Ms: round2(sorted[Math.floor(sorted.length * 0.9)] ?? Number.NaN),
    existingMedianMs: round2(median(existing)),
    extraMs: round2(median(fresh) - median(existing)),
    firstCpuUs: Math.round(freshCpuUs),
    existingCpuUs: Math.round(existingCpuUs),
  };
  log(
    `  ${label}: first request in a new namespace median ${result.firstMedianMs} ms (p90 ${result.firstP90Ms}), in an existing one ${result.existingMedianMs} ms: ${result.extraMs} ms more; ` +
      `server CPU ${result.firstCpuUs} µs a first request, ${result.existingCpuUs} µs another`,
  );
  return result;
}

/**
 * The wrk script of the workers part: thread i's one connection sends `POST /v1/sessions` with
 * the key of `names[i]`; `done` prints how many requests each thread sent.
 */
function workersScript(name, names) {
  const lines = [
    'wrk.method = "POST"',
    'wrk.path = "/v1/sessions"',
    'wrk.headers["Content-Type"] = "application/json"',
    `wrk.body = '{"amount":10}'`,
    `local names = { ${names.map((n) => `"${n}"`).join(', ')} }`,
    'local threads = {}',
    'function setup(thread)',
    '  table.insert(threads, thread)',
    '  thread:set("name", names[#threads])',
    'end',
    'function init(args)',
    `  wrk.headers["Authorization"] = "Bearer ${KEY}~" .. name`,
    '  req = wrk.format()',
    '  sent = 0',
    'end',
    'function request()',
    '  sent = sent + 1',
    '  return req',
    'end',
    'function done(summary, latency, requests)',
    '  for _, thread in ipairs(threads) do io.write("sent ", thread:get("name"), " ", thread:get("sent"), "\\n") end',
    'end',
  ];
  const file = path.join(TMP, `${name}.lua`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Runs one load of `seconds` with `names` (one a connection) while every connection's namespace is advanced. */
async function workersLoad(server, names, seconds, sent, advances) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  let advancing = true;
  const advancer = async (name) => {
    while (advancing) {
      const answer = await call(server, agent, 'POST', '/_payemu/clock/advance', name, { by: `${ADVANCE_BY_SECONDS}s` });
      if (answer.status !== 200) throw new Error(`clock advance in ${name} answered ${answer.status}`);
      advances.set(name, (advances.get(name) ?? 0) + 1);
      await sleep(ADVANCE_EVERY_MS);
    }
  };
  const advancers = ADVANCE_EVERY_MS > 0 ? names.map((name) => advancer(name)) : [];
  const cpuBefore = cpuMs(server.pid);
  let result;
  try {
    result = WRK ? await wrkWorkers(server, names, seconds, sent) : await autocannonWorkers(server, names, seconds, sent);
  } finally {
    advancing = false;
  }
  await Promise.all(advancers);
  agent.destroy();
  result.serverCpuUsPerRequest = Math.round((elapsedMs(cpuBefore, cpuMs(server.pid)) * 1000) / Math.max(1, result.completed));
  return result;
}

async function wrkWorkers(server, names, seconds, sent) {
  const script = workersScript(`workers-${names.length}-${names[0]}-${names[1]}`, names);
  const result = await wrkLoad({ url: server.url, script, connections: names.length, threads: names.length, seconds, cpu: 1, tool: TOOL });
  for (const line of result.output.split('\n')) {
    const m = /^sent (\S+) (\d+)$/.exec(line);
    if (m) sent.set(m[1], (sent.get(m[1]) ?? 0) + Number(m[2]));
  }
  return result;
}

async function autocannonWorkers(server, names, seconds, sent) {
  let next = 0;
  const requests = [
    {
      method: 'POST',
      path: '/v1/sessions',
      body: '{"amount":10}',
      setupRequest: (req, context) => {
        context.name ??= names[next++ % names.length];
        sent.set(context.name, (sent.get(context.name) ?? 0) + 1);
        return { ...req, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}~${context.name}` } };
      },
    },
  ];
  return load({ url: server.url, requests, connections: names.length, seconds });
}

/** 3. One connection to each of WORKERS namespaces against all to one, alternated; then no cross-talk. */
async function workers() {
  const server = await start({ dataDir: path.join(TMP, 'workers'), args: ['--max-namespaces', String(WORKERS + 1)] });
  const spread = Array.from({ length: WORKERS }, (_, i) => `w${i + 1}`);
  const alone = Array.from({ length: WORKERS }, () => 'solo');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  // Every namespace made before any load: the first request's cost is part 2's.
  for (const name of [...spread, 'solo']) await call(server, agent, 'GET', '/v1/me', name);
  const sent = new Map();
  const advances = new Map();
  /** @type {{ spread: any[], alone: any[] }} */
  const runs = { spread: [], alone: [] };
  const runsOf = new Map();
  const measure = async (which, names, seconds, counted) => {
    const result = await workersLoad(server, names, seconds, sent, advances);
    for (const name of new Set(names)) runsOf.set(name, (runsOf.get(name) ?? 0) + names.filter((n) => n === name).length);
    if (!counted) return;
    runs[which].push(result);
    log(
      `  ${which === 'spread' ? `one connection to each of ${WORKERS} namespaces` : `all ${WORKERS} connections to one namespace`}: ${result.rps} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.serverCpuUsPerRequest} µs of server CPU a request${result.non2xx || result.errors ? ` (non-2xx ${result.non2xx}, errors ${result.errors})` : ''}`,
    );
  };
  if (WARMUP > 0) {
    await measure('alone', alone, WARMUP, false);
    await measure('spread', spread, WARMUP, false);
  }
  for (let round = 0; round < ROUNDS; round++) {
    await measure('alone', alone, SECONDS, true);
    await measure('spread', spread, SECONDS, true);
  }
  const crossTalk = await checkCrossTalk(server, agent, [...spread, 'solo'], sent, advances, runsOf);
  agent.destroy();
  await stop(server);
  const total = (list) => list.reduce((sum, r) => sum + r.rps, 0);
  const ratio = total(runs.spread) / total(runs.alone);
  log(`  ratio ${round2(ratio)}; cross-talk: ${crossTalk.length ? crossTalk.join('; ') : 'none'}`);
  return {
    connections: WORKERS,
    rounds: ROUNDS,
    spreadRps: runs.spread.map((r) => r.rps),
    aloneRps: runs.alone.map((r) => r.rps),
    spreadCpuUs: runs.spread.map((r) => r.serverCpuUsPerRequest),
    aloneCpuUs: runs.alone.map((r) => r.serverCpuUsPerRequest),
    spreadLatency: runs.spread.map((r) => r.latency),
    aloneLatency: runs.alone.map((r) => r.latency),
    errors: [...runs.spread, ...runs.alone].reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    ratio: round2(ratio),
    crossTalk,
  };
}

/**
 * What each namespace holds after the loads: the sessions its connections asked for (a request
 * of each connection may have been cut off as a load ended: at most one a connection and run),
 * a clock moved by its own advances only; and the default namespace untouched.
 */
async function checkCrossTalk(server, agent, names, sent, advances, runsOf) {
  const problems = [];
  const listed = (await call(server, agent, 'GET', '/_payemu/namespaces')).json.namespaces;
  for (const name of names) {
    const entry = listed.find((n) => n.name === name);
    if (!entry) {
      problems.push(`${name} is not listed`);
      continue;
    }
    const asked = sent.get(name) ?? 0;
    const sessions = entry.counts.sessions;
    if (sessions > asked || sessions < asked - (runsOf.get(name) ?? 0)) problems.push(`${name} holds ${sessions} sessions, its connections sent ${asked}`);
    const expected = (advances.get(name) ?? 0) * ADVANCE_BY_SECONDS;
    if (Math.abs(entry.clock.offset_seconds - expected) > 1)
      problems.push(`${name}'s clock is ${entry.clock.offset_seconds} s ahead, its own advances ${expected} s`);
  }
  if (listed.length !== names.length) problems.push(`${listed.length} namespaces listed, ${names.length} made`);
  const clock = (await call(server, agent, 'GET', '/_payemu/clock')).json;
  if (clock.offset_seconds !== 0) problems.push(`the default's clock moved ${clock.offset_seconds} s`);
  const journal = (await call(server, agent, 'GET', '/_payemu/requests')).json.requests;
  const posts = journal.filter((r) => r.method === 'POST').length;
  if (posts !== 0) problems.push(`the default namespace's journal holds ${posts} POST requests`);
  return problems;
}

async function main() {
  log(`namespaces: load generator ${TOOL.tool} (${TOOL.reason})`);
  /** @type {{ load: string, loadReason: string, memory?: any, first?: any, workers?: any }} */
  const results = { load: TOOL.tool, loadReason: TOOL.reason };
  if (ONLY.has('memory')) {
    log(`memory of an empty namespace: ${MEMORY_COUNT} made by one request each, after a full collection`);
    results.memory = { inMemory: await memory(false), file: await memory(true) };
    for (const m of [results.memory.inMemory, results.memory.file])
      log(
        `  ${m.file ? 'file-backed' : 'in memory'}: ${(m.bytesPerNamespace / 1024).toFixed(1)} KB each (resident ${(m.rssBytesPerNamespace / 1024).toFixed(1)} KB)`,
      );
  }
  if (ONLY.has('first')) {
    log(`first-request cost: ${FIRST_COUNT} new namespaces, each's first GET /v1/me against one in an existing namespace`);
    results.first = {
      file: await firstRequest('file-backed', { dataDir: path.join(TMP, 'first') }),
      inMemory: await firstRequest('in memory', { inMemory: true }),
    };
  }
  if (ONLY.has('workers')) {
    log(`${WORKERS} workers: durable POST /v1/sessions, ${ROUNDS} x ${SECONDS} s each way after ${WARMUP} s warm-up, clocks advanced all along`);
    results.workers = await workers();
  }
  if (process.argv.includes('--json')) return process.stdout.write(`${JSON.stringify(results)}\n`);
  const lines = [
    `payemu namespaces benchmark, ${new Date().toISOString()}, node ${process.version}, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
    '',
  ];
  lines.push('| target | measured | goal | |', '|---|---|---|---|');
  namespaceTargets(results, (name, measured, goal, met) => lines.push(`| ${name} | ${measured} | ${goal} | ${met ? 'met' : '**missed**'} |`));
  process.stdout.write(`\n${lines.join('\n')}\n`);
}

async function cleanup() {
  await Promise.all([...running].map((server) => server.stop().catch(() => {})));
  fs.rmSync(TMP, { recursive: true, force: true });
}

runBench(main, cleanup);
