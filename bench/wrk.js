// wrk, the load generator of bench/run.js when it is installed: which tool measures, the Lua
// script of a workload, a run pinned to its own core, and its report parsed into the shape of
// autocannon's (lib.js `summarize`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH, cpuMs, which } from './lib.js';

/**
 * The load generator to use: wrk pinned to core 1 with the server pinned to core 0 when wrk and
 * taskset are installed and the machine has two cores; autocannon otherwise (or when
 * BENCH_LOAD=autocannon). `reason` says why, for the report.
 * @returns {{ tool: 'wrk' | 'autocannon', reason: string, wrk?: string, taskset?: string }}
 */
export function chooseLoadTool(forced) {
  const wrk = which('wrk');
  const taskset = which('taskset');
  if (forced === 'autocannon') return { tool: 'autocannon', reason: 'BENCH_LOAD=autocannon' };
  const missing = [wrk ? '' : 'wrk (apt-get install wrk)', taskset ? '' : 'taskset (util-linux)'].filter(Boolean);
  if (missing.length) return { tool: 'autocannon', reason: `not installed: ${missing.join(', ')}` };
  if (os.availableParallelism() < 2) return { tool: 'autocannon', reason: 'fewer than 2 cores to pin the server and wrk apart' };
  return { tool: 'wrk', reason: 'wrk and taskset found', wrk, taskset };
}

/**
 * A wrk Lua script (written to a temp file) sending `method path` with the API key and, for a
 * POST, a JSON body: the same body every time, or with `uniquePrefix` a new reference each time.
 * @param {{ dir: string, name: string, method: 'GET' | 'POST', path: string, body?: string, uniquePrefix?: string }} options
 */
export function wrkScript({ dir, name, method, path: urlPath, body, uniquePrefix }) {
  const lines = [`wrk.method = "${method}"`, `wrk.path = "${urlPath}"`, `wrk.headers["Authorization"] = "${AUTH.authorization}"`];
  if (body !== undefined || uniquePrefix !== undefined) lines.push('wrk.headers["Content-Type"] = "application/json"');
  if (uniquePrefix !== undefined) {
    // Unique across wrk's threads (setup numbers them) and across runs of the same script.
    lines.push(
      'local threads = 0',
      'function setup(thread) threads = threads + 1; thread:set("tid", threads) end',
      'local run = tostring(os.time())',
      'local n = 0',
      'request = function()',
      '  n = n + 1',
      `  return wrk.format(nil, nil, nil, '{"amount":10,"reference":"${uniquePrefix}-' .. run .. '-' .. tostring(tid) .. '-' .. n .. '"}')`,
      'end',
    );
  } else if (body !== undefined) {
    lines.push(`wrk.body = '${body}'`);
  }
  const file = path.join(dir, `${name}.lua`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * Runs `taskset -c <cpu> wrk -t<threads> -c<connections> -d<seconds>s --latency -s <script> <url>`
 * and parses its report (`output`: the whole of it, with what a script's `done` printed). wrk's
 * CPU is sampled from /proc while it runs (the last sample is at most 100 ms before it exits).
 * @param {{ url: string, script: string, connections: number, threads: number, seconds: number, cpu: number, tool: { wrk?: string, taskset?: string } }} options
 */
export async function wrkLoad({ url, script, connections, threads, seconds, cpu, tool }) {
  const args = [
    '-c',
    String(cpu),
    /** @type {string} */ (tool.wrk),
    `-t${threads}`,
    `-c${connections}`,
    `-d${seconds}s`,
    '--timeout',
    '30s',
    '--latency',
    '-s',
    script,
    url,
  ];
  const child = spawn(/** @type {string} */ (tool.taskset), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c) => (out += c));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c) => (err += c));
  let loadCpuMs = 0;
  const sampler = setInterval(() => {
    const ms = cpuMs(child.pid);
    if (ms !== undefined) loadCpuMs = ms;
  }, 100);
  /** @type {number | null} */
  const code = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  clearInterval(sampler);
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${err.trim() || out.trim()}`);
  return { ...parseWrk(out), loadCpuMs, output: out };
}

/** wrk's durations ("812.00us", "1.20ms", "2.00s") in ms. */
function wrkMs(text) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

/** The numbers of a wrk report, in the shape of `summarize` (autocannon's). */
export function parseWrk(text) {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(text);
  const completed = Number(total?.[1] ?? Number.NaN);
  const seconds = (wrkMs(`${total?.[2]}${total?.[3]}`) ?? Number.NaN) / 1000;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const errors = socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0;
  const timeouts = socket ? Number(socket[4]) : 0;
  const percentile = (p) => {
    const m = new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(text);
    return m ? Math.round((wrkMs(m[1]) ?? Number.NaN) * 100) / 100 : undefined;
  };
  const latencyLine = /^\s+Latency\s+(\S+)\s+\S+\s+(\S+)/m.exec(text);
  return {
    rps: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? Number.NaN)),
    completed,
    ok: completed - non2xx,
    non2xx,
    errors,
    timeouts,
    seconds,
    latency: {
      p50: percentile(50),
      p90: percentile(90),
      p99: percentile(99),
      max: wrkMs(latencyLine?.[2]),
      mean: wrkMs(latencyLine?.[1]),
    },
  };
}
