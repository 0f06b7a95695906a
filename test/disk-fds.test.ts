import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { idleSocket } from './helpers/disk.js';
import { nodeWithoutCoverage } from './helpers/plain-node.js';

/**
 * docs/reliability.md, "The disk": no file descriptor left when the journal rotates. A real
 * payemu process (the built library, with a small rotation threshold) has its open-files limit
 * lowered (`prlimit --pid`) to its lowest free descriptor: every open(2) and accept(2) fails
 * with EMFILE, while a kept-alive connection goes on. Run `npm run build` first.
 */

const DIST_INDEX = fileURLToPath(new URL('../dist/index.js', import.meta.url));
// The payemu process ends when the test's does (its stdin, a pipe from the test, ends): a test
// killed by tap's timeout leaves no process holding tap's stderr, which tap would wait for.
const SCRIPT = `
process.stdin.on('end', () => process.exit(1)).resume();
const { startEmulator } = await import(${JSON.stringify(pathToFileURL(DIST_INDEX).href)});
const e = await startEmulator({ port: 0, inMemory: false, dataDir: process.argv[2], compactAfterBytes: 10000 });
console.log(e.url);
`;

t.test('no descriptor for the next segment: 503 "too many open files", nothing applied, no journal bytes to a client', async (t) => {
  if (!fs.existsSync(DIST_INDEX)) throw new Error('dist/ is missing: run `npm run build` first');
  try {
    execFileSync('prlimit', ['--version'], { stdio: 'pipe' });
  } catch {
    t.plan(0, 'needs prlimit (util-linux)');
    return;
  }
  const dir = t.testdir({ 'start.mjs': SCRIPT });
  const data = path.join(dir, 'data');
  const child = spawn(...nodeWithoutCoverage([path.join(dir, 'start.mjs'), data]), { stdio: ['pipe', 'pipe', 'inherit'] });
  t.teardown(() => void child.kill('SIGKILL'));
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const url = (await lines.next()).value as string;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const post = (reference: string, pad = 0) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify({ amount: 10, reference, metadata: { pad: 'x'.repeat(pad) } });
      const req = http.request(`${url}/v1/sessions`, {
        method: 'POST',
        agent,
        headers: { Authorization: 'Bearer sk_test_payemu_acme', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      // An answer that never comes fails here, saying so, rather than at tap's timeout: the
      // kept-alive connection closed (the server's keep-alive timeout, 5 s, passed on a loaded
      // machine) leaves a request no connection can carry while no descriptor is left.
      req.setTimeout(20_000, () => req.destroy(new Error(`no answer to POST ${reference} in 20 s`)));
      req.on('error', reject).end(body);
    });

  t.equal((await post('a')).status, 201, 'the kept-alive connection is open');
  const idle = await idleSocket(t, url);
  const open = new Set(fs.readdirSync(`/proc/${child.pid}/fd`).map(Number));
  let lowestFree = 0;
  while (open.has(lowestFree)) lowestFree++;
  execFileSync('prlimit', ['--pid', String(child.pid), `--nofile=${lowestFree}:`]);

  // Over the threshold: this line is kept in the current segment; the next one cannot be opened.
  const crossing = await post('b', 12_000);
  const next = crossing.status === 201 ? await post('c') : crossing;
  t.equal(next.status, 503, next.body);
  t.match(JSON.parse(next.body).errors[0].detail, /^payemu cannot write its data directory: too many open files$/);

  execFileSync('prlimit', ['--pid', String(child.pid), '--nofile=1024:']);
  t.equal((await post('d')).status, 201, 'descriptors back: the next write succeeds');
  t.equal(idle.received(), 0, 'no journal bytes reached a client');
  // The rotation 'd' made starts a compaction in the background: once it ends, 'a' and 'b' are in
  // snapshot.json and their segment is gone.
  const journal = fs
    .readdirSync(data)
    .filter((name) => name.startsWith('journal-') || name === 'snapshot.json')
    .map((name) => fs.readFileSync(path.join(data, name), 'utf8'))
    .join('');
  const kept = ['a', 'b', 'c', 'd'].filter((ref) => journal.includes(`"reference":"${ref}"`));
  t.same(kept, crossing.status === 201 ? ['a', 'b', 'd'] : ['a', 'd'], 'the journal and the snapshot hold exactly the acknowledged writes');
});
