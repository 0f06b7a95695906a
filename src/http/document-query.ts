import { Unprocessable } from './errors.js';

/**
 * JSON:API's sparse fieldsets (`fields[<type>]`), on every GET of /v1, single resources and
 * lists alike: `fields[<type>]=a,b` keeps only those attributes of every resource of that type,
 * in the primary data and in `included`. An unknown name, or a type the answer cannot hold, is
 * a 422 naming the parameter.
 */
export interface ResourceShape {
  type: string;
  /** Attributes `fields[type]` may name. */
  attributes: readonly string[];
  /** Relationships by name: the related type's shape. */
  relationships?: Readonly<Record<string, ResourceShape>>;
}

export interface DocumentQuery {
  /** `fields[<type>]` by type; a type not given shows its usual attributes. */
  fields: ReadonlyMap<string, readonly string[]>;
}

/** A resource object of an answer. */
export interface ResourceObject {
  id: string | number;
  type: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, string>;
}

type Fail = (param: string, message: string) => void;

/**
 * Reads `fields[...]` of `query`. Problems go to `fail` (keyed by the parameter as sent), so a
 * list can report them with its other parameters.
 */
export function parseDocumentParams(query: Record<string, unknown>, shape: ResourceShape, fail: Fail): DocumentQuery {
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
    const names = String(raw ?? '').split(',').map((f) => f.trim()).filter(Boolean);
    const known = fieldNames(target);
    const unknown = names.filter((f) => !known.includes(f));
    if (unknown.length > 0) {
      fail(param, `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Fields of ${target.type}: ${known.join(', ')}.`);
      continue;
    }
    fields.set(target.type, [...new Set(names)]);
  }

  return { fields };
}

/** The same for a single resource: any 422 is thrown. */
export function parseDocumentQuery(query: Record<string, unknown>, shape: ResourceShape): DocumentQuery {
  const errors: Record<string, string[]> = {};
  const parsed = parseDocumentParams(query, shape, (param, message) => (errors[param] ??= []).push(message));
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw new Unprocessable(first, errors);
  return parsed;
}

/** What `fields[type]` may name. */
export function fieldNames(shape: ResourceShape): readonly string[] {
  return shape.attributes;
}

/** `fields[type]` as given, or undefined when the answer shows the type's usual attributes. */
export function fieldsOf(query: DocumentQuery, type: string): readonly string[] | undefined {
  return query.fields.get(type);
}

/**
 * The attributes `fields` keeps, in the order asked (`attributes` when no fields are given); an
 * attribute a resource does not have at the moment is null.
 */
export function pickAttributes(attributes: Record<string, unknown>, fields: readonly string[] | undefined, shape: ResourceShape): Record<string, unknown> {
  if (!fields) return attributes;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (shape.attributes.includes(field)) out[field] = Object.hasOwn(attributes, field) ? attributes[field] : null;
  return out;
}

/** A presented resource with only the attributes `fields[<its type>]` keeps. */
export function sparseResource<R extends ResourceObject>(resource: R, query: DocumentQuery, shape: ResourceShape): R {
  const fields = fieldsOf(query, resource.type);
  if (!fields || !resource.attributes) return resource;
  return { ...resource, attributes: pickAttributes(resource.attributes, fields, shape) };
}
