import { Command, Option, type CommanderError } from 'commander';
import { EVENT_NAMES } from './event-names.js';
import { readFileSync } from 'node:fs';
import { packageVersion } from '../lib/version.js';
import { onKeepCompiledCode } from './compiled-code.js';
import { EXIT, toCliError } from './errors.js';
import {
  advanceBy,
  chaosList,
  count,
  duration,
  emulatorUrl,
  faultMethod,
  faultSeed,
  faultStatus,
  faultTimes,
  latency,
  limit,
  namespaceName,
  outcomeSequence,
  port,
  probability,
  requestMethod,
  statusFilter,
} from './option-values.js';

/**
 * The `payemu` command line. Each command lives in its own file and is imported only when it
 * runs, so `payemu --help` loads nothing but commander. Exit codes: 0 done; 1 the emulator
 * refused (or a payment was declined); 2 bad usage or config; 3 no emulator at --url.
 * `keepCompiledCode` (from bin/payemu.js) writes the script's code cache once a start is ready.
 */
export function main(argv: string[], options: { keepCompiledCode?: () => void } = {}): void {
  if (options.keepCompiledCode) onKeepCompiledCode(options.keepCompiledCode);
  const program = new Command('payemu')
    .description('A local, stateful sandbox of the payment-acceptance API: checkout, payments, webhooks and a virtual clock.')
    .version(packageVersion(), '-v, --version')
    .enablePositionalOptions()
    // Usage errors are one line, written by usageError below (set on every command at the end).
    .configureOutput({ outputError: () => {} });

  startOptions(program.command('start'))
    .description('Start the emulator: its URL and keys, then the live terminal UI on a TTY, or a log of requests and events.')
    .option('--json', 'log one JSON object per line')
    .option('--no-ui', 'plain log lines instead of the terminal UI')
    .addHelpText(
      'after',
      '\nThe first line on stdout is `payemu listening on http://HOST:PORT` once requests are served\n(with --json: {"type":"listening","url":...}). SIGINT and SIGTERM stop it cleanly with exit code 0.',
    )
    .action(async (options) => (await import('./start.js')).start(options));

  startOptions(program.command('exec'), { port: 0, data: undefined })
    .description(
      'Start payemu, run a command with PAYEMU_URL, PAYEMU_API_KEY, PAYEMU_LIVE_API_KEY and PAYEMU_WEBHOOK_SECRET set, stop, and exit with its code.',
    )
    .argument('<command...>', 'the command to run, after --')
    .option('--expect-delivered', 'once the command exits 0, exit 3 listing every webhook event not delivered (after waiting for pending ones)')
    .option('--settle <duration>', 'with --expect-delivered: how long to wait for pending and retrying deliveries', duration, '10s')
    .passThroughOptions()
    .addHelpText('after', '\nExample: payemu exec -- npm test\nA free port and an in-memory store unless --port or --data say otherwise.')
    .action(async (command: string[], options, cmd: Command) => {
      const given = new Set(['port', 'data'].filter((name) => cmd.getOptionValueSource(name) === 'cli'));
      await (await import('./exec.js')).exec(command, options, given);
    });

  client(program.command('trigger'))
    .description('Make an event happen through real state changes (a session paid, a schedule advanced, ...).')
    .argument('<event>', 'one of the events below, e.g. payment.completed')
    .option(
      '--set <key=value>',
      "override a value the event's fixture uses: amount, currency, reference, customer_email, metadata.<key>, ... (repeatable; a key the event does not take is refused, naming those it takes)",
      collect,
      [],
    )
    .option('--source <slug>', 'run it as another Source of the merchant')
    .addHelpText('after', () => `\nEvents:\n${eventsHelp()}`)
    .action(async (event: string, options) => (await import('./trigger.js')).trigger(event, options));

  const clock = program.command('clock').description('Show or advance the virtual clock of a running emulator.');
  client(clock.command('show', { isDefault: true }).description('Show the virtual time.')).action(async (options) =>
    (await import('./clock.js')).show(options),
  );
  client(clock.command('advance'))
    .description('Move the clock forward (30d, 12h, 90m, 45s, or --to a timestamp) and run everything that falls due.')
    .argument('[duration]', 'how far: 30d, 12h, 90m, 45s, 250ms, 2w, or a number of seconds', advanceBy)
    .option('--to <timestamp>', 'move the clock to this ISO 8601 timestamp instead (not in the past)')
    .action(async (by: string | undefined, options) => (await import('./clock.js')).advance(by, options));

  client(program.command('pay'))
    .description('Pay as a hosted page would: a session id or checkout URL, a card-update URL, an invoice id or URL, a payment link id or URL.')
    .argument('<target>')
    .option('--card <number>', 'card number (see the test cards in the README)', '4242424242424242')
    .addOption(new Option('--3ds <result>', 'how a 3-D Secure challenge ends').choices(['pass', 'fail']))
    .action(async (target: string, options) => (await import('./pay.js')).pay(target, options));

  const events = client(program.command('events'))
    .description('List recent events and their deliveries; --follow streams them as they happen.')
    .option('-f, --follow', 'stream new events and delivery attempts')
    .addOption(new Option('--event <name>', 'only this event').choices([...EVENT_NAMES]))
    .option('--reference <reference>', 'only events about this reference')
    .option('--limit <n>', 'how many, 1 to 1000 (default 100)', limit)
    .action(async (options) => (await import('./events.js')).list(options));
  client(events.command('resend'))
    .description('Deliver an event again, with the same event id.')
    .argument('<id>')
    .action(async (id: string, options) => (await import('./events.js')).resend(id, options));

  const outcome = program.command('outcome').description('Script the outcomes of the next card payment attempts (a card, a schedule, a reference).');
  client(outcome.command('add'))
    .description('Make the next payment attempts on one target take these outcomes in order, then the card decides again.')
    .option('--payment-method <pm>', 'a saved card (pm_...): its charges, recurring or not')
    .option('--schedule <reference>', "a recurring payment's charges")
    .option('--reference <reference>', 'the attempts at one payment reference (checkout, charge, invoice id)')
    .requiredOption(
      '--sequence <list>',
      'comma-separated: approved, insufficient_funds, card_declined, expired_card, incorrect_cvc, authentication_failed, card_not_supported',
      outcomeSequence,
    )
    .action(async (options) => (await import('./outcome.js')).add(options));
  client(outcome.command('list'))
    .description('List the scripted outcomes and the steps left.')
    .action(async (options) => (await import('./outcome.js')).list(options));
  client(outcome.command('clear'))
    .description('Remove every scripted outcome.')
    .action(async (options) => (await import('./outcome.js')).clear(options));

  client(program.command('export'))
    .description("Export a running emulator's state as a snapshot (the key's Source and mode, or everything): JSON on stdout, or to --out FILE.")
    .option('--all', 'every Source and mode, and the clock')
    .option('--out <file>', 'write the snapshot to FILE instead of stdout')
    .action(async (options) => (await import('./snapshot.js')).exportState(options));
  client(program.command('import'))
    .description("Replace a running emulator's state with a snapshot: the Source and mode it was taken of, or everything and the clock for an --all one.")
    .argument('<file>', 'a snapshot written by payemu export (or --export-on-exit)')
    .action(async (file: string, options) => (await import('./snapshot.js')).importState(file, options));
  const chaos = program
    .command('webhook-chaos')
    .description('Show, set or clear the webhook chaos (duplicates, delays, stale timestamps, bad signatures) of a running emulator.');
  client(chaos.command('show', { isDefault: true }).description("Show the webhook chaos of the key's Source and mode.")).action(async (options) =>
    (await import('./webhook-chaos.js')).show(options),
  );
  client(chaos.command('set'))
    .description("Replace the webhook chaos of the key's Source and mode.")
    .argument('<list>', 'duplicate=P,delay=DURATION,stale_timestamp=P,bad_signature=P,seed=N (P from 0 to 1; each optional)')
    .action(async (list: string, options) => (await import('./webhook-chaos.js')).set(list, options));
  client(chaos.command('clear'))
    .description("Turn the webhook chaos of the key's Source and mode off.")
    .action(async (options) => (await import('./webhook-chaos.js')).clear(options));

  const webhook = program
    .command('webhook')
    .description("Show, set or clear where the key's Source's webhooks go (both modes), over the config's webhook_url and --webhook-url.");
  client(webhook.command('show', { isDefault: true }).description("Show where the key's Source's webhooks go, and whether that was set here.")).action(
    async (options) => (await import('./webhook.js')).show(options),
  );
  client(webhook.command('set'))
    .description("Send the key's Source's webhooks to URL, in both modes, over the config's webhook_url and --webhook-url.")
    .argument('<url>', 'an absolute http:// or https:// URL, without credentials or a fragment, e.g. http://127.0.0.1:3001/webhooks')
    .action(async (url: string, options) => (await import('./webhook.js')).set(url, options));
  client(webhook.command('clear'))
    .description("Send the key's Source's webhooks where the config says again (its webhook_url, else --webhook-url).")
    .action(async (options) => (await import('./webhook.js')).clear(options));

  program
    .command('verify-handler')
    .description(
      'Grade a webhook receiver: signed deliveries of a real event (valid, wrong signature, stale t=, changed body, no signature, twice, an unhandled event); exit 0 only when every check passes.',
    )
    .argument('<url>', 'where the receiver listens, e.g. http://localhost:3000/webhooks')
    .option('--secret <secret>', 'the webhook secret the receiver verifies with', 'whsec_payemu_acme')
    .addOption(new Option('--event <name>', 'the event to deliver').choices([...EVENT_NAMES]).default('payment.completed'))
    .option('--timeout <duration>', 'how long each answer may take', '10s')
    .option('--json', 'print {"passed", "checks": [{"name", "passed", "detail"}]}')
    .addHelpText('after', '\nExit codes: 0 every check passed; 1 a check failed; 2 bad usage; 3 nothing answers at the URL.')
    .action(async (url: string, options) => (await import('./verify-handler.js')).verifyHandler(url, options));

  const requests = client(program.command('requests'))
    .description("List the /v1 requests the emulator received (the key's Source and mode), newest first; --follow prints new ones as they come.")
    .option('--method <method>', 'only this method (GET, POST, ...)', requestMethod)
    .option('--path <path>', 'only this path; * stands for one segment, ** for the rest: /v1/payments/*/refunds')
    .option('--status <status>', 'only this status (422) or class (4xx)', statusFilter)
    .option('--limit <n>', 'how many, 1 to 1000 (default 100)', limit)
    .option('-f, --follow', 'print new requests as they come (Ctrl+C to stop)')
    .action(async (options) => (await import('./requests.js')).list(options));
  client(requests.command('clear'))
    .description("Empty the request journal of the key's Source and mode.")
    .action(async (options) => (await import('./requests.js')).clear(options));
  const fault = program.command('fault').description("Make the key's Source and mode's /v1 requests fail: an error status, a delay, a dropped connection.");
  client(fault.command('add'))
    .description('Add a fault: matching requests wait --latency, then get --status (or --drop) instead of being run (with --apply: after being run).')
    .requiredOption('--path <glob>', 'the /v1 paths it acts on: * one segment, ** the rest (/v1/payments/*/refunds)')
    .option('--method <method>', 'only this method (GET, POST, PATCH, PUT, DELETE)', faultMethod)
    .option('--status <code>', 'answer this status (400 to 599) in the error envelope', faultStatus)
    .option('--latency <duration>', 'wait this long first (250ms, 2s; at most 60s)', latency)
    .option('--drop', 'close the connection unanswered')
    .option('--apply', 'run the request for real, then replace its answer (the lost response)')
    .option('--probability <p>', 'the chance (0 to 1) that it acts on a matching request (default 1)', probability)
    .option('--times <n>', 'act this many times, then retire', faultTimes)
    .option('--seed <n>', 'the seed of its --probability draws, 0 to 4294967295 (default 1)', faultSeed)
    .action(async (options) => (await import('./fault.js')).add(options));
  client(fault.command('list'))
    .description('List the faults, in the order they are tried (the first that acts wins).')
    .action(async (options) => (await import('./fault.js')).list(options));
  client(fault.command('remove'))
    .description('Remove one fault.')
    .argument('<id>')
    .action(async (id: string, options) => (await import('./fault.js')).remove(id, options));
  client(fault.command('clear'))
    .description('Remove every fault.')
    .action(async (options) => (await import('./fault.js')).clear(options));

  const namespaces = client(program.command('namespaces'), { namespace: false })
    .description(
      'List the named namespaces of a running emulator (a key ending in ~NAME makes NAME on its first request): when each was made, its clock, its records.',
    )
    .action(async (options) => (await import('./namespaces.js')).list(options));
  client(namespaces.command('delete'), { namespace: false })
    .description('Drop a named namespace: its records, clock and pending deliveries; the next request with its key makes it afresh.')
    .argument('<name>')
    .action(async (name: string, options) => (await import('./namespaces.js')).remove(name, options));

  client(program.command('reset'))
    .description(
      "Empty a running emulator (the key's Source and mode). With --data DIR: the payemu holding DIR (found through its lock), or, when none does, delete DIR.",
    )
    .option('--all', 'empty every Source and mode, and put the clock back')
    .option('--data <dir>', 'act on this data directory only: reset the payemu that holds it, or delete it')
    .option('--all-namespaces', 'the named namespaces too (without: the default only; with --data and no payemu holding it, the named ones are kept)')
    .action(async (options) => (await import('./reset.js')).reset(options));

  program
    .command('doctor')
    .description("Check a stopped emulator's data directory (exit 0 healthy, 1 damaged); --repair keeps every readable record and sets damaged files aside.")
    .option('--data <dir>', 'the data directory', '.payemu')
    .option('--repair', 'rewrite damaged files with what can be read of them, keeping each original as <file>.damaged-N')
    .option('--json', 'print the report as JSON')
    .action(async (options) => (await import('./doctor.js')).doctor(options));

  for (const command of everyCommand(program)) command.exitOverride((error) => usageError(error, command));

  program.parseAsync(argv).catch((thrown: unknown) => {
    const error = toCliError(thrown) as Error & { exitCode?: number };
    process.stderr.write(`payemu: ${error.message}\n`);
    process.exit(error.exitCode ?? EXIT.refused);
  });
}

