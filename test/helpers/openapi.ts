import type { ErrorObject } from 'ajv';
import { EVENT_WIRE, ROUTES } from '../../src/catalogue.js';
import { buildOpenApi, isDocumented, openApiPath, type OpenApiDocument, type ResponseObject } from '../../src/control/openapi.js';
import { compiledSchemas } from './compiled-schemas.js';

/**
 * The drift guard: every answer a test receives through the helpers' client is checked against
 * the OpenAPI document, for its path, method and status. An answer whose status the document
 * does not list, or whose body leaves the listed schema, throws here, failing the test that
 * received it. The document is built once per test process; each answer's schema is compiled
 * (ajv, JSON Schema 2020-12) the first time an answer of the suite needs it, and kept for the
 * other test processes (helpers/compiled-schemas.ts).
 *
 * With `header` (the answer's headers by name), the headers the listed answer marks `required`
 * must be there too.
 *
 * Requests the document does not describe: the hosted pages (not checked), paths under /v1 and
 * /_payemu/ that payemu does not serve (their 404, or a served path's 405, must be the error
 * envelope), and other paths (an error must be the envelope).
 */
export function checkAgainstOpenApi(
  method: string,
  target: string,
  status: number,
  contentType: string | null,
  text: string,
  header?: (name: string) => string | null,
): void {
  const guard = (state ??= load());
  const path = pathOf(target);
  const operation = guard.match(method, path);
  if (operation === 'page') return;
  const where = `${method} ${target}`;
  if (operation === undefined) {
    // Outside the document (a route a test added): an error must still be the envelope.
    if (!/^\/(v1|_payemu)(\/|$)/.test(path)) {
      if (status >= 400) guard.validate(where, status, guard.errorSchemaPointer(), contentType, text);
      return;
    }
    // Not a route: the envelope's 404, or a 405 for a path served with other methods (403 and 400 come before routing).
    const allowed = guard.methodsOf(path);
    const expected = allowed ? [400, 403, 405] : [400, 403, 404];
    if (!expected.includes(status)) fail(`${where} answered ${status}; a request no operation serves must answer ${expected.join(' or ')}`);
    // The 405 is components/responses/MethodNotAllowed, with the headers it requires (`Allow`).
    if (status === 405 && header) checkHeaders(where, status, guard.sharedResponse('MethodNotAllowed').required, header);
    guard.validate(where, status, guard.errorSchemaPointer(), contentType, text);
    return;
  }
  const response = guard.response(operation, status);
  if (!response) {
    const listed = Object.keys(guard.doc.paths[operation.path]![operation.method]!.responses).join(', ');
    fail(`${where} answered ${status}, which the document does not list for ${method} ${operation.path} (listed: ${listed}). Body: ${text.slice(0, 300)}`);
  }
  const { pointer, media, required } = response;
  if (header) checkHeaders(where, status, required, header);
  if (media === undefined) {
    if (text !== '') fail(`${where} answered ${status} with a body, where the document lists none`);
    return;
  }
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (essence !== media) fail(`${where} answered ${status} as ${contentType ?? 'no content type'}, where the document says ${media}`);
  if (media === 'application/json') guard.validate(where, status, pointer!, contentType, text);
}

function checkHeaders(where: string, status: number, required: readonly string[], header: (name: string) => string | null): void {
  const missing = required.filter((name) => header(name) === null);
  if (missing.length > 0) fail(`${where} answered ${status} without ${missing.join(', ')}, which the document says it always carries`);
}

function fail(message: string): never {
  throw new Error(`OpenAPI drift: ${message}`);
}

