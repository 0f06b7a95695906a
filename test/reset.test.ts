import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { runPayemu, startPayemu } from './helpers/cli.js';
import { client } from './helpers/emulator.js';

/**
 * `payemu reset --data DIR` acts on DIR only (the payemu that holds it, through the URL in its
 * lock, or else the directory itself), whatever PAYEMU_URL names; `payemu reset` with nothing
 * listening is exit 3 and deletes nothing. Real processes: run `npm run build` first.
 */

t.setTimeout(180_000);
const KEY = 'sk_test_payemu_acme';

function tempDir(t: Test, name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `payemu-reset-${name}-`));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function createSession(url: string, reference: string): Promise<string> {
  const res = await client(url, KEY).post('/v1/sessions', { amount: 12.34, reference });
  if (res.status !== 201) throw new Error(`session not created: ${res.text}`);
  return res.body.data.id as string;
}

const status = async (url: string, id: string) => (await client(url, KEY).get(`/v1/sessions/${id}`)).status;

t.test('two emulators: reset --data B with PAYEMU_URL at A resets B and leaves A; reset --data C (not running) deletes C only', async (t) => {
  const dirA = tempDir(t, 'a');
  const dirB = tempDir(t, 'b');
  const a = await startPayemu(t, ['--data', dirA]);
  const b = await startPayemu(t, ['--data', dirB]);
  const inA = await createSession(a.url, 'in-a');
  const inB = await createSession(b.url, 'in-b');

  const resetB = await runPayemu(t, ['reset', '--data', dirB, '--json'], { env: { PAYEMU_URL: a.url } });
  t.equal(resetB.code, 0, resetB.stderr);
  t.match(JSON.parse(resetB.stdout), { url: b.url, scope: { source: 'acme', mode: 'test' } }, 'B was reached through the URL in its lock');
  t.equal(await status(b.url, inB), 404, "B's session is gone");
  t.equal(await status(a.url, inA), 200, "A's session is still there");
  t.ok(fs.existsSync(dirB), "B's directory stays: B runs on it");

  // C ran once and stopped: its directory is deleted, and A (at PAYEMU_URL) is not touched.
  const dirC = path.join(tempDir(t, 'c'), 'data');
  const c = await startPayemu(t, ['--data', dirC]);
  await createSession(c.url, 'in-c');
  t.same(await c.proc.stop(), { code: 0, signal: null });
  const resetC = await runPayemu(t, ['reset', '--data', dirC], { env: { PAYEMU_URL: a.url } });
  t.equal(resetC.code, 0, resetC.stderr);
  t.match(resetC.stdout, `deleted ${dirC}`);
  t.notOk(fs.existsSync(dirC), 'C is deleted');
  t.equal(await status(a.url, inA), 200, "A's session is still there");
  t.ok(
    fs.readdirSync(dirA).some((name) => name.startsWith('journal-')),
    "A's directory is intact",
  );

  // --all goes the same way: to the holder of the directory.
  const allB = await runPayemu(t, ['reset', '--data', dirB, '--all'], { env: { PAYEMU_URL: a.url } });
  t.equal(allB.code, 0, allB.stderr);
  t.match(allB.stdout, `reset everything: `);
  t.match(allB.stdout, b.url);
  t.equal(await status(a.url, inA), 200);

  t.same(await a.proc.stop(), { code: 0, signal: null });
  t.same(await b.proc.stop(), { code: 0, signal: null });
});

t.test('reset without --data and nothing listening at its URL: exit 3, nothing deleted', async (t) => {
  const cwd = tempDir(t, 'cwd');
  const stopped = await startPayemu(t, [], { cwd }); // on ./.payemu
  await createSession(stopped.url, 'kept');
  t.same(await stopped.proc.stop(), { code: 0, signal: null });
  const before = fs.readdirSync(path.join(cwd, '.payemu')).sort();

  const res = await runPayemu(t, ['reset', '--all'], { cwd, env: { PAYEMU_URL: stopped.url } });
  t.equal(res.code, 3);
  t.match(res.stderr, `no payemu at ${stopped.url}`);
  t.same(fs.readdirSync(path.join(cwd, '.payemu')).sort(), before, 'the data directory is untouched');
});
