// 法人番号 Web-API CSV answers (type=01 Shift_JIS, type=02 Unicode): the header line and one typed entry per corporation.
import { KumoError } from '../../errors.js';
import { defineExtractor, type Extraction, type Extractor } from '../../extract/extractor.js';
import type { CorporationData, CorporationRecordsData } from '../../extract/page-types.js';
import { parseCorporateNumber } from '../../normalize/ids.js';
import { normalizeText } from '../../normalize/text.js';

/**
 * Column order of the CSV rows (法人番号システム Web-API 仕様書, リソース定義書): versions 1–3 end at
 * enAddressOutside (28 columns, as the real v2 recordings have); version 4 adds furigana and hihyoji (30).
 */
const COLUMNS = [
  'sequenceNumber',
  'corporateNumber',
  'process',
  'correct',
  'updateDate',
  'changeDate',
  'name',
  'nameImageId',
  'kind',
  'prefectureName',
  'cityName',
  'streetNumber',
  'addressImageId',
  'prefectureCode',
  'cityCode',
  'postCode',
  'addressOutside',
  'addressOutsideImageId',
  'closeDate',
  'closeCause',
  'successorCorporateNumber',
  'changeCause',
  'assignmentDate',
  'latest',
  'enName',
  'enPrefectureName',
  'enCityName',
  'enAddressOutside',
  'furigana',
  'hihyoji',
] as const;
type Column = (typeof COLUMNS)[number];
const MIN_COLUMNS = 28;

/** 法人種別 (リソース定義書 別表): a closed list published by 国税庁. */
export const KIND_NAMES: Readonly<Record<string, string>> = {
  '101': '国の機関',
  '201': '地方公共団体',
  '301': '株式会社',
  '302': '有限会社',
  '303': '合名会社',
  '304': '合資会社',
  '305': '合同会社',
  '399': 'その他の設立登記法人',
  '401': '外国会社等',
  '499': 'その他',
};
/** 処理区分 (same source). */
export const PROCESS_NAMES: Readonly<Record<string, string>> = {
  '01': '新規',
  '11': '商号又は名称の変更',
  '12': '国内所在地の変更',
  '13': '国外所在地の変更',
  '21': '登記記録の閉鎖等',
  '22': '登記記録の閉鎖等の取消し',
  '71': '吸収合併',
  '72': '吸収合併無効',
  '81': '商号の登記の抹消',
  '99': '削除',
};
/** 登記記録の閉鎖等の事由 (same source). */
export const CLOSE_CAUSE_NAMES: Readonly<Record<string, string>> = {
  '01': '清算の結了等',
  '11': '合併による解散等',
  '21': '登記官による閉鎖',
  '31': 'その他の清算の結了等',
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function fail(id: string, detail: string): never {
  throw new KumoError('extraction_failed', `${id}: ${detail}`);
}

function makeExtractor(pageType: 'record' | 'records'): Extractor {
  const id = `houjin_bangou/${pageType}` as const;
  return defineExtractor({
    id,
    version: 1,
    pageType,
    input: 'csv',
    reads: 'the CSV answers of the API (type=01 or 02)',
    extract(page): Extraction {
      const [header, ...rows] = page.rows;
      // The header line is 最終更新年月日, 総件数, 分割番号, 分割数; anything else is not an answer (an error text).
      if (!header || header.length !== 4 || !ISO_DATE.test(header[0]!.trim()))
        fail(id, 'no header line (last update date, total, part, parts)');
      const [total, part, parts] = header.slice(1).map((v) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : null));
      if (total == null || part == null || parts == null || part < 1 || parts < 1 || part > parts)
        fail(id, 'header line counts (total, part, parts) are not numbers');
      const warnings: string[] = [];
      const corporations = rows.map((row, i) => readRow(id, row, i + 2, warnings));
      if (corporations.length > total) warnings.push('more rows than the total the header gives');
      const data: CorporationRecordsData = {
        last_updated: header[0]!.trim(),
        total,
        part,
        parts,
        corporations,
      };
      const provenance: Record<string, string> = {
        last_updated: 'csv:header[0]',
        total: 'csv:header[1]',
        part: 'csv:header[2]',
        parts: 'csv:header[3]',
        corporations: 'csv:rows[1..] (法人番号 API column order)',
      };
      return { data, provenance, warnings };
    },
  });
}

