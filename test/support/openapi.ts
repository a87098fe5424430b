// Validates JSON against a schema of the published /openapi.json with Ajv (JSON Schema 2020-12, as OpenAPI 3.1 is).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Validators of schemas anywhere in one document, by JSON pointer; `$ref`s resolve within the document. */
export function documentValidators(document: object): (pointer: string) => ValidateFunction {
  // Not Ajv's discriminator mode, which refuses `mapping`: oneOf alone already demands exactly one variant.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: 'kumo:openapi' });
  return (pointer) => ajv.compile({ $ref: `kumo:openapi#${pointer}` });
}

/** A validator of `components.schemas[name]`. */
export function publishedValidator(document: object, name: string): ValidateFunction {
  return documentValidators(document)(`/components/schemas/${name}`);
}
