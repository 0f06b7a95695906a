import { Command, InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';

/**
 * The `payemu` command line. Each command lives in its own file and is imported only when it
 * runs, so `payemu --help` loads nothing but commander.
 */
export function main(argv: string[]): void {
  const program = new Command('payemu')
    .description('A local, stateful sandbox of the payment-acceptance API: checkout, payments, webhooks and a virtual clock.')
    .version(version(), '-v, --version')
    .showHelpAfterError();

  program
    .command('start')
    .description('Start the emulator (prints its URL and keys, then a log of requests and events).')
    .option('-p, --port <port>', 'port to listen on (0 picks a free port)', port, 4242)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data <dir>', 'data directory of the file-backed store', '.payemu')
    .option('--in-memory', 'keep nothing on disk')
    .option('--config <file>', 'config file merged onto the defaults (default: ./payemu.config.json when present)')
    .option('--webhook-url <url>', 'send webhooks here for every Source that has no webhook_url in its config')
    .option('--webhook-backoff <list>', 'waits before retries 1, 2 and 3', '1s,5s,25s')
    .option('--webhook-timeout <duration>', 'how long a webhook delivery may take', '10s')
    .option('--strict-webhook-urls', 'refuse private and reserved webhook addresses, as the real service does')
    .option('--rate-limit', "answer 429 once a Source's rate_limit_per_minute is used up")
    .option('--clock-start <timestamp>', 'where the virtual clock starts on a new data directory (ISO 8601)')
    .option('--freeze-clock', 'the virtual clock moves only when advanced')
    .option('--no-ui', 'plain log lines instead of the terminal UI')
    .option('--json', 'log one JSON object per line')
    .addHelpText('after', '\nThe first line on stdout is `payemu listening on http://HOST:PORT` once requests are served\n(with --json: {"type":"listening","url":...}). SIGINT and SIGTERM stop it cleanly with exit code 0.')
    .action(async (options) => (await import('./start.js')).start(options));

  program.parseAsync(argv).catch((error: Error) => {
    process.stderr.write(`payemu: ${error.message}\n`);
    process.exitCode = 1;
  });
}

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be a port number from 0 to 65535.');
  return n;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
