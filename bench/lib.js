// Helpers of the benchmarks: start a server as a child process and time it to its first answer,
// drive load with autocannon (wrk: wrk.js), seed data. A process's CPU and resident memory: proc.js.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { cpuMs } from './proc.js';
import { AUTH, request } from './request.js';

export { cpuMs, elapsedMs, machineBusyMs, restingRss, rssMb } from './proc.js';
export { AUTH, KEY, request } from './request.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A port that was free a moment ago (the server must be told its port before it starts, so
 * the start-up probe can knock on it from the first millisecond). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * @typedef {object} BenchServer A server started by startServer.
 * @property {string} kind
 * @property {number} spawnedAt
 * @property {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable>} child
 * @property {number | undefined} pid
 * @property {string} url
 * @property {number} port
 * @property {number | undefined} readyLineMs
 * @property {number | undefined} startupMs
 * @property {number | undefined} [startupCpuMs]
 * @property {number} stdoutLines
 * @property {{ atMs: number, line: string }[]} compactions
 * @property {string} stderr
 * @property {boolean} exited
 * @property {() => Promise<{ code: number | null, signal: NodeJS.Signals | null }>} stop
 */

/**
 * Starts a server in a child process and measures start-up: from just before `spawn` to the
 * first HTTP 200 (the probe retries every millisecond until the port answers). Also records
 * when the child printed its readiness line. The child's stdout (a log line per request) is
 * drained for the whole life of the child.
 *
 * kind: 'bare' | 'payemu'; payemu options: { dataDir, inMemory, configFile, nodeArgs, args (more
 * options of `payemu start`), root (another checkout of payemu, built, to run instead of this
 * one) }; `cpu`: run the
 * server pinned to that core (spawned through `taskset -c <cpu>`, which execs node: same pid).
 */
/**
 * @param {'bare' | 'payemu'} kind
 * @param {{ dataDir?: string, inMemory?: boolean, configFile?: string, nodeArgs?: string[], args?: string[], cpu?: number, root?: string, env?: NodeJS.ProcessEnv }} [options]
 * @returns {Promise<BenchServer>}
 */
export async function startServer(kind, options = {}) {
  const port = /** @type {number} */ (await freePort());
  const nodeArgs = options.nodeArgs ?? [];
  const args =
    kind === 'bare'
      ? [...nodeArgs, 'bench/bare-server.js', String(port)]
      : [
          ...nodeArgs,
          'bin/payemu.js',
          'start',
          '--port',
          String(port),
          '--no-ui',
          ...(options.configFile ? ['--config', options.configFile] : []),
          ...(options.args ?? []),
          ...(options.inMemory ? ['--in-memory'] : ['--data', /** @type {string} */ (options.dataDir)]),
        ];
  const probePath = kind === 'bare' ? '/' : '/_payemu/health';

  const t0 = performance.now();
  const [command, argv] =
    options.cpu === undefined ? [process.execPath, args] : [/** @type {string} */ (which('taskset')), ['-c', String(options.cpu), process.execPath, ...args]];
  const child = spawn(command, argv, { cwd: options.root ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...childEnv(), ...options.env } });
  /** @type {BenchServer} */
  const server = {
    kind,
    spawnedAt: t0,
    child,
    pid: child.pid,
    url: `http://127.0.0.1:${port}`,
    port,
    readyLineMs: undefined,
    startupMs: undefined,
    stdoutLines: 0,
    compactions: [],
    stderr: '',
    exited: false,
    stop: async () => ({ code: null, signal: null }), // replaced below, once the child's exit is awaited
  };

  let first = true;
  let partial = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    if (first) {
      first = false;
      server.readyLineMs = performance.now() - t0;
    }
    // Count lines and keep the rare interesting ones; everything else is dropped.
    const text = partial + chunk;
    const lastNewline = text.lastIndexOf('\n');
    partial = lastNewline === -1 ? text : text.slice(lastNewline + 1);
    for (let i = text.indexOf('\n'); i !== -1 && i <= lastNewline; i = text.indexOf('\n', i + 1)) server.stdoutLines++;
    if (chunk.includes('store compact')) {
      for (const line of text.slice(0, lastNewline + 1).split('\n')) {
        if (line.includes('store compact')) server.compactions.push({ atMs: Math.round(performance.now() - t0), line: line.trim() });
      }
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => (server.stderr += chunk));
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  exit.then(() => (server.exited = true));

  server.startupMs = await firstAnswer(port, probePath, t0, () => server.exited);
  // CPU the child used to get there: unlike the wall time, hardly changed by a busy machine.
  server.startupCpuMs = cpuMs(child.pid);
  if (server.startupMs === undefined) {
    throw new Error(`${kind} did not start: ${server.stderr.trim() || 'exited'}`);
  }

  server.stop = async () => {
    if (!server.exited) child.kill('SIGTERM');
    const timer = setTimeout(() => server.exited || child.kill('SIGKILL'), 20_000);
    const result = await exit;
    clearTimeout(timer);
    return result;
  };
  return server;
}

