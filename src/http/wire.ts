import type { ResourceShape } from './document-query.js';
import type { ListSpec } from './list-query.js';
import type { QueryParameterDoc } from './route.js';

/**
 * The shared pieces of the answers' JSON Schemas (JSON Schema 2020-12, the dialect of OpenAPI
 * 3.1): timestamps, money strings, the error envelope and the JSON:API resource, document and
 * list wrappers. Each resource writes its own answers from these in its `responses.ts`; the
 * routes name them in their `responses`; src/control/openapi.ts makes the document of them, and
 * the test suite checks every answer it receives against that document.
 *
 * Objects are closed (`additionalProperties: false`): an attribute added to a presenter and not
 * here fails the suite until the schema (and so the document) says it.
 */
export type Schema = Record<string, unknown>;

const NAMES = new WeakMap<object, string>();

/** Names a schema: the OpenAPI document holds it once, in `components.schemas`, and refers to it. */
export function named<T extends object>(name: string, schema: T): T {
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

export const metadata = named('Metadata', { type: 'object', description: 'Key-value data given by the merchant, returned as given.' });

export const uri = { type: 'string', format: 'uri' } as const;

export const string = { type: 'string' } as const;
export const integer = { type: 'integer' } as const;
export const boolean = { type: 'boolean' } as const;
export const number = { type: 'number' } as const;

export const nullable = (schema: object): Schema => ({ anyOf: [schema, { type: 'null' }] });

export const oneOfValues = (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] });

/** A closed object: every property required but those named in `optional`. */
export function object(properties: Record<string, object>, optional: readonly string[] = []): Schema {
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/**
 * Attributes a read may limit with `fields[<type>]`: the same properties, none required (an
 * asked attribute the resource does not have at the moment is null).
 */
export function sparse(attributes: Schema): Schema {
  const { required: _required, ...rest } = attributes;
  return rest;
}

/** The closed object of `attributes`' properties named in `keys`, all required. */
export function pick(attributes: Schema, keys: readonly string[]): Schema {
  const properties = attributes.properties as Record<string, object>;
  return object(Object.fromEntries(keys.map((key) => [key, properties[key]!])));
}

/** A relationship's linkage: `{data: [{type, id}]}`. */
export const linkage = (type: string): Schema =>
  object({ data: { type: 'array', items: object({ type: { const: type }, id: { type: ['string', 'integer'] } }) } });

/** A JSON:API resource object: `{id, type, attributes, relationships?, links}`. */
export function resource(options: {
  type: string;
  attributes: object;
  id?: object;
  links?: readonly string[];
  relationships?: Record<string, object>;
}): Schema {
  const { type, attributes, id = string, links = ['self'], relationships } = options;
  const properties: Record<string, object> = { id, type: { const: type }, attributes };
  if (relationships) properties.relationships = object(relationships, Object.keys(relationships));
  if (links.length > 0) properties.links = object(Object.fromEntries(links.map((name) => [name, uri])));
  return object(properties, relationships ? ['relationships'] : []);
}

/** `{data, meta?}` with the resource; `meta` required when given. */
export function document(data: object, options: { meta?: object; included?: object } = {}): Schema {
  const properties: Record<string, object> = { data };
  if (options.meta) properties.meta = options.meta;
  if (options.included) properties.included = { type: 'array', items: options.included };
  return object(properties, options.included ? ['included'] : []);
}

/** `meta.message` of mutation answers. */
export const messageMeta = object({ message: string });

const pageLink = nullable(uri);

/** A page of a list: `{data: [...], included?, links: {first, last, prev, next}, meta: {current_page, last_page, per_page, total}}`. */
export function listDocument(item: object, options: { included?: object } = {}): Schema {
  const properties: Record<string, object> = {
    data: { type: 'array', items: item },
    links: object({ first: uri, last: uri, prev: pageLink, next: pageLink }),
    meta: object({ current_page: integer, last_page: integer, per_page: integer, total: integer }),
  };
  if (options.included) properties.included = { type: 'array', items: options.included };
  return object(properties, options.included ? ['included'] : []);
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

/** The `fields[<type>]` and `include` parameters of a read of `shape`. */
export function documentParameters(shape: ResourceShape): QueryParameterDoc[] {
  const shapes = [shape, ...Object.values(shape.relationships ?? {})];
  const parameters: QueryParameterDoc[] = shapes.map((s) => ({
    name: `fields[${s.type}]`,
    description: `Sparse fieldset: a comma-separated list of the ${s.type} attributes to keep (${[...s.attributes, ...Object.keys(s.relationships ?? {})].join(', ')}).`,
    schema: { type: 'string' },
  }));
  const relationships = Object.keys(shape.relationships ?? {});
  if (relationships.length > 0) {
    parameters.push({ name: 'include', description: `Related resources to add in \`included\`: ${relationships.join(', ')}.`, schema: { type: 'string' } });
  }
  return parameters;
}

/** The parameters of a list: `filter[...]`, `sort`, `page[size]`, `page[number]`, and those of documentParameters. */
export function listParameters<T>(spec: ListSpec<T>): QueryParameterDoc[] {
  const filters: QueryParameterDoc[] = Object.entries(spec.filters).map(([name, filter]) => ({
    name: `filter[${name}]`,
    ...(filter.kind === 'enum'
      ? { description: `One of ${filter.values.join(', ')} (any letter case).`, schema: { type: 'string' } }
      : filter.kind === 'text'
        ? { description: 'An exact match.', schema: { type: 'string' } }
        : { description: `Created ${filter.kind} this ISO 8601 date or timestamp (exclusive).`, schema: { type: 'string' } }),
  }));
  const sorts = Object.keys(spec.sorts);
  return [
    ...filters,
    {
      name: 'sort',
      description: `Comma-separated keys among ${sorts.join(', ')}, each optionally prefixed with \`-\` (descending). Default \`-created_at\`.`,
      schema: { type: 'string' },
    },
    { name: 'page[size]', description: 'Results per page, 1 to 100 (default 15).', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    { name: 'page[number]', description: 'The page, from 1.', schema: { type: 'integer', minimum: 1 } },
    ...documentParameters(spec),
  ];
}
