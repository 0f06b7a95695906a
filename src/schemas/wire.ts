/**
 * The shared pieces of the answers' JSON Schemas (JSON Schema 2020-12, the dialect of OpenAPI
 * 3.1): timestamps, money strings, the error envelope and the JSON:API resource, document and
 * list wrappers. Each resource's answers are written from these in src/schemas/<resource>.ts; the
 * routes name them in their `responses`; src/control/openapi.ts makes the document of them, and
 * the test suite checks every answer it receives against that document.
 *
 * Objects are closed (`additionalProperties: false`): an attribute added to a presenter and not
 * here fails the suite until the schema (and so the document) says it.
 */
export type Schema = Record<string, unknown>;

/**
 * The helpers below are typed to keep each schema's literal shape (`{type: 'string'}`, not
 * `Record<string, unknown>`), so that `FromSchema` (json-schema-to-ts) derives the TypeScript
 * type of an answer from the very schema the document and the drift guard use: see
 * src/types.ts. Their values are unchanged by the types.
 */
type Properties = Readonly<Record<string, object>>;

/** The type of `object(properties, optional)`: closed, `required` the keys not optional. */
export type ClosedObject<P extends Properties, R extends string> = {
  type: 'object';
  properties: P;
  required: R[];
  additionalProperties: false;
};

const NAMES = new WeakMap<object, string>();

/**
 * The names of an object schema's properties, in its order: what `fields[<type>]` may name of a
 * resource whose attributes it describes (a ResourceShape's `attributes`), written once.
 */
export const attributeNames = <const P extends Properties>(schema: { properties: P }): readonly (keyof P & string)[] =>
  Object.keys(schema.properties) as (keyof P & string)[];

/** Names a schema: the OpenAPI document holds it once, in `components.schemas`, and refers to it. */
export function named<const T extends object>(name: string, schema: T): T {
  NAMES.set(schema, name);
  return schema;
}

export function schemaName(schema: object): string | undefined {
  return NAMES.get(schema);
}

export const timestamp = named('Timestamp', {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z$',
  description: 'ISO 8601, UTC, with microseconds: `2026-11-21T10:00:00.000000Z`.',
});

export const date = named('Date', { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: '`YYYY-MM-DD`.' });

export const money = named('Money', {
  type: 'string',
  pattern: '^-?\\d+\\.\\d{2}$',
  description: 'An amount in the major unit as a decimal string with two decimals: `99.99`.',
});

/** An amount as a number in the major unit (session creation, webhook payloads). */
export const amountNumber = { type: 'number' } as const;

