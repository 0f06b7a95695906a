import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { BIN } from './helpers/cli.js';
import { nodeWithoutCoverage } from './helpers/plain-node.js';

/**
 * examples/checkout-app's own integration test, run as its README says (`payemu exec
 * --webhook-url ... -- node --test`) against this checkout: the app is copied to a project whose
 * node_modules/payemu links here, so its `import { verifyWebhook } from 'payemu'` is this build.
 * (.ci/check-pack runs it against the packed tarball.)
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A port free a moment ago, for the app: payemu must be told where webhooks go before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

t.test('examples/checkout-app: its test passes under payemu exec', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payemu-example-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const app = path.join(dir, 'checkout-app');
  fs.cpSync(path.join(ROOT, 'examples/checkout-app'), app, { recursive: true });
  fs.mkdirSync(path.join(app, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(app, 'node_modules/payemu'));

  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  // tap's coverage hooks are not the app's.
  const child = spawn(
    ...nodeWithoutCoverage([BIN, 'exec', '--webhook-url', `http://127.0.0.1:${port}/webhooks`, '--', process.execPath, '--test', '--test-reporter=tap']),
    {
      cwd: app,
      env,
    },
  );
  t.teardown(() => void (child.exitCode === null && child.kill('SIGKILL')));
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  // The TAP reporter's summary (Node 20's default when not on a terminal; 22+ print `ℹ pass 3`).
  t.equal(code, 0, output);
  t.match(output, /^# pass 3$/m);
  t.match(output, /^# fail 0$/m);
});
