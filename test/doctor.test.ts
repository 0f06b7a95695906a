import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { runPayemu, startPayemu } from './helpers/cli.js';
import { client } from './helpers/emulator.js';

/**
 * Damage in the middle of a journal: start stops naming the file, the position and the command
 * that repairs it; `payemu doctor` reports it (exit 1); `payemu doctor --repair` keeps every
 * readable record, sets the damaged file aside and says what it dropped; start then works.
 * Real processes on a temporary data directory: run `npm run build` first.
 */

t.setTimeout(240_000);
const KEY = 'sk_test_payemu_acme';

function dataDir(t: Test): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-doctor-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  return path.join(root, 'data');
}

t.test('damage in the middle of a journal: start refuses, doctor reports, doctor --repair keeps every readable record', async (t) => {
  const dir = dataDir(t);
  const first = await startPayemu(t, ['--data', dir]);
  const api = client(first.url, KEY);
  const sessions: { id: string; amount: number }[] = [];
  for (let i = 1; i <= 5; i++) {
    const res = await api.post('/v1/sessions', { amount: i, reference: `doctor-${i}` });
    t.equal(res.status, 201);
    sessions.push({ id: res.body.data.id, amount: i });
  }
  t.same(await first.proc.stop(), { code: 0, signal: null });

  // The line that created the third session loses 20 bytes from its middle.
  const journal = path.join(dir, 'journal-000001.ndjson');
  const lines = fs.readFileSync(journal, 'utf8').split('\n');
  const index = lines.findIndex((line) => line.startsWith(`[["sessions","${sessions[2]!.id}"`));
  t.ok(index > 0 && index < lines.length - 2, `the third session is written in a middle line (${index + 1} of ${lines.length - 1})`);
  lines[index] = lines[index]!.slice(0, 60) + lines[index]!.slice(80);
  fs.writeFileSync(journal, lines.join('\n'));
  const damaged = fs.readFileSync(journal);
  const line = index + 1;
  const byte = Buffer.byteLength(lines.slice(0, index).join('\n')) + 1;
  const where = `journal-000001.ndjson line ${line} (byte ${byte}) is not valid JSON`;

  const start = await runPayemu(t, ['start', '--port', '0', '--data', dir]);
  t.equal(start.code, 1, 'start refuses a damaged store');
  t.match(start.stderr, `store damaged: ${where}`, 'naming the file, the position and what is wrong');
  t.match(start.stderr, `payemu doctor --data ${dir} --repair`, 'and the command that repairs it');
  t.notMatch(start.stdout, /listening/);

  const check = await runPayemu(t, ['doctor', '--data', dir]);
  t.equal(check.code, 1, 'doctor: exit 1 on a damaged store');
  t.match(check.stdout, `damaged: ${where}`);
  t.match(check.stdout, `payemu doctor --data ${dir} --repair`);
  const json = await runPayemu(t, ['doctor', '--data', dir, '--json']);
  t.equal(json.code, 1);
  t.match(JSON.parse(json.stdout), { healthy: false, damage: [{ file: 'journal-000001.ndjson', line, offset: byte, problem: 'is not valid JSON' }] });
  t.same(fs.readFileSync(journal), damaged, 'a check changes nothing');

  const repair = await runPayemu(t, ['doctor', '--data', dir, '--repair']);
  t.equal(repair.code, 0, repair.stderr);
  t.match(repair.stdout, `dropped: ${where}`, 'says what was dropped');
  t.match(repair.stdout, 'set aside: journal-000001.ndjson -> journal-000001.ndjson.damaged-1');
  t.same(fs.readFileSync(`${journal}.damaged-1`), damaged, 'the damaged file is kept as a backup');
  t.equal(fs.readFileSync(journal, 'utf8'), lines.filter((_, i) => i !== index).join('\n'), 'the journal keeps every other line, in order');

  const second = await startPayemu(t, ['--data', dir]);
  const api2 = client(second.url, KEY);
  for (const [i, session] of sessions.entries()) {
    const res = await api2.get(`/v1/sessions/${session.id}`);
    if (i === 2) t.equal(res.status, 404, 'the session of the damaged line is gone');
    else
      t.match(
        res,
        { status: 200, body: { data: { id: session.id, attributes: { amount: session.amount, reference: `doctor-${i + 1}` } } } },
        `session ${i + 1} is kept`,
      );
  }

  // While a payemu holds the directory, doctor keeps away, naming it.
  const busy = await runPayemu(t, ['doctor', '--data', dir, '--repair']);
  t.equal(busy.code, 1);
  t.match(busy.stderr, `in use by a running payemu (pid ${second.proc.pid}) at ${second.url}`);
  t.same(await second.proc.stop(), { code: 0, signal: null });

  const healthy = await runPayemu(t, ['doctor', '--data', dir]);
  t.equal(healthy.code, 0, 'doctor: exit 0 on a healthy store');
  t.match(healthy.stdout, /healthy: \d+ records/);

  // A torn last record (a crash while writing) is not damage: start drops it, doctor notes it.
  fs.appendFileSync(journal, '[["sessions","cs_torn",{"id":"cs_t');
  const torn = await runPayemu(t, ['doctor', '--data', dir]);
  t.equal(torn.code, 0, 'a torn last write leaves the store healthy');
  t.match(torn.stdout, /note: journal-000001\.ndjson line \d+ \(byte \d+\) is an unfinished last write/);
  const third = await startPayemu(t, ['--data', dir]);
  t.equal((await client(third.url, KEY).get(`/v1/sessions/${sessions[4]!.id}`)).status, 200);
  t.same(await third.proc.stop(), { code: 0, signal: null });
});

t.test('doctor on a directory that is not a payemu store: exit 2, nothing written', async (t) => {
  const dir = dataDir(t);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
  const res = await runPayemu(t, ['doctor', '--data', dir, '--repair']);
  t.equal(res.code, 2);
  t.match(res.stderr, 'does not look like a payemu data directory');
  t.same(fs.readdirSync(dir), ['notes.txt']);
});
