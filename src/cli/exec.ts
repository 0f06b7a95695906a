import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { parseDuration } from '../clock/duration.js';
import { ConfigError } from '../config/load.js';
import { startEmulator } from '../emulator.js';
import { EVENT_NAMES } from '../modules.js';
import { uiHost } from '../ui/host.js';
import { LogFileError, openFileLog } from '../ui/log.js';
import { keepCompiledCode } from './compiled-code.js';
import { CliError, EXIT } from './errors.js';
import { stopWhenOrphaned } from './orphan.js';
import { describeUndelivered, EXIT_UNDELIVERED, undeliveredAfter } from './expect-delivered.js';
import { emulatorOptions, type StartOptions } from './start-options.js';

/**
 * `payemu exec [start options] -- <command...>`: starts payemu (a free port and in memory unless
 * --port or --data say otherwise), runs the command with PAYEMU_URL, PAYEMU_API_KEY,
 * PAYEMU_LIVE_API_KEY and PAYEMU_WEBHOOK_SECRET set, stops payemu, and exits with the command's
 * code (128 + n when it dies of signal n). SIGINT and SIGTERM are passed on to the command.
 * One that comes while payemu is still starting stops it before the command runs, and exec
 * exits 128 + n as a shell would (not 0: a CI step interrupted before its tests ran has not
 * passed). While payemu starts or closes, a second signal ends exec at once.
 */
export async function exec(
  command: string[],
  options: Partial<StartOptions> & { port?: number; data?: string; expectDelivered?: boolean; settle?: string },
  given: Set<string>,
): Promise<void> {
  // Handled from the first moment (see start.ts): a signal with no listener kills payemu outright.
  let child: ChildProcess | undefined;
  let interrupted: NodeJS.Signals | undefined;
  let exitCode: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (child && exitCode === undefined) return void child.kill(signal);
    if (interrupted) process.exit(exitCode ?? 128 + constants.signals[interrupted]); // a second one: stop now
    interrupted = signal;
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // Under npx, SIGTERM reaches npx and its shell but not payemu (see orphan.ts).
  stopWhenOrphaned((parent) => {
    process.stderr.write(`payemu: the process that started it (pid ${parent}) is gone; stopping\n`);
    onSignal('SIGTERM');
  });

  if (command.length === 0) throw new CliError('payemu exec needs a command after --, e.g. payemu exec -- npm test', EXIT.usage);
  let fileLog: ReturnType<typeof openFileLog> | undefined;
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    // Opened first: a --log path that cannot be written fails before anything starts.
    fileLog = options.log === undefined ? undefined : openFileLog(options.log);
    emulator = await startEmulator({
      ...emulatorOptions(options),
      port: given.has('port') ? options.port : 0,
      inMemory: !given.has('data'),
      dataDir: options.data,
    });
  } catch (error) {
    fileLog?.close();
    throw new CliError((error as Error).message, error instanceof ConfigError || error instanceof LogFileError ? EXIT.usage : EXIT.refused);
  }
  fileLog?.attach(uiHost(emulator, EVENT_NAMES));
  if (interrupted) {
    await emulator.close();
    fileLog?.close();
    process.exit(128 + constants.signals[interrupted]);
  }
  process.stderr.write(`payemu listening on ${emulator.url}\n`);
  const running = spawn(command[0]!, command.slice(1), {
    stdio: 'inherit',
    env: {
      ...process.env,
      PAYEMU_URL: emulator.url,
      PAYEMU_API_KEY: emulator.keys.test,
      PAYEMU_LIVE_API_KEY: emulator.keys.live,
      PAYEMU_WEBHOOK_SECRET: emulator.webhookSecret,
    },
  });
  child = running;
  keepCompiledCode(); // for the next start, while the command starts
  let code = await new Promise<number>((resolve) => {
    running.once('error', (error) => {
      process.stderr.write(`payemu: cannot run ${command[0]}: ${error.message}\n`);
      resolve(127);
    });
    running.once('exit', (status, signal) => resolve(status ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
  exitCode = code;
  // --expect-delivered: a run whose command passed still fails when a webhook was never acknowledged.
  if (code === 0 && options.expectDelivered) {
    const settle = options.settle ?? '10s';
    const undelivered = await undeliveredAfter(emulator, parseDuration(settle) ?? 10_000);
    if (undelivered.length > 0) {
      process.stderr.write(describeUndelivered(undelivered, settle));
      code = EXIT_UNDELIVERED;
    }
  }
  await emulator.close();
  fileLog?.close();
  process.exit(code);
}