export const currency = named('Currency', { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217, upper case.' });

/**
 * Key-value data a merchant attaches: any JSON values, returned as given. `additionalProperties:
 * true` said out loud: a generated client reads a bare `{"type": "object"}` as an object with no
 * keys at all (openapi-typescript: `Record<string, never>`), and `{order: 1}` would not compile.
 */
export const metadata = named('Metadata', {
  type: 'object',
  additionalProperties: true,
  description: 'Key-value data given by the merchant (any JSON values), returned as given.',
});

/** `metadata` in a request body (the same values; a resource may bound the number of keys). */
export const metadataInput = { type: 'object', additionalProperties: true } as const;

export const uri = { type: 'string', format: 'uri' } as const;

export const string = { type: 'string' } as const;
export const integer = { type: 'integer' } as const;
export const boolean = { type: 'boolean' } as const;
export const number = { type: 'number' } as const;

export const nullable = <const S extends object>(schema: S): { anyOf: [S, { type: 'null' }] } => ({ anyOf: [schema, { type: 'null' }] });

export const oneOfValues = <const V extends string>(values: readonly V[]): { type: 'string'; enum: V[] } => ({ type: 'string', enum: [...values] });

/** A closed object: every property required but those named in `optional`. */
export function object<const P extends Properties, const O extends string = never>(
  properties: P,
  optional: readonly O[] = [],
): ClosedObject<P, Exclude<keyof P & string, O>> {
  const required = Object.keys(properties).filter((name) => !optional.includes(name as O));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false } as ClosedObject<
    P,
    Exclude<keyof P & string, O>
  >;
}

/**
 * The attributes of a read, which `fields[<type>]` may limit. The document describes the plain
 * read exactly (`plain`: every attribute it always holds required; by default `attributes`) and,
 * as the alternative, a sparse fieldset: an object whose names are some of `attributes`' names,
 * each value what that attribute holds, or null (an attribute asked for that the resource does
 * not have at the moment). The sparse alternative has no `properties`, only `propertyNames` and
 * `dependentSchemas`: a generated client (openapi-typescript) types it as an object of no known
 * key, so `attributes.status` keeps the plain read's type and every attribute stays required to
 * the compiler, while a validator still accepts, and checks, every sparse answer. Typed (for
 * `FromSchema`) as the plain read.
 */
export function sparse<const S extends { properties: Properties }, const P extends object = S>(attributes: S, plain?: P): P {
  const values = Object.entries(attributes.properties).map(([name, schema]) => [name, { properties: { [name]: { anyOf: [schema, { type: 'null' }] } } }]);
  const fieldset = {
    type: 'object',
    description: 'A sparse fieldset (`fields[<type>]`): only the attributes asked for.',
    propertyNames: { enum: Object.keys(attributes.properties) },
    dependentSchemas: Object.fromEntries(values),
  };
  return { anyOf: [plain ?? attributes, fieldset] } as unknown as P;
}

/** The closed object of `attributes`' properties named in `keys`, all required. */
export function pick<P extends Properties, const K extends keyof P & string>(attributes: { properties: P }, keys: readonly K[]): ClosedObject<Pick<P, K>, K> {
  const properties = attributes.properties;
  return object(Object.fromEntries(keys.map((key) => [key, properties[key]!]))) as unknown as ClosedObject<Pick<P, K>, K>;
}

/** A relationship's linkage: `{data: [{type, id}]}`. */
export const linkage = <const T extends string>(type: T) =>
  object({ data: { type: 'array', items: object({ type: { const: type }, id: { type: ['string', 'integer'] } }) } });

/** The type of `resource(options)`: `links` when it names any, `relationships` optional. */
export type ResourceSchema<T extends string, A extends object, I extends object, L extends string, R extends Properties | undefined> = ClosedObject<
  { id: I; type: { const: T }; attributes: A } & ([L] extends [never] ? unknown : { links: ClosedObject<{ [K in L]: typeof uri }, L> }) &
    (R extends Properties ? { relationships: ClosedObject<R, keyof R & string> } : unknown),
  'id' | 'type' | 'attributes' | ([L] extends [never] ? never : 'links')
>;

/** A JSON:API resource object: `{id, type, attributes, relationships?, links}`. */
export function resource<
  const T extends string,
  const A extends object,
  const I extends object = typeof string,
  const L extends string = 'self',
  const R extends Properties | undefined = undefined,
>(options: { type: T; attributes: A; id?: I; links?: readonly L[]; relationships?: R }): ResourceSchema<T, A, I, L, R> {
  const { type, attributes, id = string, links = ['self'], relationships } = options;
  const properties: Record<string, object> = { id, type: { const: type }, attributes };
  if (relationships) properties.relationships = object(relationships, Object.keys(relationships));
  if (links.length > 0) properties.links = object(Object.fromEntries(links.map((name) => [name, uri])));
  return object(properties, relationships ? ['relationships'] : []) as unknown as ResourceSchema<T, A, I, L, R>;
}

/** The type of `document(data, options)`. */
export type DocumentSchema<D extends object, M extends object | undefined, N extends object | undefined> = ClosedObject<
  { data: D } & (M extends object ? { meta: M } : unknown) & (N extends object ? { included: { type: 'array'; items: N } } : unknown),
  'data' | (M extends object ? 'meta' : never)
>;

/** `{data, meta?}` with the resource; `meta` required when given. */
export function document<const D extends object, const M extends object | undefined = undefined, const N extends object | undefined = undefined>(
  data: D,
  options: { meta?: M; included?: N } = {},
): DocumentSchema<D, M, N> {
  const properties: Record<string, object> = { data };
  if (options.meta) properties.meta = options.meta;
  if (options.included) properties.included = { type: 'array', items: options.included };
  return object(properties, options.included ? ['included'] : []) as unknown as DocumentSchema<D, M, N>;
}

/** `meta.message` of mutation answers. */
export const messageMeta = object({ message: string });

const pageLink = nullable(uri);

/** The type of `listDocument(item, options)`. */
export type ListDocumentSchema<I extends object, N extends object | undefined> = ClosedObject<
  {
    data: { type: 'array'; items: I };
    links: ClosedObject<{ first: typeof uri; last: typeof uri; prev: typeof pageLink; next: typeof pageLink }, 'first' | 'last' | 'prev' | 'next'>;
    meta: ClosedObject<
      { current_page: typeof integer; last_page: typeof integer; per_page: typeof integer; total: typeof integer },
      'current_page' | 'last_page' | 'per_page' | 'total'
    >;
  } & (N extends object ? { included: { type: 'array'; items: N } } : unknown),
  'data' | 'links' | 'meta'
>;

/** A page of a list: `{data: [...], included?, links: {first, last, prev, next}, meta: {current_page, last_page, per_page, total}}`. */
export function listDocument<const I extends object, const N extends object | undefined = undefined>(
  item: I,
  options: { included?: N } = {},
): ListDocumentSchema<I, N> {
  const properties: Record<string, object> = {
    data: { type: 'array', items: item },
    links: object({ first: uri, last: uri, prev: pageLink, next: pageLink }),
    meta: object({ current_page: integer, last_page: integer, per_page: integer, total: integer }),
  };
  if (options.included) properties.included = { type: 'array', items: options.included };
  return object(properties, options.included ? ['included'] : []) as unknown as ListDocumentSchema<I, N>;
}

/** The one error envelope: `{errors: [{status, title, detail, meta?}]}`; a 422 of validation adds `meta.errors`. */
export const errors = named('Errors', {
  type: 'object',
  required: ['errors'],
  additionalProperties: false,
  properties: {
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['status', 'title', 'detail'],
        additionalProperties: false,
        properties: {
          status: { type: 'string', pattern: '^[1-5]\\d\\d$', description: 'The HTTP status, as a string.' },
          title: { type: 'string', description: 'The status phrase.' },
          detail: { type: 'string' },
          meta: {
            type: 'object',
            properties: {
              errors: {
                type: 'object',
                description: 'Validation errors: field path (`tax.lines.0.name`) or query parameter -> messages.',
                additionalProperties: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  },
});
