import { Validator } from '@seriousme/openapi-schema-validator';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';
import { EVENT_NAMES, EVENT_WIRE, ROUTES } from '../src/catalogue.js';
import { DEFAULT_URL } from '../src/cli/client.js';
import { buildOpenApi, isDocumented, openApiPath } from '../src/control/openapi.js';
import { emulator } from './helpers/emulator.js';
import { checkAgainstOpenApi } from './helpers/openapi.js';

/**
 * The OpenAPI document: served without a key, shipped as openapi.json (written by `npm run
 * build`), equal, valid OpenAPI 3.1 by an independent validator, every schema valid JSON Schema
 * 2020-12, every route of /v1 and /_payemu/ in it. That every answer conforms is checked by the
 * test suite itself: helpers/openapi.ts checks each answer the helpers' client receives.
 */
const SHIPPED = new URL('../openapi.json', import.meta.url);

t.test('served at GET /_payemu/openapi.json without a key, valid OpenAPI 3.1', async (t) => {
  const e = await emulator(t);
  const served = await e.anon.get('/_payemu/openapi.json');
  t.equal(served.status, 200);
  t.match(served.headers.get('content-type'), /^application\/json/);
  t.equal(served.body.openapi, '3.1.0');

  const validator = new Validator();
  const result = await validator.validate(structuredClone(served.body));
  t.same(result.errors, undefined, 'no errors');
  t.ok(result.valid, 'valid by @seriousme/openapi-schema-validator');
  t.equal(validator.version, '3.1');

  t.same(served.body, buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads), 'the same document the generator makes');
});

t.test('shipped as openapi.json in the package, equal to the served one', async (t) => {
  t.ok(fs.existsSync(SHIPPED), 'openapi.json exists (npm run build writes it)');
  const shipped = JSON.parse(fs.readFileSync(SHIPPED, 'utf8'));
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  t.ok(pkg.files.includes('openapi.json'), 'package.json files lists openapi.json');
  t.equal(shipped.info.version, pkg.version);
  const validator = new Validator();
  t.ok((await validator.validate(structuredClone(shipped))).valid, 'the shipped file is valid too');

  const e = await emulator(t);
  t.same(shipped, (await e.anon.get('/_payemu/openapi.json')).body, 'shipped === served (run npm run build after changing a route)');
});

t.test('every route of /v1 and /_payemu/ is in it, with a summary and its success answer; no page is', async (t) => {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  for (const route of ROUTES) {
    const operation = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
    if (!isDocumented(route)) {
      t.notOk(operation, `${route.method} ${route.path} (a page) is not in the document`);
      continue;
    }
    t.ok(operation, `${route.method} ${route.path}`);
    t.ok(route.summary, `${route.method} ${route.path} has a summary`);
    const success = Object.keys(operation?.responses ?? {}).filter((status) => status.startsWith('2'));
    t.ok(success.length > 0, `${route.method} ${route.path} lists its success answer`);
    for (const status of ['400', '403', '500', ...(route.auth === 'key' ? ['401'] : [])]) {
      t.ok(operation?.responses[status], `${route.method} ${route.path} lists ${status}`);
    }
  }
  t.same(
    Object.keys(doc.paths).filter((p) => !p.startsWith('/v1/') && !p.startsWith('/_payemu/')),
    [],
  );
  t.same(Object.keys(doc.webhooks as object), [...EVENT_NAMES], "every event of the catalogue as a webhook, in the catalogue's order");
});

t.test('every schema in it is valid JSON Schema 2020-12 and compiles', async (t) => {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // strict: an unknown keyword (one of payemu's own that the generator forgot to translate) is an error.
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, validateFormats: false });
  ajv.addVocabulary(['x-payemu-decimals', 'x-payemu-currency', 'x-payemu-format', 'components']);
  const schemas = (doc.components as { schemas: Record<string, object> }).schemas;
  // One schema holding them all, compiled once: the components and every schema inline in the operations.
  const inline: object[] = [];
  const walk = (value: unknown, key: string) => {
    if (value === null || typeof value !== 'object') return;
    if (key === 'schema') return void inline.push(value);
    for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk({ paths: doc.paths, webhooks: doc.webhooks, responses: (doc.components as { responses: object }).responses }, '');
  const all = [...Object.keys(schemas).map((name) => ({ $ref: `#/components/schemas/${name}` })), ...inline];
  t.doesNotThrow(() => ajv.compile({ $id: 'openapi.json', components: { schemas }, anyOf: all }));
  const count = all.length;
  t.ok(count > 50, `${count} schemas compiled`);
});

