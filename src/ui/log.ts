import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { BusEvents, Heard } from '../bus/bus.js';
import { formatTimestamp } from '../clock/format.js';
import { formatAmount, payloadAmount } from '../lib/money.js';
import type { UiHost, UiTimers } from './host.js';
import { plainPalette, type Palette } from './palette.js';

/** What the loggers write a line for, in the order `payemu start --json` documents them. */
const LOGGED = [
  'request',
  'domain',
  'webhook.attempt',
  'clock.advanced',
  'config.reloaded',
  'config.rejected',
  'server.error',
  'store.compacted',
] as const satisfies readonly (keyof BusEvents)[];

/**
 * How many bytes of lines stdout may hold unwritten before the next are left out (about 70,000
 * lines). Written to a pipe, lines wait in payemu's memory until the reader takes them, at most
 * the pipe's 64 KiB an event-loop turn, however fast it reads: a year of daily billing in one
 * clock advance writes 1.4 million lines, and held they took 300 MB more than payemu itself
 * (its peak 635 to 825 MB against 331 to 367 with stdout sent to a file), and longer advances
 * more. A file or a terminal is written at once, and never holds any.
 */
export const BACKLOG_BYTES = 8 * 1024 * 1024;

/** What the plain and --json outputs write to: stdout, or a stand-in in tests. */
type Out = Pick<Writable, 'write' | 'writableLength' | 'on'>;

/**
 * The plain and --json outputs of `payemu start`. Both only subscribe to the bus; the first
 * line is the readiness contract scripts wait for: `payemu listening on http://HOST:PORT`.
 * While stdout holds BACKLOG_BYTES unwritten, lines are counted and left out (not even
 * formatted); once it has written what it held, one line says how many.
 */
export function createLogger(emulator: UiHost, options: { json: boolean; palette?: Palette; out?: Out }) {
  const out = options.out ?? process.stdout;
  const lines = batched(
    (text) => out.write(text),
    () => emulator.timers,
  );
  process.once('exit', lines.flush);
  let leftOut = 0;
  /** The line counting the lines left out since the last written, if any were. */
  const countLeftOut = () => {
    if (leftOut === 0) return;
    lines.queue(options.json ? JSON.stringify({ type: 'left_out', lines: leftOut }) : `${time()} ${leftOutLine(leftOut)}`);
    leftOut = 0;
  };
  out.on('drain', countLeftOut);
  const paint = options.palette ?? plainPalette;
  // The virtual clock's date and time (UTC), as `payemu events` shows them; the text of the
  // last reading is kept, as a request's line is written on every request.
  let lastNow = '';
  let lastTime = '';
  const time = () => {
    const now = emulator.clock.now();
    if (now !== lastNow) {
      lastNow = now;
      lastTime = now.slice(0, 19).replace('T', ' ');
    }
    return lastTime;
  };

  return {
    ready() {
      if (options.json) {
        lines.write(listeningLine(emulator));
      } else {
        lines.write(`payemu listening on ${emulator.url}`);
        lines.write(`  dashboard ${emulator.url}/_payemu/dashboard`);
        lines.write(`  store   ${emulator.dataDir ? emulator.dataDir : 'in memory (nothing is kept)'}`);
        lines.write(`  clock   ${emulator.clock.now()}`);
        const width = Math.max(6, ...emulator.sources.map((s) => s.slug.length)) + 2;
        for (const s of emulator.sources) {
          lines.write(`  ${s.slug.padEnd(width)}${s.name}: test key ${s.test_key}  live key ${s.live_key}  webhook secret ${s.webhook_secret}`);
          const target = emulator.webhookUrl(s.slug);
          lines.write(
            `  ${''.padEnd(width)}webhooks ${target ? `-> ${target}` : paint.dim('go nowhere: set a URL with --webhook-url URL, or webhook_url in payemu.config.json')}`,
          );
          // Chaos is stored and outlives a restart: a start that inherits it says so.
          for (const mode of ['test', 'live'] as const) {
            const chaos = Object.entries(emulator.webhookChaos?.get({ source: s.slug, mode }) ?? {});
            if (chaos.length > 0) lines.write(`  ${''.padEnd(width)}webhook chaos (${mode}) ${chaos.map(([k, v]) => `${k}=${v}`).join(',')}`);
          }
        }
      }
      for (const name of LOGGED) {
        emulator.bus.on(name, (e: Heard<typeof name>) => {
          if (out.writableLength + lines.pending() > BACKLOG_BYTES) leftOut++;
          else lines.queue(options.json ? jsonLine(name, e) : `${time()} ${plainLine(name, e, paint)}`);
        });
      }
    },
    stopped() {
      // A stop before the reader caught up still says how many lines it missed.
      countLeftOut();
      if (options.json) lines.write(JSON.stringify({ type: 'stopped' }));
      else lines.write('payemu stopped');
    },
  };
}

