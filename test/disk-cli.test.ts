import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { runPayemu, startPayemu } from './helpers/cli.js';
import { fill, idleSocket, tmpfs } from './helpers/disk.js';
import { client } from './helpers/emulator.js';
import { receiver } from './helpers/receiver.js';

/**
 * docs/reliability.md, "The disk", through the built CLI (`npm run build` first): a data
 * directory that cannot be written at start is exit 1 naming it and the cause; webhook
 * bookkeeping the disk refuses never stops payemu.
 */

t.test('start on a read-only data directory: exit 1 naming the directory and the cause', async (t) => {
  const root = tmpfs(t, 'size=1m');
  if (!root) return;
  const data = path.join(root, 'data');
  fs.mkdirSync(data);
  execFileSync('mount', ['-o', 'remount,ro', root]);
  for (const dir of [data, path.join(root, 'missing')]) {
    const run = await runPayemu(t, ['start', '--port', '0', '--data', dir]);
    t.equal(run.code, 1, run.stderr);
    t.equal(run.stderr.trim(), `payemu: cannot use data directory ${dir}: read-only file system`);
  }
});

t.test('start on a data directory below a file: exit 1 naming it and the cause', async (t) => {
  const file = path.join(t.testdir({ file: 'not a directory' }), 'file');
  const run = await runPayemu(t, ['start', '--port', '0', '--data', path.join(file, 'data')]);
  t.equal(run.code, 1, run.stderr);
  t.equal(run.stderr.trim(), `payemu: cannot use data directory ${path.join(file, 'data')}: a part of its path is not a directory`);
});

t.test('webhook bookkeeping on a full disk: logged, retried once space is back, payemu keeps running', async (t) => {
  const root = tmpfs(t, 'size=1m');
  if (!root) return;
  const data = path.join(root, 'data');
  let filler: string | undefined;
  const hook = await receiver(t, (_req, res) => {
    // The attempt is out (its start is on disk): the disk fills before its end is recorded.
    filler ??= fill(root);
    res.end('ok');
  });
  const { proc, url } = await startPayemu(t, ['--data', data, '--webhook-url', hook.url]);
  const api = client(url, 'sk_test_payemu_acme');
  const idle = await idleSocket(t, url);
  // A large record: the attempt's line cannot fit in what a full tmpfs leaves in its last page.
  const session = await api.post('/v1/sessions', { amount: 10, reference: 'hooked', metadata: { pad: 'x'.repeat(20_000) } });
  t.equal(session.status, 201);
  const id = session.body.data.id as string;
  t.equal((await api.post(`/_payemu/sessions/${id}/complete`, { card_number: '4242424242424242' })).status, 200);
  await hook.next();

  await t.resolveMatch(proc.waitForLine(/cannot write its data directory: no space left on device/), /no space left on device/, 'the refusal is logged');
  t.equal(proc.child.exitCode, null, 'payemu still runs');
  t.equal((await api.get(`/v1/sessions/${id}`)).status, 200, 'reads answer');
  fs.rmSync(filler!);
  await hook.next(); // made again once the write can be
  t.equal(idle.received(), 0, 'no store bytes reached a client');
  idle.close();
  const stopped = await proc.stop();
  t.equal(stopped.code, 0, proc.stderr);
});