t.test('the drift guard refuses an unlisted status, a body that leaves its schema, a wrong media type', async (t) => {
  const ok = JSON.stringify({ status: 'ok' });
  t.doesNotThrow(() => checkAgainstOpenApi('GET', '/_payemu/health', 200, 'application/json', ok));
  t.throws(
    () => checkAgainstOpenApi('GET', '/_payemu/health', 418, 'application/json', ok),
    /OpenAPI drift: GET \/_payemu\/health answered 418, which the document does not list/,
  );
  t.throws(() => checkAgainstOpenApi('GET', '/_payemu/health', 200, 'application/json', '{"status":"ok","extra":1}'), /leaves its schema[\s\S]*additional/);
  t.throws(() => checkAgainstOpenApi('GET', '/_payemu/health', 200, 'text/html', ok), /as text\/html/);
  t.throws(() => checkAgainstOpenApi('GET', '/v1/payments/x', 200, 'application/json', '{"data":{}}'), /leaves its schema/);
  const error = JSON.stringify({ errors: [{ status: '404', title: 'Not Found', detail: 'No route.' }] });
  t.doesNotThrow(() => checkAgainstOpenApi('GET', '/v1/nothing', 404, 'application/json', error), 'an unknown path: the envelope 404');
  t.throws(() => checkAgainstOpenApi('GET', '/v1/nothing', 200, 'application/json', '{}'), /must answer/);
  t.doesNotThrow(() => checkAgainstOpenApi('GET', '/checkout/cs_x', 200, 'text/html', '<!doctype html>'), 'pages are not checked');
});

t.test('a read describes its plain answer exactly and a sparse fieldset beside it', async (t) => {
  const payment = (attributes: object) =>
    JSON.stringify({ data: { id: '1', type: 'payments', attributes, links: { self: 'http://127.0.0.1:1/v1/payments/r' } } });
  const check = (attributes: object) => () => checkAgainstOpenApi('GET', '/v1/payments/r', 200, 'application/json', payment(attributes));
  t.doesNotThrow(check({ status: 'PAID', amount: '1.00' }), 'a sparse fieldset: some attributes');
  t.doesNotThrow(check({ payment_method: null }), 'an attribute asked for that the payment does not have: null');
  t.throws(check({ status: 5 }), /leaves its schema/, "a sparse answer's values keep their attribute's schema");
  t.throws(check({ colour: 'red' }), /leaves its schema/, 'a sparse answer holds attribute names only');

  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const schemas = (doc.components as { schemas: Record<string, { anyOf?: { $ref?: string; required?: string[] }[] }> }).schemas;
  const attributes = (schemas.Payment as { properties: { attributes: { anyOf: { $ref?: string }[] } } }).properties.attributes.anyOf;
  t.same(attributes[0], { $ref: '#/components/schemas/PaymentAttributes' }, 'the plain read first: the attributes with their `required`');
  t.ok((schemas.PaymentAttributes as { required?: string[] }).required?.includes('status'), 'status is required in a plain read');
  t.notOk('properties' in (attributes[1] as object), 'the sparse alternative names no property (a generated client keeps the plain types)');
});

t.test('no answer, webhook or named schema is an object of no known key (a generated client could put nothing in it)', async (t) => {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const bare: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (value === null || typeof value !== 'object') return;
    const schema = value as Record<string, unknown>;
    const keyed = ['properties', 'additionalProperties', 'patternProperties', 'propertyNames', '$ref', 'anyOf', 'oneOf', 'allOf'].some((k) => k in schema);
    if (schema.type === 'object' && !keyed) bare.push(at);
    for (const [k, v] of Object.entries(schema)) walk(v, `${at}/${k}`);
  };
  const responses = Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => [`${m} ${p}`, op.responses] as const));
  for (const [at, answers] of responses) walk(answers, at);
  walk(doc.webhooks, 'webhooks');
  walk((doc.components as { schemas: object }).schemas, 'components');
  t.same(bare, [], 'every object says what it holds (`additionalProperties: true` for free-form data such as metadata)');
});

t.test("path parameters have the API's types: a payment link's id is an integer", async (t) => {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const idOf = (p: string, m: string) => {
    const parameters = (doc.paths[p]?.[m]?.parameters ?? []) as { name: string; in: string; schema: object }[];
    return parameters.find((x) => x.in === 'path' && x.name === 'id')?.schema;
  };
  for (const [p, m] of [
    ['/v1/payment-links/{id}', 'get'],
    ['/v1/payment-links/{id}', 'patch'],
    ['/_payemu/payment-links/{id}/pay', 'post'],
  ] as const) {
    t.same(idOf(p, m), { $ref: '#/components/schemas/PaymentLinkId' }, `${m} ${p}`);
  }
  t.match((doc.components as { schemas: Record<string, object> }).schemas.PaymentLinkId, { type: 'integer', minimum: 1 });
});

t.test("servers names `payemu start`'s default address; each webhook says it carries no API key", async (t) => {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  t.same(
    (doc.servers as { url: string }[]).map((s) => s.url),
    [DEFAULT_URL],
    "the CLI's default URL",
  );
  const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  t.equal((doc.info as { contact: { url: string } }).contact.url, pkg.bugs.url, "info.contact is package.json's bugs.url");
  for (const [name, item] of Object.entries(doc.webhooks as Record<string, { post: { security?: unknown } }>)) {
    t.same(item.post.security, [], `${name}: security []`);
  }
});

