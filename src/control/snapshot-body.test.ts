import t from 'tap';
import { SnapshotParser } from './snapshot-body.js';
import { StreamedSnapshot } from './snapshot-streamed.js';

/** Whether the parsers below keep the records' bytes (an import of everything: StreamedSnapshot), each then parsed. */
let keep = false;

/** `text` fed to a parser `size` bytes at a time; with `keep`, refused as readSnapshotBody refuses, and the records parsed. */
function parse(text: string | Buffer, size: number): unknown {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const parser = new SnapshotParser(keep ? { keep: 16 } : undefined);
  let result: unknown;
  try {
    for (let i = 0; i < bytes.length; i += size) parser.feed(bytes.subarray(i, i + size));
    result = parser.end();
  } catch (error) {
    throw parser.badRecord() ?? error;
  }
  return result instanceof StreamedSnapshot ? result.materialize() : result;
}

/** What `parse` refuses: `status message`, or 'OK'. */
function refusal(text: string, size = 5): string {
  try {
    parse(text, size);
    return 'OK';
  } catch (error) {
    return `${(error as { status: number }).status} ${(error as Error).message}`;
  }
}

const records = Array.from({ length: 40 }, (_, i) => ({ id: String(i + 1), source: 'acme', mode: 'test', amount: 100 + i, metadata: { n: i } }));
records[3]!.metadata = { note: '},{"x":1}]', deep: [{ a: [{ b: 1 }] }] } as never;
records[7]!.metadata = { quote: 'a "quoted" \\ back}slash', emoji: 'héllo 💳' } as never;
const doc = {
  payemu_snapshot: 1,
  scope: 'all',
  clock: { now: '2027-01-01T12:00:00.000000Z', offset_seconds: 5, frozen: true },
  data: { meta: [{ id: 'counter:payments', value: 40 }], payments: records, sessions: [], events: [[1], 'x', null, 7] },
};

for (const kept of [false, true]) {
  t.test(kept ? 'records kept as sent, then parsed' : 'records parsed as they arrive', async (t) => {
    t.beforeEach(() => {
      keep = kept;
    });
    t.test('the document, fed in chunks of any size and laid out any way, is what JSON.parse makes of it', async (t) => {
      for (const [name, text] of [
        ['compact', JSON.stringify(doc)],
        ['indented', JSON.stringify(doc, null, 2)],
        ['tabs, white space around', `\n\t ${JSON.stringify(doc, null, '\t')} \n`],
        ['data not an object', JSON.stringify({ ...doc, data: [1, 2] })],
        ['data twice', `{"data":{"a":[1]},"x":1,"data":{"b":[{"id":"2"}]}}`],
      ] as const) {
        for (const size of [1, 2, 3, 7, 64, 4096, 1e9]) t.same(parse(text, size), JSON.parse(text), `${name}, ${size} bytes a chunk`);
      }
    });

    t.test('what readJson answers is answered: JSON cut short or broken, too deep, __proto__, lone surrogates, not an object, nothing', async (t) => {
      const text = JSON.stringify(doc);
      t.equal(refusal(text.slice(0, text.length - 40)), '400 The request body is not valid JSON: Unexpected end of JSON input.');
      t.match(refusal(text.replace('"payments":[{', '"payments":[{,')), /^400 The request body is not valid JSON: /);
      t.equal(
        refusal(`${text} x`),
        `400 The request body is not valid JSON: Unexpected token 'x' at position ${Buffer.byteLength(text) + 1} (after the JSON).`,
      );
      t.match(refusal('{"a":1,}'), /^400 .*Unexpected token '}'/);
      t.match(refusal('{"data":{"p":[1,]}}'), /^400 .*Unexpected token ']'/);
      t.equal(refusal(`{"data":{"p":[${'['.repeat(70)}${']'.repeat(70)}]}}`), '400 The request body is nested too deeply: more than 64 levels.');
      // The document, its data, the list and the record are 4 levels.
      t.equal(refusal(`{"data":{"p":[{"x":${'['.repeat(60)}${']'.repeat(60)}}]}}`), 'OK', '64 levels deep in all is not too deep');
      t.equal(refusal(`{"data":{"p":[{"x":${'['.repeat(61)}${']'.repeat(61)}}]}}`), '400 The request body is nested too deeply: more than 64 levels.');
      t.equal(
        refusal(`{"data":{"p":[{"x":${'['.repeat(61)}${']'.repeat(61)}}]}}`, 1e9),
        '400 The request body is nested too deeply: more than 64 levels.',
        'read whole',
      );
      t.equal(
        refusal(text.replace('"metadata":{"n":9}', '"metadata":{"__proto__":{"n":9}}'), 3),
        '422 The data.payments.9.metadata.__proto__ field is not allowed.',
      );
      t.equal(refusal('{"__proto__":{"x":1}}'), '422 The __proto__ field is not allowed.');
      t.equal(refusal('{"data":{"__proto__":[]}}'), '422 The data.__proto__ field is not allowed.');
      t.match(
        refusal(text.replace('"metadata":{"n":9}', '"metadata":{"\\ud800":9}')),
        /^422 The data\.payments\.9\.metadata\..* field must be well-formed Unicode text/,
      );
      t.match(
        refusal(text.replace('"metadata":{"n":9}', '"metadata":{"\\ud800":9}').replace('"metadata":{"n":20}', '"metadata":{"__proto__":1}')),
        /^422 .*__proto__ field is not allowed/,
        'a __proto__ key before a lone surrogate, as readJson',
      );
      t.match(
        refusal(text.replace('"metadata":{"n":9}', '"metadata":{"\\ud800":9}').replace('"metadata":{"n":20}', '"metadata":{"\\u005f_proto__":1}')),
        /^422 The data\.payments\.20\.metadata\.__proto__ field is not allowed/,
        'a __proto__ key spelled with escapes, after a lone surrogate',
      );
      t.equal(
        refusal(`${text.slice(0, -1)},"x":{"__proto__":1}}`.replace('"metadata":{"n":20}', '"metadata":{"__proto__":1}')),
        '422 The data.payments.20.metadata.__proto__ field is not allowed.',
        'the first __proto__ key of the body, in a record before a field',
      );
      t.equal(
        refusal(`{"x":{"__proto__":1},${text.slice(1)}`.replace('"metadata":{"n":20}', '"metadata":{"__proto__":1}')),
        '422 The x.__proto__ field is not allowed.',
        'the first __proto__ key of the body, in a field before the records',
      );
      t.match(refusal(`${text.slice(0, -3)}x}}`), /^400 /, 'a syntax error after a __proto__ key is the 400');
      t.same(parse('[1, 2]', 2), [1, 2], 'not an object: parsed whole');
      t.equal(parse('  \n ', 1), undefined, 'nothing but white space: no body');
      t.equal(parse('', 1), undefined);
      const notUtf8 = Buffer.concat([Buffer.from(text.slice(0, 200)), Buffer.from([0xff]), Buffer.from(text.slice(200))]);
      t.throws(() => parse(notUtf8, 100), { status: 400, message: 'The request body is not valid UTF-8.' });
    });
  });
}
