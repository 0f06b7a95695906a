import { auth, bodyRoutes, chunked, fill, int, isJson, JSON_TYPE, NASTY, pick, random, wrongFor, type Add, type Schema } from './cases.js';

/** Bodies a route cannot read: broken, foreign, huge, polluting, nested, misshapen. */
export function bodyCases(add: Add): void {
  // 6. Bodies that are not JSON objects the route can read, on every POST and PATCH key route:
  //    broken JSON (400), other content types (415), over 1 MiB (413), `__proto__` keys (422),
  //    nesting past the limit (400), the wrong shape for the route's schema (422).
  const brokenJson = [
    '{',
    '}',
    '[',
    '{"amount":',
    '{"amount": 10,}',
    "{'amount': 10}",
    '{amount: 10}',
    'NaN',
    '{"amount": NaN}',
    '{"amount": Infinity}',
    '{"amount": -Infinity}',
    '{"amount": 0x10}',
    '{"amount": 010}',
    '{"amount": 1.}',
    '{"amount": .5}',
    '{"amount": +1}',
    '{"a":1} x',
    '{"a":1}{"a":2}',
    '\ufeff{"amount":10}',
    '{"a":"\u0001"}',
    '{"a":"\\x41"}',
    '{"a":"\\u12"}',
    '[1,2',
    'undefined',
    'nul',
    'tru',
    '"unterminated',
    '{"a" 1}',
    '{"a":1,,"b":2}',
    '[,1]',
    '\u0000',
    '{"amount":10}\u0000',
    '//comment\n{}',
    '/* */{}',
    '{"__proto__":',
    '{"amount": 10, "description": "line\nbreak"}',
    '{"\ud800": 1',
    '{"amount":1e}',
    '{"amount":-}',
    '[}',
    '{]',
    '\\',
    '{"a":true false}',
  ];
  const wrongTypes = [
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/javascript',
    'application/jsonx',
    'json',
    'application',
    '*/*',
    'application/json-seq',
    'application/vnd.api+xml',
    'APPLICATION/X-JSON',
    'text/plain; charset=application/json',
    'application/jsön',
    '__proto__',
    'application/json, text/plain',
    'text/html',
  ];
  const nest = (depth: number, open: string, close: string, inner = '1') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
  for (const route of bodyRoutes) {
    const target = () => fill(route);
    const post = (name: string, body: string | Buffer, expect: number | number[], headers: [string, string][] = [auth(), JSON_TYPE]) =>
      add({ name: `${name}: ${route.method} ${route.path}`, method: route.method, target: target(), headers, body, expect });

    for (const text of brokenJson) post(`broken JSON ${JSON.stringify(text).slice(0, 40)}`, text, 400);
    for (let i = 0; i < 25; i++) {
      // A valid document cut short or with a stray character: never valid JSON, never blank.
      const whole = JSON.stringify({ amount: 10, reference: pick(NASTY), metadata: { k: pick(NASTY), n: [1, { x: pick(NASTY) }] } });
      const broken =
        i % 2 === 0
          ? whole.slice(0, 1 + int(whole.length - 2))
          : `${whole.slice(0, int(whole.length))}${pick(['"', '{', ']', ',', ':', '\u0000', 'x'])}${whole.slice(int(whole.length))}`;
      if (broken.trim() === '' || isJson(broken)) continue;
      post('broken JSON (generated)', broken, 400);
    }
    // Invalid UTF-8 inside broken JSON.
    post('broken JSON with invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a]), 400);

    for (const type of wrongTypes)
      post(`content type ${type}`, '{"amount": 10, "card_number": "4242424242424242", "by": "1d"}', 415, [auth(), ['Content-Type', type]]);
    post('no content type', '{"amount": 10, "card_number": "4242424242424242", "by": "1d"}', 415, [auth()]);
    post('empty content type', '{"amount": 10}', 415, [auth(), ['Content-Type', '']]);

    for (const words of [['__proto__'], ['a', '__proto__'], ['metadata', '__proto__'], ['a', 'b', 'c', '__proto__']]) {
      // `{"w1": {"w2": ... {"__proto__": {"polluted": true}}}}`, alone and inside a request that
      // would be valid without it: the `__proto__` key alone must refuse it.
      const text = words.reduceRight((inner, key) => `{${JSON.stringify(key)}:${inner}}`, '{"polluted": true}');
      post(`__proto__ at ${words.join('.')}`, text, 422);
      post(`__proto__ at x.${words.join('.')}`, `{"amount": 10, "card_number": "4242424242424242", "by": "1d", "x": ${text}}`, 422);
    }
    post('__proto__ null', '{"__proto__": null, "amount": 10}', 422);
    post('__proto__ in an array', '[{"__proto__": {"polluted": true}}]', 422);
    post(
      '__proto__ written with escapes',
      '{"amount": 10, "card_number": "4242424242424242", "by": "1d", "metadata": {"\\u005f_proto__": {"polluted": true}}}',
      422,
    );
    post(
      '__proto__ key written with escapes at top',
      '{"\\u005F\\u005Fproto\\u005F\\u005F": {"amount": 10}, "amount": 10, "by": "1d", "card_number": "4242424242424242"}',
      422,
    );

    post('nested 65 levels', `{"amount": 10, "card_number": "4242424242424242", "metadata": ${nest(65, '{"a":', '}')}}`, 400);
    post('nested 10,000 arrays', nest(10_000, '[', ']'), 400);
    post('nested 10,000 objects', nest(10_000, '{"a":', '}'), 400);
    post('nested 10,000 in metadata', `{"amount": 10, "card_number": "4242424242424242", "by": "1d", "metadata": ${nest(10_000, '{"a":', '}')}}`, 400);
    post('nested 200,000 arrays', nest(200_000, '[', ']'), 400);
    post('nested 100,000 objects with __proto__ inside', nest(100_000, '{"a":', '}', '{"__proto__": 1}'), 400);
    post('nested 10,000 mixed, broken at the end', `${'[{"a":'.repeat(10_000)}1`, 400);

    // Over 1 MiB: declared, chunked, and a document that would be valid if it were smaller.
    // (A snapshot import takes far more: its own limit, not tried here.)
    if (route.bodyLimit !== undefined) continue;
    const big = (bytes: number) => `{"amount": 10, "card_number": "4242424242424242", "description": "${'x'.repeat(bytes)}"}`;
    post('1 MiB + 1 byte', big(1024 * 1024), 413);
    add({
      name: `chunked over 1 MiB: ${route.method} ${route.path}`,
      method: route.method,
      target: target(),
      headers: [auth(), JSON_TYPE, ['Transfer-Encoding', 'chunked']],
      body: chunked(big(1024 * 1024 + 10)),
      expect: 413,
    });
  }
  // The biggest ones once per kind, on the routes the issue names.
  add({
    name: 'oversized: 3 MiB session',
    method: 'POST',
    target: '/v1/sessions',
    headers: [auth(), JSON_TYPE],
    body: `{"amount": 10, "metadata": {"a": "${'y'.repeat(3 * 1024 * 1024)}"}}`,
    expect: 413,
  });
  add({
    name: 'oversized: 1 MiB of spaces',
    method: 'POST',
    target: '/_payemu/clock/advance',
    headers: [auth(), JSON_TYPE],
    body: `{"by": "1d"${' '.repeat(1024 * 1024)}}`,
    expect: 413,
  });

  // The wrong shape for each route's schema (422): not an object, missing what is required,
  // known fields of the wrong type; with `constructor`/`prototype` keys and unicode around.
  for (const route of bodyRoutes.filter((r) => r.body)) {
    const schema = route.body as Schema;
    const post = (name: string, value: unknown) =>
      add({
        name: `schema ${name}: ${route.method} ${route.path}`,
        method: route.method,
        target: fill(route),
        headers: [auth(), JSON_TYPE],
        body: JSON.stringify(value),
        expect: 422,
      });
    if (schema.type === 'object') {
      for (const value of [[], [{}], 'str', '', 0, 42, -1.5, true, false, [{ amount: 10 }], ['__proto__']]) post(`body ${JSON.stringify(value)}`, value);
    }
    if (schema.required?.length) {
      post('{}', {});
      post('null', null); // no body: the required fields are missing
      for (let i = 0; i < 6; i++) {
        const junk: Record<string, unknown> = { [pick(NASTY)]: pick(NASTY), constructor: { prototype: { polluted: true } }, prototype: { polluted: true } };
        for (const [name, property] of Object.entries(schema.properties ?? {}))
          if (!schema.required.includes(name) && random() < 0.3) junk[name] = wrongFor(property);
        post('missing required', junk);
      }
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (property.type === undefined) continue;
      for (let i = 0; i < 4; i++) post(`${name} of the wrong type`, { [name]: wrongFor(property), constructor: pick([null, 'x', { prototype: {} }]) });
    }
  }
}
