import { BadRequest, Unprocessable } from './errors.js';
import type { QueryParameterDoc } from './route.js';

/**
 * JSON:API's sparse fieldsets (`fields[<type>]`) and `include`, on every GET of /v1, single
 * resources and lists alike:
 * - `fields[<type>]=a,b` keeps only those attributes of every resource of that type, in the
 *   primary data and in `included`; a relationship's name counts as a field (it keeps the
 *   relationship). An unknown name, or a type the answer cannot hold, is a 422 naming the
 *   parameter.
 * - `include=a,b` follows those relationships into a top-level `included`; a path the resource
 *   does not have (any path, on a resource without relationships) is a 400.
 */
export interface ResourceShape {
  type: string;
  /** Attributes `fields[type]` may name. */
  attributes: readonly string[];
  /** Relationships by name: the related type's shape. `include` may follow them. */
  relationships?: Readonly<Record<string, ResourceShape>>;
}

export interface DocumentQuery {
  /** `fields[<type>]` by type; a type not given shows its usual attributes. */
  fields: ReadonlyMap<string, readonly string[]>;
  /** The relationship paths `include` names. */
  include: ReadonlySet<string>;
}

/** A resource object of an answer. */
export interface ResourceObject {
  id: string | number;
  type: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data: { type: string; id: string | number }[] }>;
  links?: Record<string, string>;
}

type Fail = (param: string, message: string) => void;

/**
 * Reads `fields[...]` and `include` of `query`. 422 problems go to `fail` (keyed by the
 * parameter as sent), so a list can report them with its other parameters; an unknown include
 * path throws the 400 at once.
 */
export function parseDocumentParams(query: Record<string, unknown>, shape: ResourceShape, fail: Fail): DocumentQuery {
  if (isEmpty(query)) return PLAIN;
  const shapes = new Map<string, ResourceShape>([[shape.type, shape]]);
  for (const related of Object.values(shape.relationships ?? {})) shapes.set(related.type, related);
  const fields = new Map<string, readonly string[]>();

  for (const [param, raw] of Object.entries(query)) {
    if (param !== 'fields' && !param.startsWith('fields[')) continue;
    const bracket = /^fields\[([^\]]*)\]$/.exec(param);
    if (!bracket) {
      fail(param, 'Use fields[<type>]=<attribute>,<attribute>.');
      continue;
    }
    if (Array.isArray(raw)) {
      fail(param, `The ${param} parameter must be given once.`);
      continue;
    }
    const target = shapes.get(bracket[1]!);
    if (!target) {
      const types = [...shapes.keys()].map((type) => `fields[${type}]`);
      fail(param, `Only ${types.join(' or ')} ${types.length > 1 ? 'apply' : 'applies'} here.`);
      continue;
    }
    const names = String(raw ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const known = fieldNames(target);
    const unknown = names.filter((f) => !known.includes(f));
    if (unknown.length > 0) {
      fail(param, `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Fields of ${target.type}: ${known.join(', ')}.`);
      continue;
    }
    fields.set(target.type, [...new Set(names)]);
  }

  return { fields, include: parseInclude(query.include, shape) };
}

/** No fields, no include: what most requests ask (one shared object, read only). */
const PLAIN: DocumentQuery = { fields: new Map(), include: new Set() };

/** No `fields[...]` and no `include`: the resource's usual answer. */
export function isPlain(query: DocumentQuery): boolean {
  return query.fields.size === 0 && query.include.size === 0;
}

function isEmpty(query: Record<string, unknown>): boolean {
  for (const _ in query) return false;
  return true;
}

/** The same for a single resource: any 422 is thrown. */
export function parseDocumentQuery(query: Record<string, unknown>, shape: ResourceShape): DocumentQuery {
  if (isEmpty(query)) return PLAIN;
  const errors: Record<string, string[]> = {};
  const parsed = parseDocumentParams(query, shape, (param, message) => (errors[param] ??= []).push(message));
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw new Unprocessable(first, errors);
  return parsed;
}

function parseInclude(raw: unknown, shape: ResourceShape): ReadonlySet<string> {
  if (raw === undefined) return new Set();
  const relationships = Object.keys(shape.relationships ?? {});
  const offer = relationships.length > 0 ? `Include paths here: ${relationships.join(', ')}.` : `The ${shape.type} resource has no relationships to include.`;
  if (Array.isArray(raw)) throw new BadRequest(`The include parameter must be given once, as a comma-separated list. ${offer}`);
  const paths = String(raw)
    .split(',')
    .map((p) => p.trim());
  const unknown = paths.filter((p) => !relationships.includes(p));
  if (unknown.length > 0) {
    const named = unknown.map((p) => (p === '' ? 'an empty path' : `"${p}"`)).join(', ');
    throw new BadRequest(`Unknown include path${unknown.length > 1 ? 's' : ''} ${named}. ${offer}`);
  }
  return new Set(paths);
}

/** What `fields[type]` may name: the attributes, then the relationships. */
export function fieldNames(shape: ResourceShape): readonly string[] {
  return [...shape.attributes, ...Object.keys(shape.relationships ?? {})];
}

/** `fields[type]` as given, or undefined when the answer shows the type's usual attributes. */
export function fieldsOf(query: DocumentQuery, type: string): readonly string[] | undefined {
  return query.fields.get(type);
}

/**
 * The attributes `fields` keeps, in the order asked (`attributes` when no fields are given).
 * Relationship names are skipped here (they keep a relationship, not an attribute); an
 * attribute a resource does not have at the moment is null.
 */
export function pickAttributes(attributes: Record<string, unknown>, fields: readonly string[] | undefined, shape: ResourceShape): Record<string, unknown> {
  if (!fields) return attributes;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (shape.attributes.includes(field)) out[field] = Object.hasOwn(attributes, field) ? attributes[field] : null;
  return out;
}

/**
 * A presenter's attributes with only `fields`, in the order given (an attribute the resource does
 * not have at the moment is null); all of them when no fields are given.
 */
export function onlyFields(attributes: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  return fields ? Object.fromEntries(fields.map((f) => [f, attributes[f] ?? null])) : attributes;
}

/** A presented resource with only the attributes `fields[<its type>]` keeps. */
export function sparseResource<R extends ResourceObject>(resource: R, query: DocumentQuery, shape: ResourceShape): R {
  const fields = fieldsOf(query, resource.type);
  if (!fields || !resource.attributes) return resource;
  return { ...resource, attributes: pickAttributes(resource.attributes, fields, shape) };
}

/**
 * Whether the answer needs the related resources of `name`: `include` names it, or
 * `fields[type]` names it explicitly (a client keeping the relationship).
 */
export function wantsRelationship(query: DocumentQuery, type: string, name: string): boolean {
  return query.include.has(name) || (fieldsOf(query, type)?.includes(name) ?? false);
}

/**
 * Links `resource` to its related resources under `relationships.<name>` (unless
 * `fields[type]` leaves the relationship out) and adds them to `included` when `include`
 * names the path. `included` holds each resource once (`type:id`).
 */
export function relate<R extends ResourceObject>(
  resource: R,
  name: string,
  related: readonly ResourceObject[],
  query: DocumentQuery,
  included: Map<string, ResourceObject>,
): R {
  if (query.include.has(name)) for (const r of related) if (!included.has(`${r.type}:${r.id}`)) included.set(`${r.type}:${r.id}`, r);
  const fields = fieldsOf(query, resource.type);
  if (fields && !fields.includes(name)) return resource;
  const linkage = related.map(({ type, id }) => ({ type, id }));
  return { ...resource, relationships: { ...resource.relationships, [name]: { data: linkage } } };
}

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
