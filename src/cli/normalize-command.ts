// `kumo normalize`: one string through the normalization library, as the reviewer checks it against the policy.
import { parsePrice } from '../normalize/price.js';
import { parseDate } from '../normalize/date.js';
import { parseNumber } from '../normalize/number.js';
import { normalizeText } from '../normalize/text.js';
import { idTypes, parseId, type IdType } from '../normalize/ids.js';
import { parse, print, snakeCaseKeys, UsageError } from './args.js';
import { commandHelpText } from './help.js';
import { normalizeHelp } from './normalize-help.js';

/** research §0 shapes, so a reviewer can check the library against the policy table one string at a time. */
export function normalize(args: string[]): void {
  const [kind, ...rest] = args;
  const { values, positionals } = parse(rest, { type: { type: 'string' } }, true);
  const input = positionals[0];
  if (input === undefined || positionals.length > 1) throw new UsageError(commandHelpText(normalizeHelp));
  // The library's shapes are TypeScript records (`idType`): printed in the API's snake_case.
  switch (kind ?? '') {
    case 'price':
      return print(snakeCaseKeys(parsePrice(input)));
    case 'date':
      return print(snakeCaseKeys(parseDate(input)));
    case 'number': {
      const parsed = parseNumber(input);
      return print(snakeCaseKeys(parsed ?? { value: null, reason: 'not_a_number' }));
    }
    case 'text':
      return print({ value: normalizeText(input, 'ja-extract'), profile: 'ja-extract' });
    case 'id': {
      const idType = values.type as IdType | undefined;
      if (!idType || !idTypes.includes(idType)) throw new UsageError(`--type must be one of ${idTypes.join(', ')}`);
      return print(snakeCaseKeys(parseId(idType, input)));
    }
    default:
      throw new UsageError(commandHelpText(normalizeHelp));
  }
}
