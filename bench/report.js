// The report of bench/run.js: every server's rates with their ratio to the bare server, CPU per
// request and start-up, then each goal of docs/performance.md as met or missed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const fmt = (n, digits = 0) =>
  n === undefined || n === null || Number.isNaN(n)
    ? 'n/a'
    : Number(n).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (n) => (n === undefined || Number.isNaN(n) ? 'n/a' : `${Math.round(n * 100)}%`);

export function report(results, settings) {
  const { load, loadReason, threads, connections, pinned, seconds, warmup, postBody, seed, paid: paidCount, quietCores, keepNodeEnv } = settings;
  const { bare, file, memory, stored, paid, config, year, namespaces, snapshot } = results;
  const wrk = load === 'wrk';
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
    (wrk
      ? `load: wrk -t${threads} -c${connections} pinned to core ${pinned?.load} (taskset), servers pinned to core ${pinned?.server}`
      : `load: autocannon, ${connections} connections, not pinned (fallback: ${loadReason}; rates of fast servers are capped by autocannon itself)`) +
      `; ${seconds} s per measurement after ${warmup} s warm-up, POST body: ${postBody}` +
      `${keepNodeEnv || !process.env.NODE_EXTRA_CA_CERTS ? '' : ', servers started without NODE_EXTRA_CA_CERTS'}`,
  );
  lines.push('');
  if (bare) {
    const ratio = (r, b) => (r && b ? fmt(r.rps / b.rps, 2) : 'n/a');
    lines.push(`Requests per second, and the ratio to the bare server measured in this run (${load}):`);
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
    `CPU during the measurements, in cores (server / ${load} / everything else on the machine), server CPU per request, and the CPU the server used from spawn to its first answer:`,
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
      `POST /v1/sessions with ${fmt(seed)} stored vs empty`,
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
      `${fmt(year.wallS, 1)} s (${fmt(year.cpuS, 1)} s of CPU, ${fmt(year.cpuPerChargeUs)} µs a charge, GC ${fmt(year.gcS, 1)} s)`,
      '< 10 s',
      year.wallS < 10,
    );
    target('peak resident memory of that advance', `${fmt(year.peakRssMb)} MB`, '< 400 MB', year.peakRssMb < 400);
    // The later goal (docs/performance.md, "Recurring billing"): the same peak under 300 MB.
    target('peak resident memory of that advance, the later goal', `${fmt(year.peakRssMb)} MB`, '< 300 MB', year.peakRssMb < 300);
    target('GET /_payemu/health during that advance, slowest', `${fmt(year.slowestHealthMs)} ms`, '< 200 ms', year.slowestHealthMs < 200);
  }
  if (snapshot) {
    // Wall time against the restart's, as the goal says (medians of bench/snapshot.js's rounds); the CPU, which holds better on a busy machine, beside it.
    for (const step of /** @type {const} */ (['export', 'import'])) {
      const s = snapshot[step];
      target(
        `snapshot ${step} of ${fmt(snapshot.payments)} payments, file-backed, / restart on them`,
        `${fmt(s.ofRestart, 1)} (${fmt(s.ms)} ms against ${fmt(snapshot.restart.ms)}; CPU ${fmt(s.cpuMs)} against ${fmt(snapshot.restart.cpuMs)} ms; peak ${fmt(s.peakMb)} MB${s.eachRound ? `; medians of ${snapshot.rounds} rounds, each round ${s.eachRound.join(', ')}` : ''})`,
        '<= 3',
        s.ofRestart <= 3,
      );
    }
  }
  for (const [row, what] of [
    [stored, `${fmt(seed)} stored sessions`],
    [paid, `${fmt(paidCount)} stored paid payments`],
  ]) {
    if (!row) continue;
    target(
      `restart to first answer, ${what}`,
      `${fmt(row.startup.medianMs)} ms (${fmt(row.startup.cpuMedianMs)} ms of CPU)`,
      '< 500 ms',
      row.startup.medianMs < 500,
    );
    // Node itself differs by version (a bare server: 44 MB on Node 20, 60 MB on Node 24): the
    // part above it is payemu's.
    const aboveBare = bare?.rssMbAfterStart === undefined ? '' : `; ${fmt(row.rssMb.afterRestart - bare.rssMbAfterStart, 1)} MB above bare node:http`;
    target(
      `resident memory after that restart and its first POST /v1/sessions, ${what}`,
      `${fmt(row.rssMb.afterRestart, 1)} MB (after seeding ${fmt(row.rssMb.afterSeeding, 1)}${aboveBare})`,
      '< 150 MB (stretch < 120 MB)',
      row.rssMb.afterRestart < 150,
    );
  }
  if (namespaces) namespaceTargets(namespaces, target);
  lines.push('| target | measured | goal | |');
  lines.push('|---|---|---|---|');
  for (const t of targets) lines.push(`| ${t.name} | ${t.measured} | ${t.goal} | ${t.met ? 'met' : '**missed**'} |`);
  lines.push('');

  if (bare && file) lines.push(`Bare node:http start-up to first answer: ${fmt(bare.startup.medianMs)} ms (the floor: node itself).`);
  if (file && file.startup.runsMs.length > 1)
    lines.push(
      `payemu's first start of the run, with no code cache yet (it writes one; the later starts read it): ${fmt(file.startup.runsMs[0])} ms to the first answer.`,
    );
  if (bare?.rssMbAfterStart !== undefined)
    lines.push(`Bare node:http resident memory after start-up and one POST: ${fmt(bare.rssMbAfterStart, 1)} MB (node itself).`);
  if (stored) {
    lines.push(
      `Seeding: ${fmt(seed)} sessions through the API in ${stored.seeding.seconds} s (${fmt(stored.seeding.rps)} req/s); data directory ${stored.dataDirMb} MB. ` +
        `RSS: ${stored.rssMb.afterSeeding} MB after seeding, ${stored.rssMb.afterRestart} MB after a restart on it and its first POST, ${stored.rssMb.afterMeasurement} MB after the measurements on top (more sessions by then).`,
    );
  }
  if (paid) {
    lines.push(
      `Paid payments: ${fmt(paidCount)} seeded through the API in ${paid.seeding.seconds} s; stop (with its snapshot) ${fmt(paid.stopMs)} ms; data directory ${paid.dataDirMb} MB; ` +
        `restart ${fmt(paid.startup.medianMs)} ms (${paid.startup.runsMs.join(', ')}), RSS ${paid.rssMb.afterRestart} MB after it and its first POST` +
        (paid.rssMb.atRest
          ? `, ${paid.rssMb.atRest.mb} MB at rest (the lowest over ${settings.restSeconds} s idle, reached after ${paid.rssMb.atRest.afterSeconds} s).`
          : '.'),
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
      if (r && r.otherCpuCores > quietCores)
        lines.push(`Noise: during ${row.label} ${name}, other processes used ${fmt(r.otherCpuCores, 2)} of the ${os.cpus().length} cores.`);
      if (r?.coreSpeedOfFirst !== undefined && r.coreSpeedOfFirst < 0.8)
        lines.push(
          `Noise: around ${row.label} ${name}, the server's core ran plain JavaScript at ${Math.round(r.coreSpeedOfFirst * 100)} % of its speed at the run's first measurement (the machine, not payemu: measure again).`,
        );
    }
  }
  return { text: lines.join('\n'), targets };
}

