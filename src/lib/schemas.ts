import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { createRequire } from 'node:module';
import net from 'node:net';
import { CURRENCIES } from './currencies.js';
import { decimalPlaces, writtenLiteral } from './written-numbers.js';

// ajv and ajv-formats (CommonJS) are loaded by the first createAjv(), not when payemu starts:
// loading them takes longer than the rest of start-up, and nothing is validated before the
// server listens (see http/server.ts). A build of payemu does not load them at all for the
// schemas it ships: `npm run build` writes their validators as code (see precompiled.ts).
const require = createRequire(import.meta.url);
type Codegen = typeof import('ajv/dist/compile/codegen/index.js');
type Names = typeof import('ajv/dist/compile/names.js').default;
function loadAjv(): { Ajv: typeof Ajv; addFormats: (ajv: Ajv, formats: string[]) => Ajv; codegen: Codegen; names: Names } {
  const formats = require('ajv-formats') as { default?: unknown };
  return {
    Ajv: (require('ajv') as typeof import('ajv')).Ajv,
    addFormats: (formats.default ?? formats) as (ajv: Ajv, formats: string[]) => Ajv,
    codegen: require('ajv/dist/compile/codegen') as Codegen,
    names: (require('ajv/dist/compile/names') as { default: Names }).default,
  };
}

/** The formats of payemu's schemas (ajv-formats' `email`, `uri`, `date`, `date-time`, and `url`). */
export const FORMAT_NAMES = ['email', 'uri', 'date', 'date-time'] as const;

/**
 * The test behind each of payemu's keywords (the keyword's value is `true`). `money` is also
 * handed the number's parent, its key there and the whole data, to judge a request body's number
 * as its text wrote it (lib/written-numbers.ts); the float test stays for data that had no text
 * (a product's price in the config). A literal with at most two decimals passes the float test
 * too: the double it parses to is written back (String) with no more decimals than it had.
 */
export const KEYWORD_TESTS = {
  money: (value: number, parent?: unknown, key?: unknown, root?: unknown) => hasAtMostTwoDecimals(value) && writtenLiteral(parent, key, root) === undefined,
  currency: (value: string) => CURRENCIES.has(value.toUpperCase()),
  ipOrCidr: (value: string) => isIpOrCidr(value),
} as const;
const KEYWORD_TYPES = { money: 'number', currency: 'string', ipOrCidr: 'string' } as const;

/**
 * The ajv instances, with payemu's keywords:
 *   money: true       a number with at most two decimals (amounts are held in minor units),
 *                     in a request body as its text writes it
 *   currency: true    an ISO 4217 code, any letter case
 *   ipOrCidr: true    an IP address or an IPv4/IPv6 CIDR block
 * and the format `url`: a URL a user gives payemu (see isSafeUrl), which the hosted pages redirect
 * to or webhooks are sent to. Request bodies are validated as sent; queries (always strings)
 * with type coercion. `source`: validators that can be written out as code (ajv's standalone
 * code), where formats and keyword tests are named `formats.<name>` and `keywords.<name>`.
 */
export function createAjv(options: { coerceTypes?: boolean; source?: boolean } = {}): Ajv {
  const { Ajv, addFormats, codegen, names } = loadAjv();
  const { _, getProperty } = codegen;
  // verbose: errors carry their parentSchema, which holds a `patternMessage` (see describe()).
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: options.coerceTypes ?? false,
    strict: false,
    messages: false,
    verbose: true,
    ...(options.source ? { code: { source: true, formats: _`formats` } } : {}),
  });
  addFormats(ajv, [...FORMAT_NAMES]);
  ajv.addFormat('url', { type: 'string', validate: isSafeUrl });
  for (const keyword of Object.keys(KEYWORD_TESTS) as (keyof typeof KEYWORD_TESTS)[]) {
    const test = KEYWORD_TESTS[keyword];
    ajv.addKeyword({
      keyword,
      type: KEYWORD_TYPES[keyword],
      schemaType: 'boolean',
      // Code rather than a `validate` function: the test is referenced by name, so a
      // validator using it can be written out as code.
      code(cxt) {
        if (cxt.schema !== true) return;
        const fn = cxt.gen.scopeValue('keyword', { ref: test, code: _`keywords${getProperty(keyword)}` });
        // ajv's names of the value's parent, its key there (undefined at the top) and the whole data.
        const args = keyword === 'money' ? _`${cxt.data}, ${cxt.it.parentData}, ${cxt.it.parentDataProperty}, ${names.rootData}` : cxt.data;
        cxt.fail(_`!${fn}(${args})`);
      },
    });
  }
  return ajv;
}

/**
 * The test of a number without its text (a request body's literals are judged on their text as
 * well, see KEYWORD_TESTS): two decimals to within a millionth of a cent, or as JSON.stringify
 * writes the number. The second is for large amounts, where `value * 100` is off by more than
 * that (558157399.69 * 100 is 55815739969.00001).
 */
