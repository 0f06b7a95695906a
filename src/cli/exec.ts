import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { ConfigError, resolveConfigFile } from '../config/load.js';
import { startEmulator } from '../emulator.js';
import { CliError, EXIT } from './client.js';
import type { StartOptions } from './start.js';

/**
 * `payemu exec [start options] -- <command...>`: starts payemu (a free port and in memory unless
 * --port or --data say otherwise), runs the command with PAYEMU_URL, PAYEMU_API_KEY,
 * PAYEMU_LIVE_API_KEY and PAYEMU_WEBHOOK_SECRET set, stops payemu, and exits with the command's
 * code (128 + n when it dies of signal n). SIGINT and SIGTERM are passed on to the command.
 */
export async function exec(command: string[], options: Partial<StartOptions> & { port?: number; data?: string }, given: Set<string>): Promise<void> {
  if (command.length === 0) throw new CliError('payemu exec needs a command after --, e.g. payemu exec -- npm test', EXIT.usage);
  let emulator;
  try {
    emulator = await startEmulator({
      port: given.has('port') ? options.port : 0,
      host: options.host,
      allowedHosts: options.allowedHost,
      inMemory: !given.has('data'),
      dataDir: options.data,
      config: resolveConfigFile(options.config, process.cwd()),
      webhookUrl: options.webhookUrl,
      webhookBackoff: options.webhookBackoff,
      webhookTimeout: options.webhookTimeout,
      strictWebhookUrls: options.strictWebhookUrls,
      rateLimit: options.rateLimit,
      clockStart: options.clockStart,
      freezeClock: options.freezeClock,
    });
  } catch (error) {
    throw new CliError((error as Error).message, error instanceof ConfigError ? EXIT.usage : EXIT.refused);
  }
  process.stderr.write(`payemu listening on ${emulator.url}\n`);
  const child = spawn(command[0]!, command.slice(1), {
    stdio: 'inherit',
    env: {
      ...process.env,
      PAYEMU_URL: emulator.url,
      PAYEMU_API_KEY: emulator.keys.test,
      PAYEMU_LIVE_API_KEY: emulator.keys.live,
      PAYEMU_WEBHOOK_SECRET: emulator.webhookSecret,
    },
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  const code = await new Promise<number>((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`payemu: cannot run ${command[0]}: ${error.message}\n`);
      resolve(127);
    });
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
  process.off('SIGINT', onInt);
  process.off('SIGTERM', onTerm);
  await emulator.close();
  process.exit(code);
}
