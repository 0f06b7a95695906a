import { Chalk } from 'chalk';
import type { BusEvents } from '../bus/bus.js';
import { formatTimestamp } from '../clock/format.js';
import type { UiHost } from './host.js';

/**
 * The plain and --json outputs of `payemu start`. Both only subscribe to the bus; the first
 * line is the readiness contract scripts wait for: `payemu listening on http://HOST:PORT`.
 */
export function createLogger(emulator: UiHost, options: { json: boolean; color: boolean }) {
  // Log lines are gathered and written once per turn of the event loop: under load that is one
  // write(2) for many requests instead of one each (stdout on a pipe or file is synchronous).
  // What is pending is written before the readiness and stop lines and at process exit.
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    process.stdout.write(text);
  };
  const out = (line: string) => {
    flush();
    process.stdout.write(`${line}\n`);
  };
  const queue = (line: string) => {
    pending += `${line}\n`;
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  process.once('exit', flush);
  const paint = palette(options.color);
  const time = () => emulator.clock.now().slice(11, 19);

  return {
    ready() {
      if (options.json) {
        out(JSON.stringify({ type: 'listening', url: emulator.url, data_dir: emulator.dataDir ?? null, clock: emulator.clock.now(), sources: emulator.sources }));
      } else {
        out(`payemu listening on ${emulator.url}`);
        out(`  store   ${emulator.dataDir ? emulator.dataDir : 'in memory (nothing is kept)'}`);
        out(`  clock   ${emulator.clock.now()}`);
        for (const s of emulator.sources) {
          out(`  ${s.slug.padEnd(8)}${s.name}: test key ${s.test_key}  live key ${s.live_key}  webhook secret ${s.webhook_secret}`);
        }
      }
      subscribe();
    },
    stopped() {
      if (options.json) out(JSON.stringify({ type: 'stopped' }));
      else out('payemu stopped');
    },
  };

  function subscribe() {
    const log = <K extends keyof BusEvents>(name: K, text: (e: BusEvents[K]) => string) =>
      emulator.bus.on(name, (e) => queue(options.json ? JSON.stringify({ type: name, ...jsonOf(e) }) : `${time()} ${text(e)}`));
    log('request', (e) => `${paint.status(e.status)(`${e.status}`)} ${e.method} ${e.path} ${e.ms.toFixed(1)}ms${e.source ? ` ${paint.dim(`${e.source}/${e.mode}`)}` : ''}`);
    log('domain', (e) => `${paint.event(e.name)} ${paint.dim(`${e.source}/${e.mode}`)} ${summary(e.data)}`);
    log('webhook.attempt', ({ event, attempt }) =>
      attempt
        ? `${paint.dim('webhook')} ${event.event} -> ${attempt.url} ${attempt.status === null ? paint.error(attempt.error ?? 'failed') : paint.status(attempt.status)(String(attempt.status))} ${attempt.duration_ms}ms ${event.delivery_status}`
        : `${paint.dim('webhook')} ${event.event}: no webhook endpoint for ${event.source}`);
    log('clock.advanced', (e) => `clock advanced to ${formatTimestamp(e.now)} ${JSON.stringify(e.ran)}`);
    log('config.reloaded', (e) => `config reloaded from ${e.path}`);
    log('config.rejected', (e) => paint.error(`config edit rejected, the last valid config stays: ${e.error}`));
    log('server.error', (e) => paint.error(`error in ${e.method} ${e.path}: ${e.stack ?? e.error}`));
    log('store.compacted', (e) => (e.ok ? `store compacted (${e.records} records)` : paint.error(`store compaction failed: ${e.error}`)));
  }
}

function jsonOf(event: object): Record<string, unknown> {
  const e = event as Record<string, unknown>;
  return 'at' in e && typeof e.at === 'number' ? { ...e, at: formatTimestamp(e.at) } : 'now' in e && typeof e.now === 'number' ? { ...e, now: formatTimestamp(e.now) } : e;
}

function summary(data: Record<string, unknown>): string {
  return ['reference', 'amount', 'currency', 'status'].map((k) => data[k]).filter((v) => v !== undefined).join(' ');
}

function palette(color: boolean) {
  const c = new Chalk({ level: color ? 1 : 0 });
  return {
    status: (status: number) => (status >= 500 ? c.red : status >= 400 ? c.yellow : c.green),
    event: c.cyan,
    dim: c.dim,
    error: c.red,
  };
}
