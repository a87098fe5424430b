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

/**
 * The webhook bodies among `bodies` that are not the published body of their `type` (the document's `webhooks`), each
 * named with Ajv's first errors; an unknown type is one of them. Empty when every body is as published.
 */
export async function unpublishedWebhookBodies(baseUrl: string, bodies: readonly unknown[]): Promise<string[]> {
  const document = (await (await fetch(new URL('/openapi.json', baseUrl))).json()) as {
    webhooks: Record<string, unknown>;
  };
  const validatorAt = documentValidators(document);
  const problems: string[] = [];
  for (const body of bodies) {
    const type = (body as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || !(type in document.webhooks)) {
      problems.push(`a body of no published type: ${JSON.stringify(type)}`);
      continue;
    }
    const validate = validatorAt(`/webhooks/${type}/post/requestBody/content/application~1json/schema`);
    if (!validate(body)) problems.push(`${type}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
  return problems;
}
