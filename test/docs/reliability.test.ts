import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startEmulator } from '../../src/index.js';
import { codeBlocks, shellCommands } from '../helpers/doc-blocks.js';
import { page, parseSample, project, sh, shape } from '../helpers/doc-run.js';

/**
 * docs/reliability.md: the 503 sample has the shape of a real refused write (a data directory
 * removed under a running payemu: a full disk needs a tmpfs, which test/disk.test.ts mounts), and
 * the doctor commands run as written on a healthy directory and on a damaged one.
 */
const blocks = codeBlocks(page('reliability.md'));

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['json', 'sh'],
  );
});

t.test('the disk: a refused write answers 503 in the shape of the sample', async (t) => {
  const cwd = project(t);
  const dataDir = path.join(cwd, '.payemu');
  const payemu = await startEmulator({ inMemory: false, dataDir });
  t.teardown(() => payemu.close().catch(() => {}));
  fs.rmSync(dataDir, { recursive: true });
  const answer = await fetch(`${payemu.url}/v1/sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${payemu.keys.test}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 25 }),
  });
  t.equal(answer.status, 503);
  const body = (await answer.json()) as { errors: { detail: string }[] };
  const sample = parseSample(blocks[0]!.text) as { errors: { detail: string }[] };
  t.same(shape(body), shape(sample));
  t.match(body, { errors: [{ status: '503', title: 'Service Unavailable' }] });
  t.equal(body.errors[0]!.detail, 'payemu cannot write its data directory: the data directory was removed');
  t.match(sample.errors[0]!.detail, /^payemu cannot write its data directory: /);
});

t.test('damage: doctor checks (0 healthy, 1 damaged) and repairs, setting the damaged file aside', async (t) => {
  const cwd = project(t);
  const [check, repair] = shellCommands(blocks[1]!);
  t.equal(check, 'payemu doctor --data .payemu');
  t.equal(repair, 'payemu doctor --data .payemu --repair');
  const payemu = await startEmulator({ inMemory: false, dataDir: path.join(cwd, '.payemu') });
  for (let i = 0; i < 3; i++) {
    await fetch(`${payemu.url}/v1/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${payemu.keys.test}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 25 + i }),
    });
  }
  await payemu.close();

  const healthy = await sh(check!, cwd);
  t.equal(healthy.code, 0, healthy.stdout + healthy.stderr);

  const journal = fs.readdirSync(path.join(cwd, '.payemu')).find((name) => name.endsWith('.ndjson'))!;
  const file = path.join(cwd, '.payemu', journal);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[0] = lines[0]!.slice(0, -3); // a line cut short, not the last: damage
  fs.writeFileSync(file, lines.join('\n'));
  const damaged = await sh(check!, cwd);
  t.equal(damaged.code, 1, 'damaged');
  t.match(damaged.stdout + damaged.stderr, journal, 'the report names the file');

  const repaired = await sh(repair!, cwd);
  t.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
  t.ok(fs.existsSync(`${file}.damaged-1`), 'the original set aside');
  t.equal((await sh(check!, cwd)).code, 0, 'healthy again');
});
