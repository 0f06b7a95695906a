import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { BIN, waitUntilRefused } from '../helpers/cli.js';
import { codeBlocks, ROOT } from '../helpers/doc-blocks.js';
import { client } from '../helpers/emulator.js';
import { receiver } from '../helpers/receiver.js';
import { withoutCoverage } from '../helpers/plain-node.js';

/**
 * docs/terminal-ui.md's one block, the live view on a 100×30 terminal, produced for real:
 * `payemu start` in a tmux pane of that size (a TTY, as a person's terminal), the page's four
 * events made over HTTP (three checkouts and a refund: eight requests), a receiver that answers
 * 200 (500 to payment.failed), and the screen read as a person sees it. Compared line for line, column for column, after what varies is
 * made the page's: times, session ids, durations, ports. The retries wait an hour so that the
 * failed delivery is still `retrying ×1 500` when the screen is read; the layout does not depend on it.
 */
const PAGE = path.join(ROOT, 'docs/terminal-ui.md');
const blocks = codeBlocks(PAGE);
const run = promisify(execFile);
const hasTmux = spawnSync('tmux', ['-V']).status === 0;

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    [''],
  );
  const lines = blocks[0]!.text.trimEnd().split('\n');
  // The view leaves the last row free (the cursor's), so a 30-row screen is 29 lines of text.
  t.equal(lines.length, 29, 'the sample is a 100×30 screen');
  t.ok(
    lines.every((line) => [...line].length <= 100),
    'none wider than 100 columns',
  );
});

t.test('the 100×30 sample is the screen of a real start', { skip: hasTmux ? false : 'tmux is not installed' }, async (t) => {
  const hook = await receiver(t, (req, res) => {
    res.statusCode = req.body.includes('"payment.failed"') ? 500 : 200;
    res.end('ok');
  });
  // A tmux server of its own (its socket in a short temporary folder), killed in teardown.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-tmux-'));
  const tmux = async (...args: string[]) => (await run(...withoutCoverage('tmux', ['-S', path.join(dir, 'socket'), '-f', '/dev/null', ...args]))).stdout;
  t.teardown(async () => {
    await tmux('kill-server').catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const start = [process.execPath, BIN, 'start', '--port', '0', '--in-memory', '--webhook-url', hook.url, '--webhook-backoff', '1h,1h,1h'];
  const command = `env -u CI -u CONTINUOUS_INTEGRATION -u NO_COLOR -u FORCE_COLOR TERM=xterm-256color ${start.map((w) => `'${w}'`).join(' ')}`;
  await tmux('new-session', '-d', '-s', 'ui', '-x', '100', '-y', '30', command);
  const screen = () => tmux('capture-pane', '-p', '-t', 'ui');
  const waitFor = async (match: RegExp) => {
    for (let i = 0; i < 300; i++) {
      const now = await screen();
      if (match.test(now)) return now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the screen never showed ${match}:\n${await screen()}`);
  };
  const url = /payemu ● running on (http:\/\/\S+)/.exec(await waitFor(/payemu ● running on http:\/\/\S+/))![1]!;

  // The page's payments, oldest first, as an app and its customers make them.
  const api = client(url, 'sk_test_payemu_acme');
  const checkout = async (body: Record<string, unknown>, card: string) => {
    const session = await api.post('/v1/sessions', body);
    t.equal(session.status, 201);
    t.equal((await api.post(`/_payemu/sessions/${session.body.data.id}/complete`, { card_number: card })).status, 200);
  };
  await checkout({ amount: 25.5, reference: 'order-1001' }, '4242424242424242');
  await checkout({ amount: 12, reference: 'order-1002' }, '4000000000000002');
  await checkout({ amount: 99.99, reference: 'order-1003', capture_method: 'manual' }, '4242424242424242');
  t.equal((await api.post('/v1/payments/order-1001/refunds', { amount: 25.5 })).status, 201);
  t.equal((await api.get('/v1/payments/order-1003')).status, 200);
  await waitFor(/Requests \(8\)/);
  const shown = await waitFor(/payment\.refunded .* delivered 200/);
  await waitFor(/payment\.failed .* retrying ×1 500/);
  // The page's selection: the second event (the first ↓ selects the newest).
  await tmux('send-keys', '-t', 'ui', 'Down');
  await tmux('send-keys', '-t', 'ui', 'Down');
  await waitFor(/› \d\d:\d\d:\d\d {2}payment\.authorized/);

  const port = new URL(url).port;
  const hookPort = new URL(hook.url).port;
  const normalize = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .map((line) =>
        line
          .replaceAll(`127.0.0.1:${port}`, '127.0.0.1:4242')
          .replaceAll(`127.0.0.1:${hookPort}/`, '127.0.0.1:3000/')
          .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/, '2026-11-22 01:43:39 UTC')
          .replace(/^(. )\d\d:\d\d:\d\d/, '$1HH:MM:SS')
          .replace(/cs_\w{24}/, 'cs_xxxxxxxxxxxxxxxxxxxxxxxx')
          .replace(/ \d+\.\dms( *)/, (match) => ` N.Nms${' '.repeat(match.length - 6)}`)
          .trimEnd(),
      );
  t.same(normalize(await screen()), normalize(blocks[0]!.text), 'the sample, line for line');
  t.ok(shown);

  // The keys of the page's table that change no state of the sample: d, c, then q.
  await tmux('send-keys', '-t', 'ui', 'd');
  await waitFor(new RegExp(`${url}/_payemu/dashboard`.replaceAll('.', '\\.')));
  t.pass('d shows the dashboard URL');
  const day = (screen: string) => /clock {4}(\d{4}-\d\d-\d\d)/.exec(screen)![1]!;
  const before = day(await screen());
  await tmux('send-keys', '-t', 'ui', 'c');
  const next = new Date(Date.parse(`${before}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await waitFor(new RegExp(`clock {4}${next} `));
  t.pass('c advances the clock one day');
  await tmux('send-keys', '-t', 'ui', 'q');
  await waitUntilRefused(Number(port));
  t.pass('q stops it');
});
