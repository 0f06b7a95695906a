import http from 'node:http';
import t from 'tap';
import { SNAPSHOT_BODY_LIMIT } from '../src/control/snapshot.js';
import { emulator } from './helpers/emulator.js';
import { checkAgainstOpenApi } from './helpers/openapi.js';

/** Sends only the head of a POST declaring `length` bytes, and resolves with the answer that comes before any body byte. */
function declareOnly(url: string, path: string, length: number): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_test_payemu_acme', 'Content-Type': 'application/json', 'Content-Length': String(length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode!, type: res.headers['content-type'], text });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

t.test('a snapshot body over the limit (500 MiB, below what V8 can hold as one string) is a 413 before the body is read', async (t) => {
  t.equal(SNAPSHOT_BODY_LIMIT, 500 * 1024 * 1024);
  const e = await emulator(t);
  // The head alone: the answer must come without a byte of the body (none is ever sent).
  const answer = await declareOnly(e.url, '/_payemu/snapshot', SNAPSHOT_BODY_LIMIT + 1);
  t.equal(answer.status, 413);
  checkAgainstOpenApi('POST', '/_payemu/snapshot', answer.status, answer.type ?? null, answer.text);
  t.match(JSON.parse(answer.text), { errors: [{ status: '413', detail: 'The request body is larger than 500 MiB.' }] });
  t.equal((await e.api.get('/_payemu/health')).status, 200, 'payemu answers on');
});
