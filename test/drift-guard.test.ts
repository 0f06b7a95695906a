import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t from 'tap';
import { driftLog } from '../src/client/drift-log.js';
import { runPayemu } from './helpers/cli.js';
import { emulator } from './helpers/emulator.js';
import { checkDriftLog } from './helpers/openapi.js';

// The drift guard of the CLI: the answers a `payemu` process receives are logged (PAYEMU_DRIFT_LOG)
// and checked against the OpenAPI document by test/helpers/cli.ts, as the answers of the tests'
// own client are checked by test/helpers/emulator.ts.

const entry = (fields: Record<string, unknown>) =>
  JSON.stringify({ method: 'GET', path: '/_payemu/clock', status: 200, contentType: 'application/json; charset=utf-8', ...fields });

t.test('a logged answer that leaves its schema is reported with its operation and the schema error', async (t) => {
  const good = entry({ text: JSON.stringify({ now: '2026-01-01T00:00:00.000000Z', offset_seconds: 0, frozen: false }) });
  t.same(checkDriftLog(`${good}\n`), [], 'an answer the document describes passes');

  const [wrong, ...rest] = checkDriftLog(`${good}\n${entry({ text: JSON.stringify({ now: 5, offset_seconds: 0, frozen: false }) })}\n`);
  t.same(rest, [], 'one problem: the wrong answer');
  t.match(wrong, /^OpenAPI drift: GET \/_payemu\/clock answered 200 with a body that leaves its schema/);
  t.match(wrong, /\/now must be string/, 'names the field and what is wrong with it');

  const [unlisted] = checkDriftLog(`${entry({ status: 418, text: '{}' })}\n`);
  t.match(unlisted, /answered 418, which the document does not list for GET \/_payemu\/clock/);

  t.match(checkDriftLog(`not json\n${good}\n`), [/drift log line 1 is not JSON/]);
  t.same(checkDriftLog(`${good}\n{"method":"GE`), [], 'a last line cut short by a killed process is skipped');
});

t.test('the client logs every answer it receives when PAYEMU_DRIFT_LOG names a file, and nothing otherwise', async (t) => {
  t.equal(driftLog(''), undefined, 'off without a file');
  const file = path.join(t.testdir(), 'answers.jsonl');
  const log = driftLog(file)!;
  const answer = new Response('{"now":"x"}', { status: 200, headers: { 'content-type': 'application/json' } });
  const handed = await log('GET', '/_payemu/clock?x=1', answer);
  t.equal(await handed.text(), '{"now":"x"}', 'the caller still reads the whole answer, from what the log hands on');
  t.match(handed, { status: 200, ok: true });
  t.equal(handed.headers.get('content-type'), 'application/json');
  const bytes: Uint8Array[] = [];
  for await (const chunk of (await log('GET', '/_payemu/clock', new Response('{"é":1}'))).body!) bytes.push(chunk);
  t.equal(Buffer.concat(bytes).toString(), '{"é":1}', 'or its body, as the bytes it was sent as');
  const stream = new Response(new ReadableStream({ start() {} }), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  t.equal(await log('GET', '/_payemu/events/stream', stream), stream, 'an event stream is handed on unread');
  t.same(
    fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
    [
      { method: 'GET', path: '/_payemu/clock?x=1', status: 200, contentType: 'application/json', text: '{"now":"x"}' },
      { method: 'GET', path: '/_payemu/clock', status: 200, contentType: 'text/plain;charset=UTF-8', text: '{"é":1}' },
      { method: 'GET', path: '/_payemu/events/stream', status: 200, contentType: 'text/event-stream', text: '' },
    ],
    'one line per answer; an event stream is not read',
  );
});

t.test('a CLI command that receives an answer off its schema fails the test that ran it', async (t) => {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/_payemu/clock' ? { now: '2026-01-01T00:00:00.000000Z', offset_seconds: 'none', frozen: false } : {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await t.rejects(
    runPayemu(t, ['clock', '--url', url]),
    /OpenAPI drift: GET \/_payemu\/clock answered 200 with a body that leaves its schema[\s\S]*offset_seconds must be integer/,
  );
});

t.test('the answers a CLI command receives from payemu are logged and pass the guard', async (t) => {
  const e = await emulator(t);
  const file = path.join(t.testdir(), 'answers.jsonl');
  const run = await runPayemu(t, ['clock', '--url', e.url], { env: { PAYEMU_DRIFT_LOG: file } });
  t.equal(run.code, 0, run.stderr);
  const logged = fs.readFileSync(file, 'utf8');
  t.match(JSON.parse(logged.trim().split('\n')[0]!), { method: 'GET', path: '/_payemu/clock', status: 200 });
  t.same(checkDriftLog(logged), []);
});
