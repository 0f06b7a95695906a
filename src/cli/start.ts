import { ConfigError, resolveConfigFile } from '../config/load.js';
import { startEmulator, type Emulator } from '../emulator.js';
import { createLogger } from '../ui/log.js';

export interface StartOptions {
  port: number;
  host: string;
  data: string;
  inMemory?: boolean;
  config?: string;
  rateLimit?: boolean;
  webhookUrl?: string;
  webhookBackoff: string;
  webhookTimeout: string;
  strictWebhookUrls?: boolean;
  clockStart?: string;
  freezeClock?: boolean;
  ui: boolean;
  json?: boolean;
}

/** `payemu start`: wiring only. */
export async function start(options: StartOptions): Promise<void> {
  // A reader that goes away (`payemu start | head -1`) must not take the emulator down.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

  let emulator: Emulator;
  try {
    emulator = await startEmulator({
      port: options.port,
      host: options.host,
      dataDir: options.data,
      inMemory: options.inMemory === true,
      config: resolveConfigFile(options.config, process.cwd()),
      rateLimit: options.rateLimit,
      webhookUrl: options.webhookUrl,
      webhookBackoff: options.webhookBackoff,
      webhookTimeout: options.webhookTimeout,
      strictWebhookUrls: options.strictWebhookUrls,
      clockStart: options.clockStart,
      freezeClock: options.freezeClock,
    });
  } catch (error) {
    process.stderr.write(`payemu: ${startError(error, options)}\n`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }

  // The terminal UI (issue 8) is not built yet: every run uses the plain (or --json) log.
  const logger = createLogger(emulator, { json: options.json === true, color: process.stdout.isTTY === true && !process.env.CI });
  logger.ready();

  let stopping = false;
  const stop = async () => {
    if (stopping) return process.exit(1); // a second Ctrl+C: stop now
    stopping = true;
    await emulator.close();
    logger.stopped();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function startError(error: unknown, options: StartOptions): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') return `port ${options.port} on ${options.host} is in use (choose another with --port, or --port 0 for a free one)`;
  if (e.code === 'EACCES') return `not allowed to listen on ${options.host}:${options.port}`;
  return e.message ?? String(error);
}