export function hasAtMostTwoDecimals(value: number): boolean {
  const cents = value * 100;
  if (!Number.isFinite(cents)) return false;
  return Math.abs(cents - Math.round(cents)) < 1e-6 || decimalPlaces(String(value)) <= 2;
}

/**
 * A URL a user gives payemu (`success_url`, `cancel_url`, `webhook_url` in the config and
 * `--webhook-url`): an absolute `http:` or `https:` URL with a host, written out in full, at
 * most 2048 characters, without whitespace. The one rule for every such field. The WHATWG parser
 * alone is not enough: it repairs `http:/x`, `http:x` and `http:///x` into `http://x/`, so the
 * text itself must start with the scheme and `//` and a host.
 */
export function isSafeUrl(value: string): boolean {
  if (value.length > 2048 || /\s/.test(value) || !/^https?:\/\/[^/\\?#]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

export function isIpOrCidr(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !address) return false;
  const version = net.isIP(address);
  if (version === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (version === 4 ? 32 : 128);
}

/** `/tax/lines/0/name` -> `tax.lines.0.name` (the API's `meta.errors` keys are dot paths). */
function fieldOf(error: ErrorObject): string {
  const base = error.instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') base.push((error.params as { missingProperty: string }).missingProperty);
  if (error.keyword === 'additionalProperties') base.push((error.params as { additionalProperty: string }).additionalProperty);
  return base.filter((s) => s !== '').join('.');
}

function describe(error: ErrorObject, field: string, schema: Record<string, unknown> | undefined): string {
  const name = field || 'body';
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return (schema?.requiredMessage as string | undefined)?.replace('{field}', name) ?? `The ${name} field is required.`;
    case 'type': {
      const wanted = String(p.type).split(',')[0];
      const noun =
        { number: 'a number', integer: 'an integer', string: 'a string', boolean: 'true or false', object: 'an object', array: 'an array', null: 'null' }[
          wanted!
        ] ?? wanted;
      return field ? `The ${name} field must be ${noun}.` : `The request body must be ${noun}.`;
    }
    case 'minimum':
    case 'exclusiveMinimum':
      return `The ${name} field must be ${error.keyword === 'minimum' ? 'at least' : 'greater than'} ${p.limit}.`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `The ${name} field must not be greater than ${p.limit}.`;
    case 'minLength':
      return p.limit === 1 ? `The ${name} field must not be empty.` : `The ${name} field must be at least ${p.limit} characters.`;
    case 'maxLength':
      return `The ${name} field must not be greater than ${p.limit} characters.`;
    case 'minItems':
      return `The ${name} field must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}.`;
    case 'maxItems':
      return `The ${name} field must not have more than ${p.limit} items.`;
    case 'maxProperties':
      return `The ${name} field must not have more than ${p.limit} keys.`;
    case 'enum':
      return `The ${name} field must be one of: ${(p.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return `The ${name} field must be ${JSON.stringify(p.allowedValue)}.`;
    case 'format':
      return (
        {
          email: `The ${name} field must be a valid email address.`,
          url: `The ${name} field must be an absolute http:// or https:// URL.`,
          uri: `The ${name} field must be a valid URL.`,
          date: `The ${name} field must be a valid date (YYYY-MM-DD).`,
          'date-time': `The ${name} field must be a valid ISO 8601 timestamp.`,
        }[String(p.format)] ?? `The ${name} field is not a valid ${p.format}.`
      );
    case 'pattern':
      return (schema?.patternMessage as string | undefined)?.replace('{field}', name) ?? `The ${name} field format is invalid.`;
    case 'money':
      return `The ${name} field must have at most 2 decimal places.`;
    case 'currency':
      return `The ${name} field must be a valid ISO 4217 currency code.`;
    case 'ipOrCidr':
      return `The ${name} field must be an IP address or CIDR block.`;
    case 'not':
      return (schema?.notMessage as string | undefined)?.replace('{field}', name) ?? `The ${name} field is not allowed here.`;
    case 'additionalProperties':
      return `The ${name} field is not allowed.`;
    case 'uniqueItems':
      return `The ${name} field must not contain duplicates.`;
    default:
      return `The ${name} field is invalid.`;
  }
}

/** Converts ajv's errors into the API's `meta.errors`: field path -> messages (one converter for all). */
export function toFieldErrors(validate: ValidateFunction): Record<string, string[]> {
  // No prototype: a field named `constructor` or `toString` (an unknown field a closed schema
  // refuses) must get a list of its own, not Object's method.
  const errors: Record<string, string[]> = Object.create(null);
  // A rule between fields (the `then` or `else` of an `if`, which ajv reports before the fields'
  // own refusals) after them: the first message (an answer's `detail`) is a field's own.
  const all = validate.errors ?? [];
  const conditional = (error: ErrorObject) => /\/(then|else)\//.test(error.schemaPath);
  for (const error of [...all.filter((e) => !conditional(e)), ...all.filter(conditional)]) {
    // anyOf/oneOf report each branch too; the branch errors already say what is wrong.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const field = fieldOf(error);
    const message = describe(error, field, error.parentSchema as Record<string, unknown> | undefined);
    const list = (errors[field || 'body'] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return errors;
}
