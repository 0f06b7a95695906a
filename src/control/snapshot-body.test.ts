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

t.test(
  'property: records kept as sent, laid out at random and holding `},{`, brackets and quotes in strings and nested lists, parse as JSON.parse does, each span one record',
  async (t) => {
    // A seeded generator (mulberry32): the same 200 documents every run.
    let seed = 39;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const space = () => pick(['', '', '', ' ', '\n', '\t ', '\r\n  ']);
    const tricky = ['},{', '},{"id":"7"}', '[{', ']}', '"', '\\', '{"id":"', 'plain', 'café ☕', ''];
    const record = (id: number): Record<string, unknown> => {
      const r: Record<string, unknown> = { id: String(id), amount: Math.floor(random() * 1000) };
      if (random() < 0.4) r.note = pick(tricky) + pick(tricky);
      // A nested list of objects: a `},{` between them, one with the next record's id.
      if (random() < 0.3) r.items = [{ id: String(id + 1) }, { quantity: 2, tags: [pick(tricky)] }];
      if (random() < 0.2) r.metadata = { deep: { deeper: [1, { id: String(id + 1) }] } };
      return r;
    };
    // JSON text of `value` with random white space between tokens outside strings.
    const laidOut = (value: unknown): string => {
      if (Array.isArray(value)) return `[${space()}${value.map((v) => `${laidOut(v)}${space()}`).join(`,${space()}`)}]`;
      if (value !== null && typeof value === 'object')
        return `{${space()}${Object.entries(value)
          .map(([k, v]) => `${JSON.stringify(k)}${space()}:${space()}${laidOut(v)}`)
          .join(`${space()},${space()}`)}${space()}}`;
      return JSON.stringify(value);
    };
    for (let n = 0; n < 200; n++) {
      const count = 1 + Math.floor(random() * 250);
      const payments = Array.from({ length: count }, (_, i) => record(i + 1));
      const others = random() < 0.2 ? [1, 'x', null, [2], { id: 'o' }] : [{ id: 'a' }];
      const doc = { payemu_snapshot: 1, scope: 'all', data: { payments, others } };
      const text = random() < 0.5 ? JSON.stringify(doc) : laidOut(doc);
      const bytes = Buffer.from(text);
      const parser = new SnapshotParser({ keep: bytes.length });
      const size = pick([1, 7, 64, 4096, 1e9]);
      for (let i = 0; i < bytes.length; i += size) parser.feed(bytes.subarray(i, i + size));
      const body = parser.end() as StreamedSnapshot;
      // Each span is one record, alone: the bytes a snapshot file would keep for it.
      const list = body.lists.find((l) => l.name === 'payments')!;
      for (let i = list.from; i < list.to; i++) {
        const span = JSON.parse(body.bytes.toString('utf8', body.starts[i], body.ends[i]));
        if (JSON.stringify(span) !== JSON.stringify(payments[i - list.from])) {
          t.fail(`document ${n}: record ${i - list.from}'s span is not that record`);
          return;
        }
      }
      t.same(
        body.materialize(),
        JSON.parse(text),
        `document ${n}: ${count} records, ${text === JSON.stringify(doc) ? 'compact' : 'laid out'}, ${size} bytes a chunk`,
      );
    }
  },
);