/**
 * The goals of bench/namespaces.js's figures (docs/performance.md, "Namespaces").
 * @param {{ memory?: any, first?: any, workers?: any }} figures
 * @param {(name: string, measured: string, goal: string, met: boolean) => void} target
 */
export function namespaceTargets({ memory, first, workers }, target) {
  for (const m of memory ? [memory.inMemory, memory.file] : []) {
    target(
      `memory of an empty namespace, ${m.file ? 'file-backed' : 'in memory'} (${m.count} made, heapUsed + external)`,
      `${fmt(m.bytesPerNamespace / 1024, 1)} KB (resident ${fmt(m.rssBytesPerNamespace / 1024, 1)} KB)`,
      '< 100 KB',
      m.bytesPerNamespace < 100 * 1024,
    );
  }
  for (const f of first ? [first.file, first.inMemory] : []) {
    target(
      `first request in a new namespace, ${f.label}: median over ${f.count}, against one in an existing namespace`,
      `${fmt(f.extraMs, 2)} ms more (${fmt(f.firstMedianMs, 2)} / ${fmt(f.existingMedianMs, 2)} ms; server CPU ${fmt(f.firstCpuUs)} / ${fmt(f.existingCpuUs)} µs)`,
      '< 1 ms more',
      f.extraMs < 1,
    );
  }
  if (workers) {
    const sum = (list) => list.reduce((a, b) => a + b, 0);
    target(
      `${workers.connections} connections of durable POST /v1/sessions, one to each of ${workers.connections} namespaces against all to one`,
      `${fmt(workers.ratio, 2)} (${workers.spreadRps.map((n) => fmt(n)).join(' + ')} / ${workers.aloneRps.map((n) => fmt(n)).join(' + ')} requests/s; server CPU ${fmt(sum(workers.spreadCpuUs) / workers.rounds)} / ${fmt(sum(workers.aloneCpuUs) / workers.rounds)} µs a request)`,
      '>= 0.80',
      workers.ratio >= 0.8,
    );
    target(
      `cross-talk between those ${workers.connections} namespaces, each advancing its own clock`,
      workers.crossTalk.length ? workers.crossTalk.join('; ') : `none${workers.errors ? ` (${workers.errors} errors)` : ''}`,
      'none',
      workers.crossTalk.length === 0 && workers.errors === 0,
    );
  }
}

/** The raw numbers of a run, with the machine they were measured on, as JSON in `out`; returns `out`. */
export function writeResults(out, { settings, results, targets }) {
  const machine = {
    node: process.version,
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model,
    totalMemMb: Math.round(os.totalmem() / 1024 / 1024),
    loadavg: os.loadavg(),
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), machine, settings, results, targets }, null, 2)}\n`);
  return out;
}
