import { STATUS_CODES } from 'node:http';
import { open, type MediaResponse, type OpenRoute, type Route } from '../http/route.js';
import { packageVersion } from '../lib/version.js';
import { errors } from '../schemas/wire.js';
import { Components, countedHeaders, type ResponseObject } from './openapi-components.js';

export type { ResponseObject } from './openapi-components.js';
import { openApiDocument } from '../schemas/control.js';

/**
 * The OpenAPI 3.1 document of `/v1` and `/_payemu/`, made from the route catalogue: each
 * route's request schemas (the ones that validate requests), its `summary` and `responses`, and
 * the answers every route of its kind can give (see commonResponses). The hosted HTML pages are
 * not in it. Served at `GET /_payemu/openapi.json` and written to `openapi.json` in the package
 * by the build (scripts/openapi.js); test/openapi.test.ts validates it with an independent
 * validator, and the test suite checks every answer it receives against it.
 */
export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };

export interface Operation {
  operationId: string;
  summary?: string;
  responses: Record<string, ResponseObject | { $ref: string }>;
  [key: string]: unknown;
}

/** The body schema of each webhook, by event name, in the catalogue's order (`webhookPayloads` of the catalogue's EVENT_WIRE). */
export type WebhookPayloads = Readonly<Record<string, object>>;

/**
 * The route serving the document, built once from `routes` (a thunk: the catalogue lists this
 * route too) and the webhooks of the catalogue's events.
 */
export function openApiRoutes(routes: () => readonly Route[], webhooks: WebhookPayloads): OpenRoute[] {
  let body: string | undefined;
  return [
    open({
      method: 'GET',
      path: '/_payemu/openapi.json',
      summary: 'This OpenAPI document',
      responses: { 200: openApiDocument },
      handle: () => ({ status: 200, raw: (body ??= JSON.stringify(buildOpenApi(routes(), webhooks))) }),
    }),
  ];
}

/** Whether a route belongs in the document: the API and the control plane, not the pages. */
/** The dashboard's HTML pages under /_payemu/dashboard are pages, not API operations: not described. */
export const isDocumented = (route: Route) =>
  route.path.startsWith('/v1/') || (route.path.startsWith('/_payemu/') && route.path !== '/_payemu/dashboard' && !route.path.startsWith('/_payemu/dashboard/'));

/** `/v1/payments/:reference` -> `/v1/payments/{reference}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

export function buildOpenApi(routes: readonly Route[], webhookPayloads: WebhookPayloads, version = packageVersion()): OpenApiDocument {
  const components = new Components();
  const paths: Record<string, Record<string, Operation>> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    if (!isDocumented(route)) continue;
    const path = openApiPath(route.path);
    const operation = operationOf(route, components);
    for (const tag of operation.tags as string[]) tags.add(tag);
    const item = (paths[path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`openapi: ${route.method} ${route.path} is declared twice`);
    item[method] = operation;
  }
  // No operation lists it (a path's operations are the methods it is served with); the 405 every
  // other method of a served path gets is this answer, which clients and the drift guard refer to.
  components.shareResponse(405);
  const webhooks = Object.fromEntries(Object.entries(webhookPayloads).map(([name, payload]) => [name, { post: webhookOperation(name, payload, components) }]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'payemu',
      version,
      summary: 'A local, stateful sandbox emulator of a hosted payment API.',
      description: INFO,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'payemu', url: ISSUES },
    },
    servers: SERVERS,
    tags: [...tags].map((name) => ({ name })),
    paths,
    webhooks,
    components: components.toJSON(),
  };
}

/**
 * Where `payemu start` listens unless told otherwise (its `--port` and `--host` defaults, which
 * the CLI holds: this part may not import it; test/openapi.test.ts checks they agree). A library
 * emulator listens where it is told, usually a port of its own: the paths are the same.
 */
const SERVERS = [
  {
    url: 'http://127.0.0.1:4242',
    description: '`payemu start` with its default address; `--port`, `--host` or the library (`startEmulator`) serve the same paths elsewhere.',
  },
];

/** Where to report a problem (package.json's `bugs.url`, which test/openapi.test.ts compares). */
const ISSUES = 'https://github.com/payemu/payemu/issues';

const INFO = [
  "The `/v1` API and payemu's own control plane (`/_payemu/`). Hosted HTML pages (checkout, 3-D Secure, payment link, invoice, card update, manage) are not described here.",
  '',
  'Every error is `{"errors": [{"status", "title", "detail", "meta"?}]}`. Besides the answers each operation lists, a path payemu does not serve is a 404 and a served path asked with another method is a 405 with `Allow` (`components/responses/MethodNotAllowed`), in the same envelope. A fault set through `/_payemu/faults` may answer a `/v1` operation with any status from 400 to 599 (the envelope, or a body the fault gives), or close the connection unanswered.',
  '',
  'Amounts in answers are decimal strings with two decimals unless said otherwise; timestamps are ISO 8601 UTC with microseconds. Webhooks are listed under `webhooks`, each with its body.',
].join('\n');