t.test('required headers: X-RateLimit-* on each /v1 answer after the key is accepted, Retry-After on 429; the drift guard checks them', async (t) => {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const components = doc.components as {
    responses: Record<string, { headers?: Record<string, { $ref: string }> }>;
    headers: Record<string, { required?: boolean }>;
  };
  const required = (response: { $ref?: string; headers?: Record<string, { $ref: string }> }) => {
    const object = response.$ref ? components.responses[response.$ref.split('/').pop()!]! : response;
    return Object.entries(object.headers ?? {})
      .filter(([, h]) => components.headers[h.$ref.split('/').pop()!]!.required === true)
      .map(([name]) => name);
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = required(response as { $ref?: string });
        const where = `${method.toUpperCase()} ${path} ${status}`;
        // Before the request is counted: a 401, a 403, and a 400 of the request target.
        if (path.startsWith('/v1/') && !['400', '401', '403'].includes(status))
          t.ok(headers.includes('X-RateLimit-Limit') && headers.includes('X-RateLimit-Remaining'), where);
        else t.notOk(headers.includes('X-RateLimit-Limit'), `${where}: not required`);
        // A trigger passes on its step's 429 (its status and detail) without the step's headers.
        if (status === '429')
          t.equal(headers.includes('Retry-After'), path.startsWith('/v1/'), `${where}: Retry-After ${path.startsWith('/v1/') ? '' : 'not '}required`);
      }
    }
  }
  const error = JSON.stringify({ errors: [{ status: '404', title: 'Not Found', detail: 'No payment.' }] });
  const headers = (present: Record<string, string>) => (name: string) => present[name] ?? null;
  t.throws(
    () => checkAgainstOpenApi('GET', '/v1/payments/x', 404, 'application/json', error, headers({})),
    /answered 404 without X-RateLimit-Limit, X-RateLimit-Remaining/,
  );
  t.doesNotThrow(() =>
    checkAgainstOpenApi('GET', '/v1/payments/x', 404, 'application/json', error, headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59' })),
  );
  t.doesNotThrow(
    () => checkAgainstOpenApi('GET', '/v1/payments/x', 401, 'application/json', error.replaceAll('404', '401'), headers({})),
    'a 401 comes before the count',
  );
});

t.test('405: components/responses/MethodNotAllowed, the envelope with Allow, is what a served path answers to its other methods', async (t) => {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const components = doc.components as { responses: Record<string, object>; headers: Record<string, { required?: boolean }> };
  t.match(components.responses.MethodNotAllowed, {
    headers: { Allow: { $ref: '#/components/headers/Allow' } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Errors' } } },
  });
  t.equal(components.headers.Allow!.required, true);
  const e = await emulator(t);
  const answer = await e.api.request('DELETE', '/v1/sessions');
  t.equal(answer.status, 405);
  t.equal(
    answer.headers.get('allow'),
    Object.keys(doc.paths['/v1/sessions']!)
      .map((m) => m.toUpperCase())
      .join(', '),
    "Allow: the path's operations",
  );
  const error = JSON.stringify({ errors: [{ status: '405', title: 'Method Not Allowed', detail: 'No.' }] });
  t.throws(() => checkAgainstOpenApi('DELETE', '/v1/sessions', 405, 'application/json', error, () => null), /answered 405 without Allow/);
});

t.test('sort and filter[...] enums are the values each list accepts: each one is answered, another is a 422', async (t) => {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const e = await emulator(t);
  let lists = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    const parameters = (item.get?.parameters ?? []) as {
      name: string;
      style?: string;
      explode?: boolean;
      schema: { enum?: string[]; items?: { enum?: string[] } };
    }[];
    for (const parameter of parameters) {
      const values = parameter.schema.enum ?? parameter.schema.items?.enum;
      if (!values || !/^(sort|filter\[.+\])$/.test(parameter.name)) continue;
      if (parameter.name === 'sort') {
        t.match(parameter, { style: 'form', explode: false }, `${path} sort: comma-separated`);
        lists++;
      }
      const name = encodeURIComponent(parameter.name);
      for (const value of values) t.equal((await e.api.get(`${path}?${name}=${encodeURIComponent(value)}`)).status, 200, `${path}?${parameter.name}=${value}`);
      if (parameter.name === 'sort') t.equal((await e.api.get(`${path}?sort=${values.join(',')}`)).status, 200, `${path}: all of them at once`);
      t.equal((await e.api.get(`${path}?${name}=not-a-value`)).status, 422, `${path}?${parameter.name}=not-a-value`);
    }
  }
  t.equal(lists, ROUTES.filter((r) => r.parameters?.some((p) => p.name === 'sort')).length, 'every list with a sort');
  t.ok(lists >= 4);
});
