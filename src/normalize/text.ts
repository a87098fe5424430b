// Text normalization profiles of research/japanese-normalization.md §4.4: plain NFKC and `ja-extract`.

export type TextProfile = 'nfkc' | 'ja-extract';

// NFKC leaves the wave-dash family alone (§4.1), and which one a page holds depends on the tool that wrote it
// (§4.2: CP932 decoders give U+FF5E, JIS-conformant ones U+301C), so ranges only match after folding them.
const TILDES = /[\u301C\u3030\u223C\u223E\uFF5E]/g;
// Hyphen and minus look-alikes: a negative number or a range written with any of them must read the same.
const HYPHENS = /[\u2010\u2011\u2012\u2013\u2043\u2212\u02D7\u058A\uFE63\uFF0D\u207B\u208B]/g;
// Long-vowel mark and dashes typed between digits (`03ー1234`) are hyphens; elsewhere (ラーメン) they are words.
const DASH_BETWEEN_DIGITS = /(?<=[0-9])[\u30FC\u2015\u2014\u2500\u2501](?=[0-9])/g;
const WHITESPACE = /\s+/g;
// Printable ASCII words joined by single spaces: NFKC leaves ASCII as it is, and none of the folds above or the
// whitespace rule can change such a string, so it is its own normal form. Most table cells, prices and dates are this.
const ALREADY_NORMAL = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/**
 * `ja-extract` (default): NFKC, tildes → `~`, hyphen/minus variants → `-`, dashes between ASCII digits → `-`,
 * whitespace runs → one space, trimmed. Nothing else: no tilde deletion, no ー collapsing, no case folding.
 */
export function normalizeText(input: string, profile: TextProfile = 'ja-extract'): string {
  if (ALREADY_NORMAL.test(input)) return input;
  const nfkc = input.normalize('NFKC');
  if (profile === 'nfkc') return nfkc;
  return nfkc
    .replace(TILDES, '~')
    .replace(HYPHENS, '-')
    .replace(DASH_BETWEEN_DIGITS, '-')
    .replace(WHITESPACE, ' ')
    .trim();
}

/** `ja-extract` per line, keeping paragraph breaks: for bulletins whose line structure carries meaning. */
export function normalizeMultilineText(input: string): string {
  return input
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => normalizeText(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