/**
 * Whether a rate-limited route's answer with `status` always carries `X-RateLimit-*`: the request
 * is counted once its key is accepted (http/server.ts), so every answer after that carries them,
 * an error's or a fault's too. A 401 and a 403 come before; a 400 may (a request target whose
 * percent-escapes are not UTF-8 is refused before routing).
 */
const counted = (route: Route, status: number) => route.auth === 'key' && route.rateLimited && ![400, 401, 403].includes(status);

/** The statuses every route of this kind can answer, whatever it declares. */
function commonStatuses(route: Route): number[] {
  const statuses = [400, 403, 500];
  // Any change may meet a disk that refuses it (see docs/reliability.md, "The disk").
  if (route.method !== 'GET') statuses.push(503);
  if (route.auth === 'key') {
    statuses.push(401);
    if (route.rateLimited) statuses.push(429);
    if (route.query) statuses.push(422);
    if (route.method !== 'GET' && route.method !== 'DELETE') statuses.push(413, 415, 422);
    if (isIdempotent(route)) statuses.push(409);
  } else if (route.query) statuses.push(422);
  return statuses;
}

const isIdempotent = (route: Route) => route.auth === 'key' && route.method === 'POST' && route.idempotent !== false;

function operationOf(route: Route, components: Components): Operation {
  const operation: Operation = {
    operationId: operationId(route),
    tags: [tagOf(route.path)],
    ...(route.summary ? { summary: route.summary } : {}),
    ...(route.description ? { description: route.description } : {}),
    responses: {},
  };
  const parameters: unknown[] = [];
  for (const [, name] of route.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g) as Iterable<[string, string]>) {
    const schema = route.pathParameters?.[name];
    parameters.push({ name, in: 'path', required: true, schema: schema ? components.schema(schema) : { type: 'string' } });
  }
  if (route.query) {
    const query = route.query as { properties?: Record<string, object>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema: components.schema(schema) });
    }
  }
  for (const parameter of route.parameters ?? []) {
    parameters.push({
      name: parameter.name,
      in: 'query',
      required: parameter.required ?? false,
      ...(parameter.description ? { description: parameter.description } : {}),
      ...(parameter.explode === false ? { style: 'form', explode: false } : {}),
      schema: components.schema(parameter.schema),
    });
  }
  if (isIdempotent(route)) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (parameters.length > 0) operation.parameters = parameters;
  // (responses last, for a reader)
  delete (operation as Partial<Operation>).responses;

  if (route.auth === 'key' && route.body) {
    const body = route.body as { required?: string[] };
    operation.requestBody = {
      required: (body.required?.length ?? 0) > 0,
      content: { 'application/json': { schema: components.schema(route.body) } },
    };
  }
  if (route.auth === 'key') {
    operation.security = route.keyInQuery ? [{ bearer: [] }, { apiKey: [] }, { queryKey: [] }] : [{ bearer: [] }, { apiKey: [] }];
  } else operation.security = [];

  operation.responses = {};
  const declared = route.responses ?? {};
  const statuses = [...new Set([...Object.keys(declared).map(Number), ...commonStatuses(route)])].sort((a, b) => a - b);
  for (const status of statuses) {
    const answer = declared[status];
    if (answer === undefined || answer === errors) {
      operation.responses[String(status)] = { $ref: `#/components/responses/${components.shareResponse(status, counted(route, status))}` };
      continue;
    }
    const headers: Record<string, unknown> = {};
    if (counted(route, status)) for (const header of countedHeaders(status)) headers[header] = { $ref: `#/components/headers/${header}` };
    if (isIdempotent(route)) headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
    const media = isMedia(answer) ? answer : undefined;
    operation.responses[String(status)] = {
      description: media?.description ?? STATUS_CODES[status] ?? String(status),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { [media?.mediaType ?? 'application/json']: { schema: components.schema(media ? media.schema : answer) } },
    };
  }
  return operation;
}

function isMedia(answer: object): answer is MediaResponse {
  return 'mediaType' in answer && typeof (answer as MediaResponse).mediaType === 'string';
}

function webhookOperation(name: string, payload: object, components: Components) {
  return {
    operationId: `webhook${pascal(name)}`,
    summary: `The \`${name}\` webhook`,
    description: "POSTed to the Source's webhook URL. Verify `X-Webhook-Signature` over the raw body before trusting it.",
    parameters: [
      {
        name: 'X-Webhook-Signature',
        in: 'header',
        required: true,
        description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the Source\'s whsec_ secret>`.',
        schema: { type: 'string' },
      },
      { name: 'X-Webhook-Event', in: 'header', required: true, description: 'The event name.', schema: { type: 'string', const: name } },
      {
        name: 'X-Webhook-Event-Id',
        in: 'header',
        required: true,
        description: 'The event id (UUID), the same on every attempt and resend.',
        schema: { type: 'string', format: 'uuid' },
      },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: components.schema(payload) } } },
    // payemu calls the receiver: no API key goes with it (the signature is the proof).
    security: [],
    responses: { '2XX': { description: 'Received. Any other answer, or none within the timeout, is retried.' } },
  };
}

function operationId(route: Route): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function tagOf(path: string): string {
  const [, root, name] = path.split('/');
  return root === 'v1' ? name! : 'control plane';
}

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
