import path from 'node:path';
import { ConfigError } from '../config/load.js';
import { startEmulator, type Emulator } from '../emulator.js';
import { EVENT_NAMES } from '../modules.js';
import { uiHost } from '../ui/host.js';
import { createLogger, LogFileError, openFileLog } from '../ui/log.js';
import { inCi, wantsTerminalUi } from '../ui/mode.js';
import { colourPalette } from '../ui/palette.js';
import { keepCompiledCode } from './compiled-code.js';
import { emulatorOptions, type StartOptions } from './start-options.js';
import { stopWhenOrphaned } from './orphan.js';

/** `payemu start`: wiring only. */
export async function start(options: StartOptions): Promise<void> {
  // SIGINT and SIGTERM are handled from the first moment, not from the readiness line on: a
  // signal with no listener ends the process on the spot (no exit code, nothing flushed, the
  // lock left behind), and a script that stops payemu as soon as it reads the readiness line
  // would race the listener. A signal during start-up stops payemu as soon as start-up is done.
  let stopWhenStarted = false;
  let onSignal = () => {
    if (stopWhenStarted) process.exit(1); // a second one: stop now
    stopWhenStarted = true;
  };
  process.on('SIGINT', () => onSignal());
  process.on('SIGTERM', () => onSignal());
  // Under npx, SIGTERM reaches npx and its shell but not payemu (see orphan.ts): once the
  // process that started payemu is gone, it stops as on SIGTERM.
  stopWhenOrphaned((parent) => {
    process.stderr.write(`payemu: the process that started it (pid ${parent}) is gone; stopping\n`);
    onSignal();
  });

  // A reader that goes away (`payemu start | head -1`) must not take the emulator down.
  ignoreBrokenPipe(process.stdout);
  ignoreBrokenPipe(process.stderr);

  const env = process.env;
  const ui = wantsTerminalUi({
    ui: options.ui,
    json: options.json === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    env,
  });
  // Colour only for plain lines on a terminal (see palette.ts). Loaded before the server
  // listens: loaded after, requests served while it loads would be missing from the log.
  const colour = !ui && options.json !== true && process.stdout.isTTY === true && !inCi(env) && env.TERM !== 'dumb' && env.NO_COLOR === undefined;
  const palette = colour ? await colourPalette() : undefined;

  let fileLog: ReturnType<typeof openFileLog> | undefined;
  let emulator: Emulator;
  try {
    // Opened first: a --log path that cannot be written fails before anything starts.
    fileLog = options.log === undefined ? undefined : openFileLog(options.log);
    emulator = await startEmulator({
      ...emulatorOptions(options),
      port: options.port,
      dataDir: options.data,
      inMemory: options.inMemory === true,
      // No config file yet: one created in the working directory while payemu runs is picked up.
      configFileIfCreated: options.config === undefined ? path.join(process.cwd(), 'payemu.config.json') : undefined,
    });
  } catch (error) {
    fileLog?.close();
    process.stderr.write(`payemu: ${startError(error, options)}\n`);
    process.exit(error instanceof ConfigError || error instanceof LogFileError ? 2 : 1);
  }
  const host = uiHost(emulator, EVENT_NAMES);
  fileLog?.attach(host);
  if (stopWhenStarted) {
    // Stopped before it was ready: no readiness line, the store closed and its lock released.
    await emulator.close();
    fileLog?.close();
    process.exit(0);
  }

  let stopping = false;
  let output: { stopping?(): void; stopped(): void };
  if (ui) {
    // Ink and React load only here, so --help and plain runs stay fast. React's production
    // build, whatever the shell says: its development build records a performance measure per
    // render and keeps them all, so a UI redrawing under load for hours would grow without end.
    process.env.NODE_ENV = 'production';
    const { startTerminalUi } = await import('../ui/tui.js');
    const view = startTerminalUi(host, { frozen: options.freezeClock === true, onQuit: () => void stop() });
    output = {
      // The terminal is given back before closing: should closing hang, a second Ctrl+C is a
      // real SIGINT again (raw mode off) and stops at once.
      stopping: () => view.stop(),
      stopped: () => process.stdout.write(`payemu stopped (was ${emulator.url})\n`),
    };
  } else {
    const logger = createLogger(host, { json: options.json === true, palette });
    logger.ready();
    output = logger;
  }

  const stop = async () => {
    if (stopping) return process.exit(1); // a second Ctrl+C: stop now
    stopping = true;
    output.stopping?.();
    let code = 0;
    try {
      await emulator.close();
    } catch (error) {
      process.stderr.write(`payemu: ${(error as Error).message}\n`);
      code = 1;
    }
    fileLog?.close();
    output.stopped();
    process.exit(code);
  };
  onSignal = () => void stop();
  if (stopWhenStarted) void stop(); // a signal while the terminal UI was loading
  keepCompiledCode(); // now that payemu is ready, for the next start
}

function startError(error: unknown, options: StartOptions): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') return `port ${options.port} on ${options.host} is in use (choose another with --port, or --port 0 for a free one)`;
  if (e.code === 'EACCES') return `not allowed to listen on ${options.host}:${options.port}`;
  return e.message ?? String(error);
}

function ignoreBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