/**
 * A usage error (unknown option, missing argument, bad option value, unknown command) is one
 * line on stderr saying what is wrong and which --help to read, exit 2: not the whole help,
 * which buries the line that matters. --help and --version exit 0 as they are.
 */
function usageError(error: CommanderError, command: Command): never {
  if (error.exitCode === 0 || error.code === 'commander.help' || error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
    process.exit(error.exitCode === 0 ? 0 : EXIT.usage);
  }
  const what = error.message
    .replace(/^error: /, '')
    .replace(/\s*\n\s*\(Did you mean (.*)\)\s*$/s, ' (did you mean $1)')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/\.$/, '');
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  process.stderr.write(`payemu: ${what}. See \`${names.join(' ')} --help\`.\n`);
  process.exit(EXIT.usage);
}

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

/** The events `payemu trigger` takes, each with what its fixture does (for `trigger --help`). */
function eventsHelp(): string {
  const dir = new URL('../../fixtures/triggers/', import.meta.url);
  return EVENT_NAMES.map((event) => {
    let description = '';
    try {
      description = (JSON.parse(readFileSync(new URL(`${event}.json`, dir), 'utf8')) as { description?: string }).description ?? '';
    } catch {
      /* listed without its description */
    }
    return `  ${event.padEnd(34)}${wrap(description, 80 - 36).join(`\n${' '.repeat(36)}`)}`;
  }).join('\n');
}

