import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { startEmulator } from '../../src/index.js';
import { codeBlocks } from '../helpers/doc-blocks.js';
import { page, project, sh } from '../helpers/doc-run.js';
import { client } from '../helpers/emulator.js';

/**
 * docs/storage.md's two samples against a real data directory: a file-backed payemu that
 * compacts (a small compactAfterBytes) and stops cleanly, then `payemu doctor --repair` on a
 * damaged copy. The directory holds exactly the files the first sample lists, in the forms it
 * gives; every line of the snapshot has one of the shapes of the second sample, and the sample's
 * lines have those shapes too.
 */
const blocks = codeBlocks(page('storage.md'));

t.test('the page has the blocks this test runs, in this order', async (t) => {
  t.same(
    blocks.map((b) => b.lang),
    ['', ''],
  );
});

/** The names the first sample lists, as patterns, with what each line of a journal may be. */
const FILES: [string, RegExp][] = [
  ['snapshot.json', /^snapshot\.json$/],
  ['index-keys.json', /^index-keys\.json$/],
  ['journal-000042.ndjson', /^journal-\d{6}\.ndjson$/],
  ['payemu.lock', /^payemu\.lock$/],
  ['*.damaged-N', /\.damaged-\d+$/],
  ['namespaces/NAME/', /^namespaces$/],
];

const SNAPSHOT_LINES = [
  /^\{"version":1,"covers":\d+,"marks":\{.*\},"collections":\{$/, // the header
  /^"[a-z_]+":\[$/, // a collection opens
  /^"[a-z_]+":\[\],?$/, // an empty one
  /^ ?\{"id":".*\},?$/, // a record, marked (a leading space) or not
  /^\],?$/, // a collection closes
  /^\},"crc32":\d+\}$/, // the checksum of every byte before it
];

t.test('a data directory holds the files the page lists, in the forms it gives', async (t) => {
  const cwd = project(t);
  const dataDir = path.join(cwd, '.payemu');
  const listed = blocks[0]!.text
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter(Boolean);
  t.same(
    listed,
    FILES.map(([name]) => name),
  );

  const payemu = await startEmulator({ inMemory: false, dataDir, compactAfterBytes: 4096 });
  t.teardown(() => payemu.close());
  const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'payemu.lock'), 'utf8')) as Record<string, unknown>;
  t.same(Object.keys(lock), ['pid', 'started', 'url'], 'payemu.lock: {"pid":..,"started":..,"url":..}');
  const api = client(payemu.url, payemu.keys.test);
  for (let i = 0; i < 30; i++) await api.post('/v1/sessions', { amount: 10 + i, reference: `order-${i}` });
  const paid = await api.post<{ data: { id: string } }>('/v1/sessions', { amount: 5, reference: 'paid' });
  await api.post(`/_payemu/sessions/${paid.body.data.id}/complete`, { card_number: '4242424242424242' });
  await client(payemu.url, `${payemu.keys.test}~w1`).post('/v1/sessions', { amount: 10, reference: 'in-w1' });
  await payemu.idle();
  t.ok(
    fs.readdirSync(path.join(dataDir, 'namespaces', 'w1')).some((n) => FILES[2]![1].test(n)),
    'namespaces/NAME/: a named namespace writes its own journal',
  );
  t.ok(
    fs.readdirSync(dataDir).some((n) => FILES[2]![1].test(n)),
    'journal-000042.ndjson: the segments written since the snapshot',
  );

  // Each journal line is one transaction: a list of changes of the three forms.
  for (const file of fs.readdirSync(dataDir).filter((name) => name.endsWith('.ndjson'))) {
    for (const line of fs.readFileSync(path.join(dataDir, file), 'utf8').split('\n').filter(Boolean)) {
      for (const change of JSON.parse(line) as unknown[][]) {
        const [collection, id, record, removed] = change;
        t.ok(typeof collection === 'string' && typeof id === 'string', `${file}: [collection, id, ...]`);
        t.ok(record === null || typeof record === 'object', `${file}: a record, null or the changed fields`);
        if (change.length === 4) t.ok(Array.isArray(removed), `${file}: [removed fields]`);
        else t.equal(change.length, 3);
      }
    }
  }
  await payemu.close();

  const names = fs.readdirSync(dataDir);
  for (const [name, pattern] of FILES.slice(0, 2))
    t.ok(
      names.some((n) => pattern.test(n)),
      `${name} is there`,
    );
  t.notOk(names.includes('payemu.lock'), 'the lock goes with its owner');
  t.ok(names.includes('namespaces'), 'namespaces/NAME/ is there');
  t.notOk(fs.readdirSync(path.join(dataDir, 'namespaces', 'w1')).includes('payemu.lock'), 'with no lock of its own');

  // The second sample: every line of the real snapshot has one of its shapes.
  const lines = fs.readFileSync(path.join(dataDir, 'snapshot.json'), 'utf8').trimEnd().split('\n');
  for (const line of lines)
    t.ok(
      SNAPSHOT_LINES.some((shape) => shape.test(line)),
      `snapshot line: ${line.slice(0, 60)}`,
    );
  t.ok(
    lines.some((line) => line.startsWith(' {"id":"cs_')),
    'an open session (due to expire) is marked',
  );
  t.ok(
    lines.some((line) => line.startsWith('{"id":"')),
    'a record without due work is not',
  );
  for (const line of blocks[1]!.text.trimEnd().split('\n'))
    t.ok(
      SNAPSHOT_LINES.some((shape) => shape.test(line)),
      `sample line: ${line}`,
    );

  // `payemu doctor --repair` sets a damaged file aside as <file>.damaged-N.
  const snapshot = path.join(dataDir, 'snapshot.json');
  fs.writeFileSync(snapshot, fs.readFileSync(snapshot, 'utf8').replace(/^ \{"id":"cs_.*$/m, 'not a record,'));
  const repaired = await sh('npx payemu doctor --data .payemu --repair', cwd);
  t.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
  t.ok(
    fs.readdirSync(dataDir).some((n) => FILES[4]![1].test(n)),
    '*.damaged-N',
  );
});