/**
 * The servers' environment. NODE_EXTRA_CA_CERTS is dropped (BENCH_KEEP_NODE_ENV=1 keeps it):
 * Node 20 parses that whole certificate bundle when the process starts, before any of the
 * server's code runs (35 to 40 ms on the machine of docs/performance.md, about 100 ms on the
 * slower one it was first measured on, where it is set for every process), which would measure
 * the environment rather than the server.
 * NODE_COMPILE_CACHE is a folder of this run's own, so that payemu's code cache (and Node's
 * compile cache) are what this run's first start wrote, not what an earlier build left.
 */
function childEnv() {
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, NO_COLOR: '1', NODE_COMPILE_CACHE: compileCacheDir() };
  if (!process.env.BENCH_KEEP_NODE_ENV) delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** @type {string | undefined} */
let compileCache;
function compileCacheDir() {
  if (compileCache === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-bench-cache-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    compileCache = dir;
  }
  return compileCache;
}

function firstAnswer(port, path, t0, exited) {
  return new Promise((resolve) => {
    const attempt = () => {
      if (exited()) return resolve(undefined);
      const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        res.resume();
        if (res.statusCode === 200) resolve(performance.now() - t0);
        else setTimeout(attempt, 1);
      });
      req.on('error', () => setTimeout(attempt, 1));
    };
    attempt();
  });
}

/**
 * How fast core `cpu` runs JavaScript now: loops of fixed work per millisecond for 100 ms, in a
 * node pinned there. A virtual machine can lose half a core's speed to a neighbour on the same
 * physical core (its hyperthread) while the guest still sees the core busy and no steal time;
 * this probe is what shows it.
 * @param {number} cpu
 */
export function coreSpeed(cpu) {
  const code = 'let n=0,x=0;const end=performance.now()+100;while(performance.now()<end){for(let i=0;i<1000;i++)x=(x*31+i)|0;n++}console.log(n/100,x===0.5)';
  const out = execFileSync(/** @type {string} */ (which('taskset')), ['-c', String(cpu), process.execPath, '-e', code], { encoding: 'utf8' });
  return Math.round(Number(out.split(' ')[0]));
}

/** A `POST /v1/sessions` request whose every copy carries a new reference. */
export function sessionRequests(prefix) {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v1/sessions',
      headers: { ...AUTH, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: `{"amount":10,"reference":"${prefix}-${n++}"}` }),
    },
  ];
}

/**
 * Runs autocannon and keeps the numbers the report needs: for `seconds`, or until `amount` requests are answered.
 * @param {{ url: string, requests: object[], connections: number, seconds?: number, amount?: number }} options
 */
export async function load({ url, requests, connections, seconds, amount }) {
  const result = await autocannon({
    url,
    connections,
    ...(amount ? { amount } : { duration: seconds }),
    requests,
    timeout: 30,
  });
  return summarize(result);
}

export function summarize(result) {
  return {
    rps: Math.round(result.requests.average),
    completed: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
  };
}

