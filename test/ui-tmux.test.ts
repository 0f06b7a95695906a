import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { BIN, waitUntilRefused } from './helpers/cli.js';
import { client } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';
import { withoutCoverage } from './helpers/plain-node.js';

// The real binary in a real terminal: tmux gives `payemu start` a TTY of a fixed size, and
// capture-pane reads the screen as a person would see it. tmux has no event to wait on, so each
// wait polls the screen: a bounded loop of short real-time intervals (the one place the tests
// wait on the clock), generous because starting Node and loading Ink is slow on a busy machine.

const run = promisify(execFile);
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const TEST_KEY = 'sk_test_payemu_acme';
const POLLS = 300;
const POLL_MS = 50;

/**
 * A detached tmux server of its own (its own socket, no user config), killed in teardown. The
 * socket lives in a temporary directory (tap's are too deep for a socket path) removed after.
 */
function tmuxServer(t: Test) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-tmux-'));
  const tmux = async (...args: string[]) => (await run(...withoutCoverage('tmux', ['-S', path.join(dir, 'socket'), '-f', '/dev/null', ...args]))).stdout;
  t.teardown(async () => {
    await tmux('kill-server').catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** Runs `command` in a new window named `name`, 120×40 unless `size` says otherwise. */
    async open(name: string, command: string, size = { columns: 120, rows: 40 }) {
      await tmux('new-session', '-d', '-s', name, '-x', String(size.columns), '-y', String(size.rows), command);
      const screen = () => tmux('capture-pane', '-p', '-t', name);
      return {
        screen,
        /** The screen with its colours, as escape sequences (capture-pane -e). */
        coloured: () => tmux('capture-pane', '-p', '-e', '-t', name),
        keys: (...keys: string[]) => tmux('send-keys', '-t', name, ...keys),
        /** Polls the screen until `match` holds; returns the screen. */
        async waitFor(match: RegExp | ((screen: string) => boolean), what: string): Promise<string> {
          const test = typeof match === 'function' ? match : (s: string) => match.test(s);
          let last = '';
          for (let i = 0; i < POLLS; i++) {
            last = await screen();
            if (test(last)) return last;
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          }
          throw new Error(`the screen never showed ${what} within ${(POLLS * POLL_MS) / 1000} s:\n${last}`);
        },
      };
    },
  };
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * `payemu start` as a shell command that prints its exit code on the screen once it ends, then
 * keeps the pane open for the last capture (tmux's remain-on-exit loses a dead pane's last
 * lines) by reading the terminal until the server is killed. CI and tap's NO_COLOR and
 * FORCE_COLOR=0 are unset: the terminal is a user's.
 */
function payemu(args: string[], env: string[]): string {
  const start = `${quote(process.execPath)} ${quote(BIN)} start --port 0 --in-memory ${args.map(quote).join(' ')}`;
  return `env -u CI -u CONTINUOUS_INTEGRATION -u NO_COLOR -u FORCE_COLOR ${env.join(' ')} ${start}; echo "payemu exited with code $?"; read -r _`;
}

t.test(
  'the live view: an event from outside appears, opens, is resent; q stops with exit code 0',
  { skip: hasTmux ? false : 'tmux is not installed' },
  async (t) => {
    const hook = await receiver(t);
    const pane = await tmuxServer(t).open('ui', payemu(['--webhook-url', hook.url], ['TERM=xterm-256color']));

    let screen = await pane.waitFor(/payemu ● running on http:\/\/\S+/, 'the header');
    const url = /payemu ● running on (http:\/\/\S+)/.exec(screen)![1]!;
    t.match(screen, /test key sk_test_payemu_acme\s+webhook secret whsec_payemu_acme/);
    t.match(screen, new RegExp(`webhooks → ${hook.url}  not tried yet`));
    t.match(screen, /clock\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    t.notMatch(screen, /payemu listening on/, 'the UI, not the plain log');

    // An event from outside: a checkout paid over HTTP.
    const api = client(url, TEST_KEY);
    const session = await api.post('/v1/sessions', { amount: 10, reference: 'tmux-order-1' });
    t.equal(session.status, 201);
    const paid = await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' });
    t.equal(paid.status, 200);
    screen = await pane.waitFor(/payment\.completed\s+acme\/test\s+tmux-order-1\s+10\.00 USD\s+delivered 200/, 'the delivered event');
    t.match(screen, new RegExp(`webhooks → ${hook.url}  answers \\(200\\)`), 'the endpoint answered');
    t.match(screen, /201\s+POST\s+\/v1\/sessions/, 'the request log');
    t.match(screen, /200\s+POST\s+\/_payemu\/sessions\/cs_\w+\/complete/);

    await pane.keys('Down');
    await pane.waitFor(/› \d\d:\d\d:\d\d\s+payment\.completed/, 'the selected event');
    await pane.keys('Enter');
    screen = await pane.waitFor(/Payload/, 'the detail view');
    t.match(screen, /"reference": "tmux-order-1"/);
    t.match(screen, /"amount": 10,/);
    t.match(screen, /delivery delivered 200 {2}1 attempt kept/);
    t.match(screen, /1\s+\d\d:\d\d:\d\d\s+200\s+\d+ ms\s+ok/, 'the attempt: status, duration, response body');

    await pane.keys('r');
    screen = await pane.waitFor(/2 attempts kept/, 'the resent delivery');
    t.match(screen, /2\s+\d\d:\d\d:\d\d\s+200\s+\d+ ms\s+ok/);
    t.match(screen, /• resent payment\.completed/);
    t.equal(hook.received.length, 2, 'the receiver got it twice');
    t.equal(hook.received[1]!.headers['x-webhook-event-id'], hook.received[0]!.headers['x-webhook-event-id'], 'the same event id');

    await pane.keys('q');
    screen = await pane.waitFor(/payemu exited with code \d+/, 'the exit');
    t.match(screen, /payemu exited with code 0/);
    t.match(screen, new RegExp(`payemu stopped \\(was ${url}\\)`));
    t.notMatch(screen, /Payload/, 'the terminal is given back (alternate screen left)');
    await waitUntilRefused(Number(new URL(url).port));
  },
);

t.test(
  'on a terminal, CI, TERM=dumb and --no-ui get plain lines, the readiness line first; colour only with --no-ui',
  { skip: hasTmux ? false : 'tmux is not installed' },
  async (t) => {
    const server = tmuxServer(t);
    const cases = [
      { name: 'ci', args: [], env: ['TERM=xterm-256color', 'CI=true'] },
      { name: 'dumb', args: [], env: ['TERM=dumb'] },
      { name: 'noui', args: ['--no-ui'], env: ['TERM=xterm-256color'] },
      { name: 'nocolor', args: ['--no-ui'], env: ['TERM=xterm-256color', 'NO_COLOR=1'] },
    ];
    await Promise.all(
      cases.map(async (c) => {
        const pane = await server.open(c.name, payemu(c.args, c.env));
        const screen = await pane.waitFor(/whsec_payemu_globex/, `${c.name}: the banner`);
        t.match(screen.split('\n')[0], /^payemu listening on http:\/\/127\.0\.0\.1:\d+$/, `${c.name}: readiness first`);
        t.notMatch(screen, /● running/, `${c.name}: no Ink`);
        // Colour only where a person reads it: --no-ui on a terminal dims the note that webhooks go nowhere.
        const dimmed = (await pane.coloured()).includes('\u001b[2mgo nowhere');
        t.equal(dimmed, c.name === 'noui', `${c.name}: ${c.name === 'noui' ? 'coloured' : 'no colour'}`);
        // Not in raw mode: Ctrl+C is a real SIGINT, which stops it cleanly.
        await pane.keys('C-c');
        t.match(
          await pane.waitFor(/payemu exited with code \d+/, `${c.name}: the exit`),
          /payemu stopped\npayemu exited with code 0/,
          `${c.name}: SIGINT, exit 0`,
        );
      }),
    );
  },
);

// What a new user found, at the sizes people use: after a 30-day advance, times show their day;
// the hint of a Source without a webhook URL fits 80 columns; the panes share the height by what
// they hold; r on an event with no destination says so.
for (const size of [
  { columns: 80, rows: 24 },
  { columns: 120, rows: 40 },
]) {
  t.test(
    `${size.columns}×${size.rows}: days after a clock advance, hints that fit, panes by content, r without a destination`,
    { skip: hasTmux ? false : 'tmux is not installed' },
    async (t) => {
      const pane = await tmuxServer(t).open('ui', payemu([], ['TERM=xterm-256color']), size);
      let screen = await pane.waitFor(/payemu ● running on http:\/\/\S+/, 'the header');
      const url = /payemu ● running on (http:\/\/\S+)/.exec(screen)![1]!;
      const api = client(url, TEST_KEY);
      const lines = (text: string) => text.split('\n');

      // The hint of a Source without a webhook URL, whole.
      t.match(screen, /\n {11}webhooks → none \(not sent\): set webhook_url or --webhook-url\n/, 'the webhook hint fits');
      for (const line of lines(screen)) t.ok(line.length <= size.columns && !line.endsWith('…'), `nothing cut: ${line}`);

      const pay = async (reference: string) => {
        const session = await api.post('/v1/sessions', { amount: 10, reference });
        t.equal((await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: '4242424242424242' })).status, 200);
      };
      await pay('tmux-day-1');
      screen = await pane.waitFor(/tmux-day-1/, 'the first event');
      t.match(screen, /\n {2}\d\d:\d\d:\d\d {2}payment\.completed/, 'on the real day, the time alone');

      // A 30-day advance, then another payment: the two events are a month apart, and say so.
      t.equal((await api.post('/_payemu/clock/advance', { by: '30d' })).status, 200);
      await pay('tmux-day-31');
      screen = await pane.waitFor(/[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d {2}payment\.completed\s+(acme\/test\s+)?tmux-day-31/, 'the day of the new event');
      const day = (reference: string) =>
        new RegExp(`([A-Z][a-z]{2} \\d\\d) \\d\\d:\\d\\d:\\d\\d {2}payment\\.completed\\s+(acme/test\\s+)?${reference}`).exec(screen)?.[1];
      t.ok(day('tmux-day-1'), 'the first event shows its day too');
      t.not(day('tmux-day-1'), day('tmux-day-31'), 'a month apart');

      // Many requests, few events: the requests take the lines the events leave, no blank line
      // between while some are hidden. The lists have the height less the header (6 lines), the
      // titles and the blank line (4), the notices and the key line (4) and the line kept free.
      for (let i = 0; i < 30; i++) t.equal((await fetch(`${url}/_payemu/health`)).status, 200);
      screen = await pane.waitFor(/Requests \((3[5-9]|\d{3})/, 'the requests');
      const listRows = size.rows - 16;
      const shown = lines(screen);
      const events = shown.filter((l) => /payment\.completed/.test(l)).length;
      const requests = shown.filter((l) => /^ {2}\d{3} {2}/.test(l)).length;
      t.equal(events, 2, 'every event');
      t.equal(requests, listRows - events, 'the requests fill the rest of the lines');
      const title = shown.findIndex((l) => l.startsWith('Events ('));
      t.same(
        shown.slice(title, title + 2 + events + 1 + 1 + requests).filter((l) => l.trim() === ''),
        [''],
        'one blank line: the one between the panes',
      );

      // r on an event whose Source has no webhook URL: it has no destination, and how to set one.
      await pane.keys('Down');
      await pane.waitFor(/› [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d {2}payment\.completed/, 'the selected event');
      await pane.keys('r');
      screen = await pane.waitFor(/no destination/, 'the notice');
      t.match(screen, /\n✗ not resent: the event has no destination \(set webhook_url or --webhook-url\)\n/, 'whole, on its line');
      t.notMatch(screen, /resent payment/);

      await pane.keys('q');
      t.match(await pane.waitFor(/payemu exited with code \d+/, 'the exit'), /payemu exited with code 0/);
      await waitUntilRefused(Number(new URL(url).port));
    },
  );
}