/**
 * `--log FILE`: the lines of `--json` (listening first, then every request, event, webhook
 * attempt, clock advance, config reload, server error and compaction, `stopped` last) written
 * to FILE, whatever the terminal shows (the terminal UI, plain lines, or nothing, under exec),
 * for CI to keep as an artifact. The file is opened (created, with its folder, or emptied)
 * before payemu starts, so a path that cannot be written fails the start; lines are gathered
 * for at most FLUSH_EVERY_MS and written synchronously, so a stop or an exit loses none.
 */
export function openFileLog(file: string): { attach(emulator: UiHost): void; close(): void } {
  const target = path.resolve(file);
  let fd: number | undefined;
  try {
    makeFolders(path.dirname(target));
    fd = fs.openSync(target, 'w');
  } catch (error) {
    throw new LogFileError(`--log: cannot write ${target}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let timers: UiTimers | undefined;
  const lines = batched(
    (text) => {
      if (fd !== undefined) fs.writeSync(fd, text);
    },
    () => timers,
  );
  const flushAtExit = () => lines.flush();
  process.once('exit', flushAtExit);
  const offs: (() => void)[] = [];
  return {
    attach(emulator) {
      timers = emulator.timers;
      lines.write(listeningLine(emulator));
      for (const name of LOGGED) offs.push(emulator.bus.on(name, (e: BusEvents[typeof name]) => lines.queue(jsonLine(name, e))));
    },
    close() {
      if (fd === undefined) return;
      for (const off of offs) off();
      lines.write(JSON.stringify({ type: 'stopped' }));
      fs.closeSync(fd);
      fd = undefined;
      process.removeListener('exit', flushAtExit);
    },
  };
}

/**
 * The missing folders of `dir`, one level at a time: `mkdirSync(dir, {recursive: true})` loops
 * forever where mkdir answers ENOENT under an existing parent (as in /proc).
 */
function makeFolders(dir: string): void {
  if (fs.existsSync(dir)) return;
  const parent = path.dirname(dir);
  if (parent !== dir) makeFolders(parent);
  fs.mkdirSync(dir);
}

/** A `--log` path that cannot be written: an option error (exit 2). */
export class LogFileError extends Error {
  override name = 'LogFileError';
}

/** How long a queued line may wait for others to share its write: unnoticeable on a terminal. */
const FLUSH_EVERY_MS = 20;

/**
 * Lines gathered and written at most every FLUSH_EVERY_MS: under load that is one write(2) for
 * hundreds of requests instead of one each, or one a turn of the event loop (each write may wake
 * the reader of a pipe: at 20,000 requests a second that was 1 to 2 % of payemu's CPU; what a
 * pipe has no room for waits in memory, see BACKLOG_BYTES). `write` writes what is pending, then
 * its line, at once (the readiness and stop lines); the process's exit writes what is pending.
 * Without timers (not attached yet) a queued line is written at once.
 */
function batched(write: (text: string) => void, timers: () => UiTimers | undefined) {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    flush,
    /** How many characters wait for the next write. */
    pending: () => pending.length,
    queue(line: string) {
      pending += `${line}\n`;
      if (scheduled) return;
      const waits = timers();
      if (waits === undefined) return flush();
      scheduled = true;
      waits.after(FLUSH_EVERY_MS, flush);
    },
    write(line: string) {
      pending += `${line}\n`;
      flush();
    },
  };
}

/** The plain line that stands for the lines stdout could not take in time. */
export const leftOutLine = (count: number) => `${count} log lines left out: stdout was read more slowly than payemu wrote them (--log FILE keeps every line)`;

function listeningLine(emulator: UiHost): string {
  const sources = emulator.sources.map((s) => ({ ...s, webhook_url: emulator.webhookUrl(s.slug) }));
  return JSON.stringify({
    type: 'listening',
    url: emulator.url,
    dashboard: `${emulator.url}/_payemu/dashboard`,
    data_dir: emulator.dataDir ?? null,
    clock: emulator.clock.now(),
    sources,
  });
}

function jsonLine(name: string, event: object): string {
  return JSON.stringify({ type: name, ...jsonOf(event) });
}

/**
 * A plain line's text after its time: a named namespace's start with its key's suffix (`~w3`),
 * so that one worker's lines can be told apart (and grepped); the default's have none. A JSON
 * line carries the bus's `namespace` field as it is, absent for the default.
 */
export function plainLine<K extends (typeof LOGGED)[number]>(name: K, event: Heard<K>, paint: Palette): string {
  const line = text(name, event, paint);
  return event.namespace === undefined ? line : `${paint.dim(`~${event.namespace}`)} ${line}`;
}

function text<K extends (typeof LOGGED)[number]>(name: K, event: BusEvents[K], paint: Palette): string {
  switch (name) {
    case 'request': {
      const e = event as BusEvents['request'];
      return `${paint.status(e.status)(`${e.status}`)} ${e.method} ${e.path} ${e.ms.toFixed(1)}ms${e.source ? ` ${paint.dim(`${e.source}/${e.mode}`)}` : ''}`;
    }
    case 'domain': {
      const e = event as BusEvents['domain'];
      return `${paint.event(e.name)} ${paint.dim(`${e.source}/${e.mode}`)} ${summary(e.data)}`;
    }
    case 'webhook.attempt': {
      const { event: record, attempt } = event as BusEvents['webhook.attempt'];
      return attempt
        ? `${paint.dim('webhook')} ${record.event} -> ${attempt.url} ${attempt.status === null ? paint.error(attempt.error ?? 'failed') : paint.status(attempt.status)(String(attempt.status))} ${attempt.duration_ms}ms ${record.delivery_status}${attempt.chaos ? ` chaos=${attempt.chaos}` : ''}`
        : `${paint.dim('webhook')} ${record.event}: no webhook endpoint for ${record.source}`;
    }
    case 'clock.advanced': {
      const e = event as BusEvents['clock.advanced'];
      return `clock advanced to ${formatTimestamp(e.now)} ${JSON.stringify(e.ran)}`;
    }
    case 'config.reloaded':
      return `config reloaded from ${(event as BusEvents['config.reloaded']).path}`;
    case 'config.rejected':
      return paint.error(`config edit rejected, the last valid config stays: ${(event as BusEvents['config.rejected']).error}`);
    case 'server.error': {
      const e = event as BusEvents['server.error'];
      return paint.error(`error in ${e.method} ${e.path}: ${e.stack ?? e.error}`);
    }
    default: {
      const e = event as BusEvents['store.compacted'];
      return e.ok ? `store compacted (${e.records} records)` : paint.error(`store compaction failed: ${e.error}`);
    }
  }
}

function jsonOf(event: object): Record<string, unknown> {
  const e = event as Record<string, unknown>;
  return 'at' in e && typeof e.at === 'number'
    ? { ...e, at: formatTimestamp(e.at) }
    : 'now' in e && typeof e.now === 'number'
      ? { ...e, now: formatTimestamp(e.now) }
      : e;
}

/** An event's reference, amount (`25.00 USD`; an invoice's total) and status, as far as it has them. */
function summary(data: Record<string, unknown>): string {
  const worth = payloadAmount(data);
  return [data.reference, worth ? formatAmount(worth.amount, worth.currency) : undefined, data.status].filter((v) => v !== undefined).join(' ');
}
