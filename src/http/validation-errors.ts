// Turns Ajv's schema errors (any route's body or query) into one invalid_request problem a caller can act on.
import { KumoError } from '../errors.js';

/** The part of an Ajv error we read (Fastify compiles with `verbose`, so the failing schema and value come along). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  /** The failing value: only its JSON type is ever named, never the value itself (it may be a caller's secret). */
  data?: unknown;
  parentSchema?: unknown;
}

/**
 * One problem for a failed validation. Ajv stops at the first failure (allErrors is off), so the last error is the
 * one that failed the request; a failed union (anyOf/oneOf) is preceded by one error per branch, which together say
 * what would have been accepted.
 */
export function validationKumoError(errors: readonly SchemaError[]): KumoError {
  const { field, detail } = describe(errors.at(-1)!, errors);
  return new KumoError('invalid_request', detail, { body: { field } });
}

interface Described {
  field: string;
  detail: string;
}

function describe(error: SchemaError, errors: readonly SchemaError[]): Described {
  const field = fieldOf(error);
  if (error.keyword === 'anyOf' || error.keyword === 'oneOf') return unionDetail(error, errors, field);
  return { field, detail: singleDetail(error, field) };
}

/** `params.mode`, `url`, or `body` for the whole body: the dotted path of the offending member. */
function fieldOf(error: SchemaError): string {
  const base = error.instancePath
    .replace(/^\//, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
  const named = error.params.additionalProperty ?? error.params.missingProperty;
  return [base, typeof named === 'string' ? named : ''].filter(Boolean).join('.') || 'body';
}

/** What each branch of a union would have taken, when every branch is a value or a bare type at the same place. */
function unionDetail(union: SchemaError, errors: readonly SchemaError[], field: string): Described {
  const branches = errors.filter((error) => error !== union && error.schemaPath.startsWith(`${union.schemaPath}/`));
  const values: string[] = [];
  const types: string[] = [];
  for (const branch of branches) {
    if (branch.instancePath !== union.instancePath) return deepestBranchDetail(branches, errors);
    if (branch.keyword === 'const') values.push(shown(branch.params.allowedValue));
    else if (branch.keyword === 'enum' && Array.isArray(branch.params.allowedValues))
      values.push(...branch.params.allowedValues.map(shown));
    else if (branch.keyword === 'type') types.push(typeName(String(branch.params.type)));
    else return deepestBranchDetail(branches, errors);
  }
  if (values.length > 0 && types.length === 0)
    return { field, detail: `${field} must be one of: ${values.join(', ')}` };
  if (values.length === 0 && types.length > 0)
    return { field, detail: `${field} must be ${types.join(' or ')}, not ${jsonTypeOf(union.data)}` };
  if (values.length > 0)
    return { field, detail: `${field} must be ${types.join(' or ')} or one of: ${values.join(', ')}` };
  return { field, detail: `${field} does not match any accepted form` };
}

/**
 * A union of objects (or of an object and null): the branch that got furthest into the value says most about what
 * is wrong, and when that is itself a failed union (`notify.language`), what it would have taken.
 */
function deepestBranchDetail(branches: readonly SchemaError[], errors: readonly SchemaError[]): Described {
  const depth = (error: SchemaError) => fieldOf(error).split('.').length;
  const deepest = Math.max(...branches.map(depth));
  const atDeepest = branches.filter((error) => depth(error) === deepest);
  const innerUnion = atDeepest.find((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  return describe(innerUnion ?? atDeepest[0]!, errors);
}

function singleDetail(error: SchemaError, field: string): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return `missing field: ${field}`;
    case 'additionalProperties': {
      const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
      const allowed = properties ? Object.keys(properties) : [];
      return allowed.length > 0
        ? `unknown field: ${field} (allowed here: ${allowed.join(', ')})`
        : `unknown field: ${field}`;
    }
    case 'type':
      return `${field} must be ${String(p.type).split(',').map(typeName).join(' or ')}, not ${jsonTypeOf(error.data)}`;
    case 'const':
      return `${field} must be ${shown(p.allowedValue)}`;
    case 'enum':
      return `${field} must be one of: ${(Array.isArray(p.allowedValues) ? p.allowedValues : []).map(shown).join(', ')}`;
    case 'minLength':
      return p.limit === 1 ? `${field} must not be empty` : `${field} must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `${field} must be at most ${String(p.limit)} characters`;
    case 'minimum':
      return `${field} must be at least ${String(p.limit)}`;
    case 'maximum':
      return `${field} must be at most ${String(p.limit)}`;
    case 'minItems':
      return `${field} must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${field} must have at most ${String(p.limit)} items`;
    case 'minProperties':
      return `${field} must have at least ${String(p.limit)} field${p.limit === 1 ? '' : 's'}`;
    case 'pattern':
      return `${field} must match the pattern ${String(p.pattern)}`;
    case 'format':
      return `${field} must be a valid ${String(p.format)}`;
    default:
      // Ajv's own words (they never quote the value), for the rarer keywords.
      return `${field} ${(error.message ?? 'is invalid').replace('must NOT', 'must not')}`;
  }
}

function typeName(type: string): string {
  switch (type) {
    case 'integer':
      return 'an integer';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    case 'null':
      return 'null';
    case 'boolean':
      return 'a boolean (true or false)';
    default:
      return `a ${type}`;
  }
}

/** The JSON type of a caller's value, the only thing about it an answer repeats. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    case 'undefined':
    case 'bigint':
    case 'function':
    case 'symbol':
      break;
  }
  return 'another type';
}

/** An allowed value as the schema declares it (ours, never the caller's). */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