/** Words in lines of at most `width` characters (a longer word has a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  // A card number (4242 4242 4242 4242) stays on one line.
  for (const word of text
    .replace(/(\d{4}) (?=\d)/g, '$1\u00a0')
    .split(/[ \t\n]+/)
    .filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].map((l) => l.replaceAll('\u00a0', ' '));
}

/** The options of `payemu start`, shared by `payemu exec`. */
function startOptions(command: Command, defaults: { port: number; data: string | undefined } = { port: 4242, data: '.payemu' }): Command {
  return command
    .option('-p, --port <port>', 'port to listen on (0 picks a free port)', port, defaults.port)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--allowed-host <name>',
      'answer requests for this Host name too (repeatable); on a loopback address, names other than localhost, 127.0.0.1 and [::1] get a 403',
      collect,
      [],
    )
    .option('--data <dir>', `data directory of the file-backed store${defaults.data ? '' : ' (default: in memory)'}`, defaults.data)
    .addOption(new Option('--in-memory', 'keep nothing on disk').conflicts('data'))
    .option('--config <file>', 'config file merged onto the defaults (default: ./payemu.config.json when present)')
    .option('--webhook-url <url>', 'send webhooks here for every Source that has no webhook_url in its config')
    .option('--webhook-backoff <list>', 'waits before retries 1, 2 and 3', '1s,5s,25s')
    .option('--webhook-timeout <duration>', 'how long a webhook delivery may take', '10s')
    .option('--strict-webhook-urls', 'refuse private and reserved webhook addresses, as the real service does')
    .option(
      '--webhook-chaos <list>',
      'webhook chaos for every Source: duplicate=P,delay=DURATION,stale_timestamp=P,bad_signature=P,seed=N (see docs/chaos.md)',
      chaosList,
    )
    .option('--rate-limit', "answer 429 once a Source's rate_limit_per_minute is used up")
    .option('--clock-start <timestamp>', 'where the virtual clock starts (ISO 8601); a saved clock only moves forward to it')
    .option('--freeze-clock', 'the virtual clock moves only when advanced')
    .option('--log <file>', 'also write every request, event and webhook attempt to FILE as JSON lines (for CI to keep)')
    .option('--import <file>', 'start from a snapshot (payemu export): its Source and mode, or everything and the clock')
    .option('--export-on-exit <file>', 'on stop (SIGINT, SIGTERM, q), write a snapshot of everything to FILE first')
    .option('--journal-size <n>', 'how many /v1 requests the request journal keeps per Source and mode (0: none)', count, 1000)
    .option('--max-namespaces <n>', 'how many named namespaces (API key ending in ~NAME) payemu holds at most (0: none)', count, 256);
}

/**
 * The options of commands that talk to a running emulator: all take --namespace but those about
 * the namespaces themselves, which act with any key.
 */
function client(command: Command, { namespace = true } = {}): Command {
  command
    .option('--url <url>', 'where the emulator is (default: $PAYEMU_URL or http://127.0.0.1:4242)', emulatorUrl)
    .option('--key <key>', 'API key (default: $PAYEMU_API_KEY or sk_test_payemu_acme)');
  if (namespace)
    command.option(
      '--namespace <name>',
      "act in this namespace, its own state and clock, by the key's ~NAME suffix (default: $PAYEMU_NAMESPACE, else the default namespace)",
      namespaceName,
    );
  return command.option('--json', 'print JSON');
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
