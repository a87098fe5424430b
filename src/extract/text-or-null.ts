// The text of a page part or a JSON value, normalized (ja-extract), or null when there is none: what every extractor
// reads a name, a label or a description with, so that an empty string never passes for a value.
import { normalizeText } from '../normalize/text.js';
import { str } from './json-path.js';

/** A DOM string (an element's text, an attribute) normalized; null when absent or blank after normalizing. */
export function textOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = normalizeText(value);
  return text === '' ? null : text;
}

/** A JSON value read as text: a string, or a finite number as written (`str`); null otherwise or when blank. */
export function jsonText(value: unknown): string | null {
  return textOrNull(str(value));
}
