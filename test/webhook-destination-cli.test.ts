import t from 'tap';
import { runPayemu } from './helpers/cli.js';
import { emulator } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

// `payemu webhook [show | set URL | clear]` against a running payemu: its answers, --json, --key, exit codes.

t.setTimeout(120_000);

t.test('payemu webhook: show, set, clear; --json prints the answer; --key picks the Source', async (t) => {
  const flag = await receiver(t);
  const mine = await receiver(t);
  const e = await emulator(t, { webhookUrl: flag.url });
  const run = (...args: string[]) => runPayemu(t, [...args, '--url', e.url]);

  const shown = await run('webhook');
  t.equal(shown.code, 0);
  t.equal(shown.stdout.trim(), `acme webhooks -> ${flag.url} (from webhook_url or --webhook-url)`);
  const json = await run('webhook', 'show', '--json');
  t.same(JSON.parse(json.stdout), { source: 'acme', url: flag.url, overridden: false }, 'show is the default');

  const set = await run('webhook', 'set', mine.url);
  t.equal(set.code, 0, set.stderr);
  t.equal(set.stdout.trim(), `acme webhooks -> ${mine.url} (set at run time, over the config)`);
  t.same(e.webhook.get(), { source: 'acme', url: mine.url, overridden: true }, 'in force');
  const globex = await run('webhook', '--key', 'sk_test_payemu_globex', '--json');
  t.same(JSON.parse(globex.stdout), { source: 'globex', url: flag.url, overridden: false }, 'another Source is unaffected');

  const cleared = await run('webhook', 'clear', '--json');
  t.equal(cleared.code, 0);
  t.same(JSON.parse(cleared.stdout), { source: 'acme', url: flag.url, overridden: false });
  e.webhook.clear({ source: 'globex' });
});

t.test('payemu webhook with no URL anywhere says how to set one', async (t) => {
  const e = await emulator(t);
  const shown = await runPayemu(t, ['webhook', '--url', e.url]);
  t.equal(shown.code, 0);
  t.match(shown.stdout, /^acme webhooks go nowhere: set a URL with `payemu webhook set URL`/);
});

t.test('payemu webhook set: a wrong URL is exit 2 naming it, before any request; a refusal of the server is exit 1', async (t) => {
  for (const [url, why] of [
    ['ftp://127.0.0.1/hooks', /absolute http:\/\/ or https:\/\//],
    ['http://user:pw@127.0.0.1:3001/webhooks', /credentials/],
    ['http://127.0.0.1:3001/webhooks#x', /fragment/],
  ] as const) {
    const wrong = await runPayemu(t, ['webhook', 'set', url, '--url', 'http://127.0.0.1:9']);
    t.equal(wrong.code, 2, `${url}: not 3, nothing was asked of the URL`);
    t.match(wrong.stderr, why);
    t.match(wrong.stderr, url);
  }
  const missing = await runPayemu(t, ['webhook', 'set', '--url', 'http://127.0.0.1:9']);
  t.equal(missing.code, 2, 'no URL: a usage error');

  const strict = await emulator(t, { strictWebhookUrls: true });
  const refused = await runPayemu(t, ['webhook', 'set', 'http://10.0.0.1/webhooks', '--url', strict.url]);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /422: .*private or reserved/);
  const unreachable = await runPayemu(t, ['webhook', '--url', 'http://127.0.0.1:9']);
  t.equal(unreachable.code, 3);
});
