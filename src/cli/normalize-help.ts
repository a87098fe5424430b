// `kumo normalize`'s help, apart from its implementation so that `kumo --help` and the command's usage load nothing else.
import type { CommandHelp } from './help.js';
import { idTypes } from '../normalize/ids.js';

export const normalizeHelp: CommandHelp = {
  name: 'normalize',
  summary: 'one string through the normalization library: a price, date, number, text or id',
  usage: ['kumo normalize price|date|number|text "<input>"', `kumo normalize id --type ${idTypes.join('|')} "<input>"`],
  options: [['--type TYPE', `id: the kind of id (${idTypes.join(', ')})`]],
  examples: ['kumo normalize price "10,000円(税込11,000円)"', 'kumo normalize id --type isbn 4-00-416004-9'],
};
