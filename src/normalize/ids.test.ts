// Table tests for the identifiers of research §6: worked examples, typing slips and wrong check digits.
import { describe, expect, it } from 'vitest';
import { parseId, type IdType } from './ids.js';

describe('parseId', () => {
  it.each<[IdType, string, string | null]>([
    // JAN / EAN-13 / UPC-12 / GTIN-8 (§6.1)
    ['jan', '4569951116179', '4569951116179'],
    ['jan', '4901234567894', '4901234567894'],
    ['jan', '4901234567893', null],
    ['jan', '49968712', '49968712'],
    ['jan', '49968713', null],
    ['jan', '036000291452', '0036000291452'],
    ['jan', 'JAN: 4569951116179', '4569951116179'],
    ['jan', '４５６９９５１１１６１７９', '4569951116179'],
    ['jan', '4569-9511-1617-9', '4569951116179'],
    ['jan', '1920241008209', '1920241008209'],
    ['jan', '456995111617', null],
    ['jan', '', null],
    // ISBN-13 / ISBN-10 (§6.2)
    ['isbn', 'ISBN978-4-00-416004-5', '9784004160045'],
    ['isbn', '978-4-00-416004-5', '9784004160045'],
    ['isbn', '9784004160045', '9784004160045'],
    ['isbn', '978-4-00-416004-6', null],
    ['isbn', '4-00-416004-9', '9784004160045'],
    ['isbn', 'ISBN4-00-416004-9', '9784004160045'],
    ['isbn', '4-00-416004-5', null],
    ['isbn', '0-8044-2957-X', '9780804429573'],
    ['isbn', '080442957x', '9780804429573'],
    ['isbn', 'ISBN-13: 978-0-306-40615-7', '9780306406157'],
    ['isbn', '0-306-40615-2', '9780306406157'],
    ['isbn', '1920241008209', null],
    ['isbn', '９７８４００４１６００４５', '9784004160045'],
    // 法人番号 (§6.3)
    ['corporate_number', '7123456789012', '7123456789012'],
    ['corporate_number', '4011001098993', '4011001098993'],
    ['corporate_number', '2120901007402', '2120901007402'],
    ['corporate_number', '法人番号：4011001098993', '4011001098993'],
    ['corporate_number', '４０１１００１０９８９９３', '4011001098993'],
    ['corporate_number', '1123456789012', null],
    ['corporate_number', '0123456789012', null],
    ['corporate_number', '123456789012', null],
    ['corporate_number', '4011001098994', null],
    // Postal codes (§6.4)
    ['postal_code', '〒123-4567', '123-4567'],
    ['postal_code', '123-4567', '123-4567'],
    ['postal_code', '1234567', '123-4567'],
    ['postal_code', '〒１２３－４５６７', '123-4567'],
    ['postal_code', '〶100-0001', '100-0001'],
    ['postal_code', '123ー4567', '123-4567'],
    ['postal_code', '〒 100-8111', '100-8111'],
    ['postal_code', '12-34567', null],
    ['postal_code', '123-456', null],
    ['postal_code', '12345678', null],
    // Phone numbers → E.164 (§6.4)
    ['phone', '03-1234-5678', '+81312345678'],
    ['phone', '06-1234-5678', '+81612345678'],
    ['phone', '090-1234-5678', '+819012345678'],
    ['phone', '080-1234-5678', '+818012345678'],
    ['phone', '070-1234-5678', '+817012345678'],
    ['phone', '050-1234-5678', '+815012345678'],
    ['phone', '0120-123-456', '+81120123456'],
    ['phone', '0800-123-4567', '+818001234567'],
    ['phone', '0570-012-345', '+81570012345'],
    ['phone', '(03)1234-5678', '+81312345678'],
    ['phone', 'TEL:03-1234-5678', '+81312345678'],
    ['phone', '℡ 03-1234-5678', '+81312345678'],
    ['phone', '０３ー１２３４ー５６７８', '+81312345678'],
    ['phone', '+81 3-1234-5678', '+81312345678'],
    ['phone', '0263-12-3456', '+81263123456'],
    ['phone', '03-1234-567', null],
    ['phone', '090-1234-567', null],
    ['phone', '0120-123-4567', null],
    ['phone', '1234-5678', null],
    ['phone', '00-1234-5678', null],
    // 020 M2M / pager numbers: 11 digits like mobile (issue 7 §6)
    ['phone', '020-1234-5678', '+812012345678'],
    ['phone', '０２０－１２３４－５６７８', '+812012345678'],
    ['phone', '+81 20-1234-5678', '+812012345678'],
    ['phone', '020-123-4567', null],
    ['phone', '060-1234-5678', '+816012345678'],
    // The other 0A0 prefixes: unassigned, or the international prefix
    ['phone', '010-123-4567', null],
    ['phone', '030-123-4567', null],
    ['phone', '040-123-4567', null],
    ['phone', '090-0123-4567', null],
    ['phone', '070-0123-4567', null],
    ['phone', '050-0123-4567', null],
    ['phone', '080-0123-4567', '+818001234567'],
    ['phone', '0990-123-456', '+81990123456'],
    ['phone', '0990-123-4567', null],
    ['phone', '0180-123-456', '+81180123456'],
    // 020 by 総務省's plan (issue 19): 0201-0203/0205-0209 M2M and 0204 pagers have 11 digits, 0200 has 14
    ['phone', '0200-123-4567', null],
    ['phone', '020-0987-6543', null],
    ['phone', '0200-12345-67890', '+812001234567890'],
    ['phone', '0200-1234-5678', null],
    ['phone', '020-4612-3456', '+812046123456'],
    ['phone', '020-9876-5432', '+812098765432'],
    ['phone', '020-1234-56789', null],
    ['phone', '060-0123-4567', null],
  ])('%s %s', (idType, input, normalized) => {
    expect(parseId(idType, input)).toEqual({ valid: normalized !== null, normalized, idType });
  });
});

// Example numbers of libphonenumber's JP metadata, one per number type (python-phonenumbers
// python/phonenumbers/data/region_JP.py @4920fee, Apache-2.0), written as a Japanese page writes them.
describe('libphonenumber JP example numbers', () => {
  it.each<[string, string, string | null]>([
    ['fixed_line', '03-1234-5678', '+81312345678'],
    ['mobile', '090-1234-5678', '+819012345678'],
    ['toll_free', '0120-123-456', '+81120123456'],
    ['premium_rate', '0990-123-456', '+81990123456'],
    ['voip', '050-1234-5678', '+815012345678'],
    ['pager', '020-1234-5678', '+812012345678'],
    ['uan', '0570-123-456', '+81570123456'],
    // personal_number 601234567 (060-123-4567, 10 digits): never in service; research §6.4 makes 060 11-digit mobile.
    ['personal_number', '060-123-4567', null],
  ])('%s %s', (_type, input, normalized) => {
    expect(parseId('phone', input)).toEqual({ valid: normalized !== null, normalized, idType: 'phone' });
  });
});
