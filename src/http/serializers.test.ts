// Fastify's serializer compiled once per schema object: the same function for the same schema, whatever the route,
// and output identical to Fastify's default compiler.
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { describe, expect, it } from 'vitest';
import { serializersOncePerSchema } from './serializers.js';

const problem = {
  type: 'object',
  properties: { type: { type: 'string' }, status: { type: 'integer' }, code: { type: 'string' } },
  required: ['type', 'status', 'code'],
};
const other = { type: 'object', properties: { request_id: { type: 'string' } } };

describe('serializersOncePerSchema', () => {
  it('hands every route and status the serializer of the first compilation of a schema object', () => {
    const compile = serializersOncePerSchema()({}, {});
    const first = compile({ method: 'POST', url: '/v1/scrape', httpStatus: '400', schema: problem });
    expect(compile({ method: 'GET', url: '/v1/usage', httpStatus: '503', schema: problem })).toBe(first);
    expect(compile({ method: 'GET', url: '/v1/usage', httpStatus: '200', schema: other })).not.toBe(first);
    // Another scope with the same shared schemas and options shares the cache; other options do not.
    const build = serializersOncePerSchema();
    const a = build({}, {})({ method: 'GET', url: '/a', httpStatus: '400', schema: problem });
    expect(build({}, {})({ method: 'GET', url: '/b', httpStatus: '400', schema: problem })).toBe(a);
    expect(build({}, { rounding: 'floor' })({ method: 'GET', url: '/b', httpStatus: '400', schema: problem })).not.toBe(
      a,
    );
  });

  it('writes exactly what Fastify’s default compiler writes, unknown fields dropped as before', () => {
    const body = { type: 'about:blank', status: 429, code: 'credits_exhausted', extra: 'never serialized' };
    const ours = serializersOncePerSchema()({}, {})({ method: 'GET', url: '/', httpStatus: '429', schema: problem });
    const theirs = SerializerSelector()({}, {})({ method: 'GET', url: '/', httpStatus: '429', schema: problem });
    expect(ours(body)).toBe(theirs(body));
    expect(JSON.parse(ours(body))).toEqual({ type: 'about:blank', status: 429, code: 'credits_exhausted' });
  });
});
