// JAN check digits, with the real ikebe JAN and research §6.1 examples.
import { describe, expect, it } from 'vitest';
import { parseJan } from './identifiers.js';

describe('parseJan', () => {
  it.each([
    ['2500140008600', '2500140008600'],
    ['JAN：2500140008600', '2500140008600'],
    ['4973655937907', '4973655937907'],
    ['４９７３６５５９３７９０７', '4973655937907'],
    ['4573201242433', '4573201242433'],
    ['4912345', null],
    ['4973655937908', null],
    ['036000291452', '0036000291452'],
    ['96385074', '96385074'],
    ['abc', null],
  ])('%s → %s', (input, expected) => {
    expect(parseJan(input)).toBe(expected);
  });
});
