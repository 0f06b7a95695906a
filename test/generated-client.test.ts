import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import t from 'tap';
import ts from 'typescript';
import { EVENT_WIRE, ROUTES } from '../src/catalogue.js';
import { buildOpenApi } from '../src/control/openapi.js';
import { emulator } from './helpers/emulator.js';

/**
 * A client generated from payemu's OpenAPI document, as a user makes one: openapi-typescript
 * with its defaults, then a file of ordinary calls (test/fixtures/generated-client/calls.ts)
 * compiled with `--strict` and run against a real payemu. It fails when the document makes
 * ordinary code stop compiling: metadata that takes no values, a payment link id typed as a
 * string, attributes of a read typed as optional.
 */
const CALLS = fileURLToPath(new URL('./fixtures/generated-client/calls.ts', import.meta.url));

t.test('openapi-typescript types of the document compile ordinary calls under --strict, and the calls work', async (t) => {
  // The document payemu serves (test/openapi.test.ts: the same), made here: the compile below
  // holds the event loop for seconds, and an emulator started before it would close the
  // keep-alive connection its fetches then reuse.
  const document = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const dir = t.testdir({});
  fs.writeFileSync(path.join(dir, 'payemu.ts'), astToString(await openapiTS(document as unknown as OpenAPI3)));
  fs.copyFileSync(CALLS, path.join(dir, 'calls.ts'));

  const program = ts.createProgram([path.join(dir, 'calls.ts')], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
    outDir: dir,
  });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  t.same(diagnostics, [], 'no compile error');
  if (diagnostics.length > 0) return;

  const e = await emulator(t);
  const calls = (await import(pathToFileURL(path.join(dir, 'calls.js')).href)) as {
    run(connection: { url: string; key: string }): Promise<string[]>;
  };
  const seen = await calls.run({ url: e.url, key: 'sk_test_payemu_acme' });
  t.match(seen, [
    'session cs_ 25 true',
    'payment PAID true 25.00 1 true',
    'listed gen-1 paid',
    'pages 1',
    /^link true true 0 T-shirt$/,
    'me test USD',
    /^tax tc_ \d+\.\d{2}$/,
  ]);
});
