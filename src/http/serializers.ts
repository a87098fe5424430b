// Fastify's own response serializers, compiled once per schema: every route answers its errors with the one Problem
// schema, which Fastify otherwise compiles anew for each route and status (394 times, a sixth of a server's start).
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Builder = ReturnType<typeof SerializerSelector>;
type Compile = ReturnType<Builder>;
type Serializer = ReturnType<Compile>;

/**
 * A `compilersFactory.buildSerializer` that hands each schema object the serializer Fastify's default compiler made
 * for it the first time. A serializer depends only on its schema, the shared schemas and the options, so scopes with
 * the same shared schemas and options share one cache.
 */
export function serializersOncePerSchema(): Builder {
  const build = SerializerSelector();
  const caches = new Map<string, WeakMap<object, Serializer>>();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const scope = JSON.stringify([externalSchemas ?? {}, options ?? {}]);
    let cache = caches.get(scope);
    if (cache === undefined) caches.set(scope, (cache = new WeakMap()));
    const compiled = cache;
    return (route) => {
      const schema = route.schema;
      if (typeof schema !== 'object' || schema === null) return compile(route);
      let serializer = compiled.get(schema);
      if (serializer === undefined) compiled.set(schema, (serializer = compile(route)));
      return serializer;
    };
  };
}