/** The path of a request target, without its query, as sent (the server matches it undecoded). */
/** The path an operation is matched by: a named namespace's `/~NAME` prefix (its links and pages) is not part of it. */
function pathOf(target: string): string {
  return target.split(/[?#]/)[0]!.replace(/^\/~[^/]*(?=\/|$)/, '') || '/';
}

/** A response the document lists: where its body's schema is (none: no body), and the headers it requires. */
interface ListedResponse {
  pointer?: string;
  media?: string;
  required: string[];
}

interface OperationRef {
  path: string;
  method: string;
}

interface Guard {
  doc: OpenApiDocument;
  match(method: string, path: string): OperationRef | 'page' | undefined;
  methodsOf(path: string): string[] | undefined;
  response(operation: OperationRef, status: number): ListedResponse | undefined;
  /** A response of components/responses, by name. */
  sharedResponse(name: string): ListedResponse;
  errorSchemaPointer(): string;
  validate(where: string, status: number, pointer: string, contentType: string | null, text: string): void;
}

let state: Guard | undefined;

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

function load(): Guard {
  const doc = buildOpenApi(ROUTES, EVENT_WIRE.webhookPayloads);
  const validator = compiledSchemas(doc);

  const templates = Object.keys(doc.paths).map((path) => ({ path, regex: templateRegex(path) }));
  const pages = ROUTES.filter((route) => !isDocumented(route)).map((route) => templateRegex(openApiPath(route.path)));

  const find = (path: string) => templates.find((t) => t.regex.test(path));
  const components = doc.components as { headers: Record<string, { required?: boolean }>; responses: Record<string, ResponseObject> };
  const headerObject = (header: unknown) => {
    const ref = (header as { $ref?: string }).$ref;
    return ref === undefined ? (header as { required?: boolean }) : components.headers[ref.split('/').pop()!]!;
  };
  const listed = (response: ResponseObject, base: string): ListedResponse => {
    const media = Object.keys(response.content ?? {})[0];
    const required = Object.entries(response.headers ?? {})
      .filter(([, h]) => headerObject(h).required === true)
      .map(([name]) => name);
    return media === undefined ? { required } : { media, pointer: `${base}/content/${escapePointer(media)}/schema`, required };
  };

  return {
    doc,
    match(method, path) {
      const template = find(path);
      if (!template) return pages.some((regex) => regex.test(path)) ? 'page' : undefined;
      const lower = method.toLowerCase();
      return doc.paths[template.path]![lower] ? { path: template.path, method: lower } : undefined;
    },
    methodsOf(path) {
      const template = find(path);
      return template ? Object.keys(doc.paths[template.path]!) : undefined;
    },
    response({ path, method }, status) {
      const response = doc.paths[path]![method]!.responses[String(status)];
      if (!response) return undefined;
      if ('$ref' in response) return this.sharedResponse((response.$ref as string).split('/').pop()!);
      return listed(response, `/paths/${escapePointer(path)}/${method}/responses/${status}`);
    },
    sharedResponse(name) {
      return listed(components.responses[name]!, `/components/responses/${escapePointer(name)}`);
    },
    errorSchemaPointer: () => '/components/schemas/Errors',
    validate(where, status, pointer, contentType, text) {
      if (!/^application\/json\b/i.test(contentType ?? ''))
        fail(`${where} answered ${status} as ${contentType ?? 'no content type'}, where the document says application/json`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        fail(`${where} answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`);
      }
      const validate = validator(pointer);
      if (!validate(body)) {
        fail(`${where} answered ${status} with a body that leaves its schema (${pointer}):\n${describe(validate.errors ?? [])}\nBody: ${text.slice(0, 1500)}`);
      }
    },
  };
}

/**
 * The ajv errors, readable: of a `oneOf` or `anyOf` whose branches all failed, only the errors of
 * the branch that came closest (the fewest errors), which is the one the body meant.
 */
function describe(errors: readonly ErrorObject[]): string {
  const branch = /^(.*?\/(?:oneOf|anyOf))\/(\d+)\//;
  const byChoice = new Map<string, Map<string, number>>();
  for (const e of errors) {
    const m = branch.exec(e.schemaPath);
    if (!m) continue;
    const counts = byChoice.get(m[1]!) ?? new Map<string, number>();
    counts.set(m[2]!, (counts.get(m[2]!) ?? 0) + 1);
    byChoice.set(m[1]!, counts);
  }
  const kept = errors.filter((e) => {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf') return byChoice.size === 0;
    const m = branch.exec(e.schemaPath);
    if (!m) return true;
    const counts = [...byChoice.get(m[1]!)!.entries()].sort((a, b) => a[1] - b[1]);
    return counts[0]![0] === m[2];
  });
  return kept
    .slice(0, 12)
    .map((e) => `  ${e.instancePath || '(body)'} ${e.message}${Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : ''} [${e.schemaPath}]`)
    .join('\n');
}

/** `/v1/payments/{reference}` -> a regex of the paths it serves (a trailing slash too, as the server allows). */
function templateRegex(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * The drift guard for the answers payemu's CLI processes receive: `text` is a drift log (one JSON
 * entry per line, written by src/client/drift-log.ts when PAYEMU_DRIFT_LOG names the file; the
 * CLI helpers set it). Each entry is checked as `checkAgainstOpenApi` checks the helpers' own
 * answers; returns the problems (none: []). A last line cut short by a killed process is skipped.
 */
export function checkDriftLog(text: string): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line === '') return;
    let entry: { method: string; path: string; status: number; contentType: string | null; text: string };
    try {
      entry = JSON.parse(line);
    } catch {
      if (index === lines.length - 1) return;
      problems.push(`drift log line ${index + 1} is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    try {
      checkAgainstOpenApi(entry.method, entry.path, entry.status, entry.contentType, entry.text);
    } catch (error) {
      problems.push((error as Error).message);
    }
  });
  return problems;
}
