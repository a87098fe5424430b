// egov_laws/document beyond the golden fixtures: URL shapes, ids from the URL, wrapped answers, dates, failures.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KumoError } from '../../errors.js';
import { validateExtraction, type DocumentData } from '../../extract/page-types.js';
import { normalizePage } from '../../normalize/normalize-page.js';
import { corpusAvailable, corpusPath } from '../corpus.js';
import { egovLawDocumentExtractor } from './document-extractor.js';
import { egovLaws } from './site.js';

const API = 'https://laws.e-gov.go.jp/api/2';
const extract = (body: string | Buffer, url = `${API}/law_file/xml/506AC0000000012`) => {
  const page = normalizePage({
    body: typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body),
    headers: { 'content-type': 'application/xml' },
    finalUrl: url,
    input: 'xml',
  });
  const r = egovLawDocumentExtractor.extract(page);
  validateExtraction('document', r);
  return r.data as DocumentData;
};
const law = (attrs: string, main = '<Article Num="1"><ArticleTitle>第一条</ArticleTitle></Article>') =>
  `<?xml version="1.0"?><Law ${attrs}><LawNum>令和元年法律第一号</LawNum><LawBody><LawTitle>試験法</LawTitle>` +
  `<MainProvision>${main}</MainProvision></LawBody></Law>`;
const failure = (body: string) => {
  try {
    extract(body);
  } catch (e) {
    return e instanceof KumoError ? e.code : String(e);
  }
  return 'no error';
};

describe('egov_laws site', () => {
  const entry = egovLaws.pageTypes[0]!;
  const REV = '405AC0000000088_20240401_504AC0100000052';
  const request = (href: string) => entry.api!.request(new URL(href)).url.href;
  const refused = (href: string) => {
    expect(entry.matches(new URL(href))).toBe(false);
    expect(() => entry.api!.request(new URL(href))).toThrow(expect.objectContaining({ code: 'page_not_supported' }));
  };

  it('matches law_file/xml with a law id, a revision id or a law number, and no other file type', () => {
    for (const tail of ['405AC0000000088', REV, '%E5%B9%B3%E6%88%90'])
      expect(entry.matches(new URL(`${API}/law_file/xml/${tail}`))).toBe(true);
    for (const path of ['law_file/json/405AC0000000088', 'law_file/html/405AC0000000088', 'law_data/'])
      expect(entry.matches(new URL(`${API}/${path}`))).toBe(false);
    expect(entry.matches(new URL(`${API}/law_file/xml/`))).toBe(false);
  });

  it('maps law_file/xml to itself and law_data to law_file/xml of the same id, keeping asof', () => {
    expect(request(`${API}/law_file/xml/${REV}`)).toBe(`${API}/law_file/xml/${REV}`);
    expect(request(`${API}/law_data/${REV}`)).toBe(`${API}/law_file/xml/${REV}`);
    expect(request(`${API}/law_data/405AC0000000088?asof=2024-04-01`)).toBe(
      `${API}/law_file/xml/405AC0000000088?asof=2024-04-01`,
    );
    expect(request(`${API}/law_file/xml/405AC0000000088?asof=2020-01-01`)).toBe(
      `${API}/law_file/xml/405AC0000000088?asof=2020-01-01`,
    );
    // A law number travels percent-encoded, whatever the case of the caller's hex digits.
    const number = encodeURIComponent('平成五年法律第八十八号');
    expect(request(`${API}/law_data/${number.toLowerCase()}`)).toBe(`${API}/law_file/xml/${number}`);
  });

  it('maps the viewer: /law/<law_id> is today’s version, /law/<law_id>/<date>_<amending id> that revision', () => {
    expect(request('https://laws.e-gov.go.jp/law/323AC0000000131')).toBe(`${API}/law_file/xml/323AC0000000131`);
    expect(request('https://laws.e-gov.go.jp/law/323AC0000000131/20260813_508AC0000000067')).toBe(
      `${API}/law_file/xml/323AC0000000131_20260813_508AC0000000067`,
    );
    expect(request('https://laws.e-gov.go.jp/law/405AC0000000088/')).toBe(`${API}/law_file/xml/405AC0000000088`);
  });

  it('refuses other law_data parameters, a second or malformed asof, and viewer URLs it does not know', () => {
    refused(`${API}/law_data/405AC0000000088?elm=MainProvision-Article_1`);
    refused(`${API}/law_data/405AC0000000088?law_full_text_format=xml`);
    refused(`${API}/law_data/405AC0000000088?response_format=xml`);
    refused(`${API}/law_data/405AC0000000088?asof=2024-04-01&asof=2025-01-01`);
    refused(`${API}/law_data/405AC0000000088?asof=20240401`);
    refused(`${API}/law_file/xml/405AC0000000088?asof=2024-04-01&x=1`);
    refused('https://laws.e-gov.go.jp/law/405AC0000000088?asof=2024-04-01');
    refused('https://laws.e-gov.go.jp/law/405AC0000000088/2024-04-01');
    refused('https://laws.e-gov.go.jp/law/nothing');
    refused('https://laws.e-gov.go.jp/');
  });

  it('refuses ids that decode to a path: encoded slashes, backslashes, dots, percent signs, control characters', () => {
    for (const tail of [
      '..%2Flaw_file%2Fjson%2F1',
      '%2E%2E',
      '405AC0000000088%2F',
      'a%5Cb',
      '%252F',
      'a%00b',
      '%E0%A4%A',
    ])
      refused(`${API}/law_data/${tail}`);
    refused(`${API}/law_file/xml/405AC0000000088.json`);
  });

  it('maps only to its own host over https', () => {
    expect(entry.api!.hosts).toEqual(['laws.e-gov.go.jp']);
    refused('https://example.com/api/2/law_data/405AC0000000088');
  });
});

