import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { dataDirOf, dropNamespaceDir, holdsPayemuData, namespaceEntries, removeDefaultFiles, removeLeftovers, written } from './namespace-dirs.js';

/** The layout of named namespaces in a data directory, as a start, doctor and reset read it. */

const ns = (dir: string, ...parts: string[]) => path.join(dir, 'namespaces', ...parts);

t.test('entries of DATA/namespaces by what a start does with them', async (t) => {
  const dir = t.testdir({
    'journal-000001.ndjson': '[]\n',
    namespaces: {
      kept: { 'journal-000001.ndjson': '[["meta","clock",{"id":"clock"}]]\n' },
      snapshotted: { 'snapshot.json': '{}' },
      torn: { 'journal-000001.ndjson': '[["meta","clo' },
      empty: { 'journal-000001.ndjson': '' },
      bare: {},
      '.deleted-gone-0a1b2c3d': { 'journal-000001.ndjson': '[]\n' },
      'Upper-Case': {},
      file: 'a file',
    },
  });
  const entries = namespaceEntries(dir);
  t.same(entries, {
    kept: ['kept', 'snapshotted'],
    unborn: ['bare', 'empty', 'torn'],
    dropped: ['.deleted-gone-0a1b2c3d'],
    strays: [
      { entry: 'Upper-Case', why: 'not a namespace name (1 to 32 characters of a-z, 0-9, _ and -)' },
      { entry: 'file', why: 'not a directory' },
    ],
  });
  removeLeftovers(dir, entries);
  t.same(fs.readdirSync(ns(dir)).sort(), ['Upper-Case', 'file', 'kept', 'snapshotted'], 'the dropped and the unborn go, the strays stay');
  t.same(namespaceEntries(t.testdir()), { kept: [], unborn: [], dropped: [], strays: [] }, 'none yet');
});

t.test('written: a snapshot, or a whole journal line past the first read', async (t) => {
  const dir = t.testdir({ 'journal-000001.ndjson': `${'x'.repeat(70_000)}\n` });
  t.ok(written(dir));
  fs.writeFileSync(path.join(dir, 'journal-000001.ndjson'), 'x'.repeat(70_000));
  t.notOk(written(dir), 'a line without its newline was never answered');
});

t.test('dropNamespaceDir: renamed aside, then removed; a missing one is nothing to do', async (t) => {
  const dir = t.testdir({ namespaces: { w3: { 'journal-000001.ndjson': '[]\n' } } });
  t.equal(await dropNamespaceDir(dir, 'w3'), ns(dir, 'w3'));
  t.same(fs.readdirSync(ns(dir)), []);
  t.equal(await dropNamespaceDir(dir, 'w3'), undefined);
});

t.test('removeDefaultFiles keeps the named namespaces and the lock; holdsPayemuData sees either', async (t) => {
  const dir = t.testdir({
    'snapshot.json': '{}',
    'journal-000002.ndjson': '[]\n',
    'journal-000003.ndjson': '[]\n',
    'index-keys.json': '',
    'journal-000002.ndjson.damaged-1': '',
    'payemu.lock': '{}',
    namespaces: { w1: { 'journal-000001.ndjson': '[]\n' } },
  });
  t.ok(holdsPayemuData(dir));
  removeDefaultFiles(dir);
  t.same(fs.readdirSync(dir).sort(), ['namespaces', 'payemu.lock']);
  t.ok(holdsPayemuData(dir), 'named namespaces alone are payemu data');
  fs.rmSync(ns(dir), { recursive: true });
  t.notOk(holdsPayemuData(dir));
});

t.test("dataDirOf: a namespace's directory belongs to the data directory two levels up", async (t) => {
  t.equal(dataDirOf('/x/data/namespaces/w3'), '/x/data');
  t.equal(dataDirOf('/x/data'), '/x/data');
  t.equal(dataDirOf('/x/namespaces/Not-A-Name'), '/x/namespaces/Not-A-Name');
});
