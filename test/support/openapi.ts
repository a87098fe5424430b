// Validates JSON against a schema of the published /openapi.json with Ajv (JSON Schema 2020-12, as OpenAPI 3.1 is).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A validator of `components.schemas[name]`, every other component reachable through its `$ref`s. */
export function publishedValidator(document: { components: { schemas: Record<string, unknown> } }, name: string) {
  // Not Ajv's discriminator mode, which refuses `mapping`: oneOf alone already demands exactly one variant.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'kumo:openapi', components: document.components });
  return ajv.compile({ $ref: `kumo:openapi#/components/schemas/${name}` });
}