describe('egov_laws/document', () => {
  it('reads the law id and revision id from the URL, and neither from a law number', () => {
    const body = law('Era="Reiwa" Year="01" LawType="Act" PromulgateMonth="5" PromulgateDay="7"');
    expect(extract(body, `${API}/law_file/xml/501AC0000000001_20240401_506AC0000000012`)).toMatchObject({
      law_id: '501AC0000000001',
      law_revision_id: '501AC0000000001_20240401_506AC0000000012',
    });
    const byNumber = extract(body, `${API}/law_file/xml/${encodeURIComponent('令和元年法律第一号')}`);
    expect(byNumber).toMatchObject({ law_id: null, law_revision_id: null });
  });

  it('turns Era/Year/PromulgateMonth/PromulgateDay into an ISO date by the era rules (元年, Showa, Meiji)', () => {
    const date = (attrs: string) => extract(law(attrs)).promulgation_date;
    expect(date('Era="Reiwa" Year="01" PromulgateMonth="05" PromulgateDay="07"')).toBe('2019-05-07');
    expect(date('Era="Showa" Year="22" PromulgateMonth="4" PromulgateDay="7"')).toBe('1947-04-07');
    expect(date('Era="Meiji" Year="29" PromulgateMonth="4" PromulgateDay="27"')).toBe('1896-04-27');
    // No day, an unknown era or an impossible date: null, the written era and year stay.
    expect(date('Era="Heisei" Year="05" PromulgateMonth="11"')).toBeNull();
    expect(date('Era="Kouka" Year="05" PromulgateMonth="11" PromulgateDay="12"')).toBeNull();
    expect(extract(law('Era="Heisei" Year="05" PromulgateMonth="2" PromulgateDay="30"'))).toMatchObject({
      promulgation_date: null,
      era: 'Heisei',
      year: '05',
    });
  });

  it('finds a Law wrapped in an API envelope (DataRoot/ApplData/LawFullText)', () => {
    const wrapped = `<DataRoot><Result><Code>0</Code></Result><ApplData><LawFullText>${law('Era="Reiwa" Year="01" PromulgateMonth="5" PromulgateDay="7"').replace('<?xml version="1.0"?>', '')}</LawFullText></ApplData></DataRoot>`;
    expect(extract(wrapped)).toMatchObject({
      title: '試験法',
      law_number: '令和元年法律第一号',
      articles: [{ number: '1' }],
    });
  });

  it('keeps paragraphs of a main provision without articles, and articles inside Part and Subsection', () => {
    const paragraphsOnly = extract(
      law(
        '',
        '<Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence>本文。</Sentence></ParagraphSentence></Paragraph>',
      ),
    );
    expect(paragraphsOnly).toMatchObject({ articles: [], paragraphs: [{ number: '1', text: '本文。' }] });
    const nested = extract(
      law(
        '',
        '<Part Num="1"><PartTitle>第一編</PartTitle><Chapter Num="2"><ChapterTitle>第二章</ChapterTitle><Section Num="1"><SectionTitle>第一節</SectionTitle><Subsection Num="1"><Article Num="10_3"><ArticleTitle>第十条の三</ArticleTitle></Article></Subsection></Section></Chapter></Part>',
      ),
    );
    expect(nested.articles).toEqual([
      { number: '10_3', title: '第十条の三', caption: null, chapter: '2', section: '1', paragraphs: [] },
    ]);
  });

  it('leaves ruby readings out of the text', () => {
    const data = extract(
      law(
        '',
        '<Article Num="1"><ArticleTitle>第一条</ArticleTitle><Paragraph Num="1"><ParagraphNum/><ParagraphSentence>' +
          '<Sentence>権限の<Ruby>踰<Rt>ゆ</Rt></Ruby><Ruby>越<Rt>えつ</Rt></Ruby>をしてはならない。</Sentence>' +
          '</ParagraphSentence></Paragraph></Article>',
      ),
    );
    expect(data.articles[0]!.paragraphs[0]!.text).toBe('権限の踰越をしてはならない。');
  });

  it('fails on an error answer, a Law without title or number, and a law with no provisions, naming no values', () => {
    expect(failure('<DataRoot><Result><Code>1</Code><Message>秘密</Message></Result></DataRoot>')).toBe(
      'extraction_failed',
    );
    expect(failure('<Law><LawBody><LawTitle>試験法</LawTitle><MainProvision/></LawBody></Law>')).toBe(
      'extraction_failed',
    );
    expect(failure(law('', ''))).toBe('extraction_failed');
    expect(failure('not xml at all')).toBe('extraction_failed');
    const secret = '<Law><LawNum>秘密の番号</LawNum><LawBody><MainProvision/></LawBody></Law>';
    expect(() => extract(secret)).toThrow(/missing title/);
    expect(() => extract(secret)).not.toThrow(/秘密/);
  });

  it.skipIf(!corpusAvailable())('gives the MANIFEST values of the real 行政手続法 XML', () => {
    const file = '405AC0000000088_20240401_504AC0100000052';
    const data = extract(readFileSync(corpusPath(`e-gov-law/${file}.xml`)), `${API}/law_file/xml/${file}`);
    expect(data).toMatchObject({
      title: '行政手続法',
      law_number: '平成五年法律第八十八号',
      law_id: '405AC0000000088',
      law_type: 'Act',
      era: 'Heisei',
      year: '05',
      promulgation_date: '1993-11-12',
    });
    expect(data.articles).toHaveLength(48);
    expect(data.articles.filter((a) => a.number.includes('_')).map((a) => [a.number, a.title])).toEqual([
      ['36_2', '第三十六条の二'],
      ['36_3', '第三十六条の三'],
    ]);
    expect(data.supplementary_provisions).toHaveLength(14);
    expect(data.supplementary_provisions[0]!.amend_law_number).toBeNull();
  });
});