/** The full path of an executable on PATH, or undefined. */
export function which(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {}
  }
  return undefined;
}

/** The reference of the paid payment the GET measurements read (preparePayment). */
export const GET_REFERENCE = 'bench-get';

/** A paid session with the reference the GET measurement reads. */
export async function preparePayment(url) {
  const created = await request(url, 'POST', '/v1/sessions', { amount: 10, reference: GET_REFERENCE });
  if (created.status !== 201) throw new Error(`POST /v1/sessions answered ${created.status}`);
  const paid = await request(url, 'POST', `/_payemu/sessions/${created.json.data.id}/complete`, { card_number: '4242424242424242' });
  if (paid.status !== 200) throw new Error(`complete answered ${paid.status}`);
  const got = await request(url, 'GET', `/v1/payments/${GET_REFERENCE}`);
  if (got.status !== 200) throw new Error(`GET /v1/payments answered ${got.status}`);
}

/** Bytes in a data directory's files. */
export function dirSize(dir) {
  let total = 0;
  for (const name of fs.readdirSync(dir)) total += fs.statSync(path.join(dir, name)).size;
  return total;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Servers started through it and not stopped yet, so that a bench's cleanup stops what a failure
 * left running; `stop` reports a server that did not exit with 0 through `log`.
 * @param {(line: string) => void} log
 */
export function serverSet(log) {
  /** @type {Set<BenchServer>} */
  const running = new Set();
  return {
    /** @param {Parameters<typeof startServer>} args */
    async start(...args) {
      const server = await startServer(...args);
      running.add(server);
      return server;
    },
    /** @param {BenchServer} server */
    async stop(server) {
      const result = await server.stop();
      running.delete(server);
      if (result.code !== 0) log(`  warning: ${server.kind} exited with ${result.code ?? result.signal}: ${server.stderr.trim()}`);
      return result;
    },
    stopAll: () => Promise.all([...running].map((server) => server.stop().catch(() => {}))),
  };
}

/**
 * Runs a bench script of bench/ in a child node of its own (its memory and CPU its own), its
 * stderr shown as it goes; resolves the JSON of the last line it printed on stdout.
 * @param {string[]} args node's arguments: options, the script (from the repository's root), its options
 */
export async function childJson(args) {
  const script = args.find((arg) => arg.startsWith('bench/')) ?? args[0];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '');
}

/** Runs a bench's `main`, then `cleanup` (also on Ctrl-C); a failure is printed, cleaned up after, and the exit code 1. */
export function runBench(main, cleanup) {
  process.on('SIGINT', () => cleanup().then(() => process.exit(130)));
  main().then(
    () => cleanup(),
    async (error) => {
      process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
      await cleanup();
      process.exitCode = 1;
    },
  );
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Stores `count` paid payments through the API, as a user's tests would: each is a
 * `POST /v1/sessions` (a unique reference) then `POST /_payemu/sessions/{id}/complete` with a
 * test card, `connections` chains at a time over keep-alive connections. Set-up, not measured.
 * @param {string} url
 * @param {number} count
 * @param {{ connections?: number, prefix?: string }} [options]
 */
export async function seedPaid(url, count, { connections = 10, prefix = 'paid' } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const call = (method, urlPath, body) =>
    new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = http.request(
        `${url}${urlPath}`,
        { method, agent, headers: { ...AUTH, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () =>
            res.statusCode === 200 || res.statusCode === 201
              ? resolve(JSON.parse(text))
              : reject(new Error(`${method} ${urlPath} answered ${res.statusCode}: ${text}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(data);
    });
  let next = 0;
  const chain = async () => {
    while (next < count) {
      const n = next++;
      const session = await call('POST', '/v1/sessions', { amount: 1000 + (n % 100), reference: `${prefix}-${n}` });
      await call('POST', `/_payemu/sessions/${session.data.id}/complete`, { card_number: '4242424242424242' });
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, chain));
  } finally {
    agent.destroy();
  }
}