function readRow(id: string, row: string[], line: number, warnings: string[]): CorporationData {
  if (row.length < MIN_COLUMNS || row.length > COLUMNS.length)
    fail(id, `line ${line} has ${row.length} columns (28 to 30 expected)`);
  const get = (c: Column) => {
    const v = row[COLUMNS.indexOf(c)];
    return v === undefined ? '' : v.trim();
  };
  const text = (c: Column) => {
    const v = normalizeText(get(c));
    return v === '' ? null : v;
  };
  const code = (c: Column, digits: number) => {
    const v = get(c);
    if (v === '') return null;
    if (!new RegExp(`^\\d{${digits}}$`).test(v)) fail(id, `line ${line}: ${c} is not a ${digits}-digit code`);
    return v;
  };
  const date = (c: Column) => {
    const v = get(c);
    if (v === '') return null;
    const m = ISO_DATE.exec(v);
    const d = m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : null;
    if (!d || d.getUTCDate() !== +m![3]! || d.getUTCMonth() !== +m![2]! - 1)
      fail(id, `line ${line}: ${c} is not a date`);
    return v;
  };
  // A 99 削除 row carries only its number, process and update date: the corporation's data was withdrawn.
  const deleted = get('process') === '99';
  const flag = (c: Column) => {
    const v = get(c);
    if (deleted && v === '') return null;
    if (v !== '0' && v !== '1') fail(id, `line ${line}: ${c} is not 0 or 1`);
    return v === '1';
  };
  const number = parseCorporateNumber(get('corporateNumber'));
  if (!number || number !== get('corporateNumber')) fail(id, `line ${line}: corporateNumber fails its check digit`);
  const successorRaw = get('successorCorporateNumber');
  const successor = successorRaw === '' ? null : parseCorporateNumber(successorRaw);
  if (successorRaw !== '' && !successor) warnings.push(`line ${line}: successorCorporateNumber fails its check digit`);
  const name = text('name');
  if (!name && !deleted) fail(id, `line ${line}: no name`);
  const sequence = get('sequenceNumber');
  if (!/^\d+$/.test(sequence) || Number(sequence) < 1) fail(id, `line ${line}: sequenceNumber is not a number`);
  const updateDate = date('updateDate');
  if (!updateDate) fail(id, `line ${line}: no updateDate`);
  const process = code('process', 2);
  if (!process) fail(id, `line ${line}: no process`);
  const kind = code('kind', 3);
  if (!kind && !deleted) fail(id, `line ${line}: no kind`);
  const closeCause = code('closeCause', 2);
  const hihyoji = row.length >= 30 ? get('hihyoji') : '';
  if (hihyoji !== '' && hihyoji !== '0' && hihyoji !== '1') fail(id, `line ${line}: hihyoji is not 0 or 1`);
  const postCode = get('postCode');
  if (postCode !== '' && !/^\d{7}$/.test(postCode)) fail(id, `line ${line}: postCode is not 7 digits`);
  return {
    sequence_number: Number(sequence),
    corporate_number: number,
    process,
    process_name: PROCESS_NAMES[process] ?? null,
    correction: flag('correct'),
    latest: flag('latest'),
    name,
    furigana: text('furigana'),
    en_name: text('enName'),
    kind,
    kind_name: kind === null ? null : (KIND_NAMES[kind] ?? null),
    prefecture: text('prefectureName'),
    city: text('cityName'),
    street: text('streetNumber'),
    prefecture_code: code('prefectureCode', 2),
    city_code: code('cityCode', 3),
    post_code: postCode === '' ? null : postCode,
    address_outside: text('addressOutside'),
    update_date: updateDate,
    change_date: date('changeDate'),
    assignment_date: date('assignmentDate'),
    close_date: date('closeDate'),
    close_cause: closeCause,
    close_cause_name: closeCause === null ? null : (CLOSE_CAUSE_NAMES[closeCause] ?? null),
    successor_corporate_number: successor,
    change_cause: text('changeCause'),
    hidden: hihyoji === '' ? null : hihyoji === '1',
  };
}

export const houjinRecordExtractor = makeExtractor('record');
export const houjinRecordsExtractor = makeExtractor('records');
