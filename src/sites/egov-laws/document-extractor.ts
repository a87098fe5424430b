// e-Gov 法令標準XML (law API v2 law_file/xml) → `document`: title, law number, promulgation date, articles, 附則.
import { isTag, type AnyNode, type Element } from 'domhandler';
import { textContent } from 'domutils';
import { KumoError } from '../../errors.js';
import { defineExtractor } from '../../extract/extractor.js';
import type { DocumentData } from '../../extract/page-types.js';
import { parseDate } from '../../normalize/date.js';
import { normalizeText } from '../../normalize/text.js';

const ID = 'egov_laws/document';
type Article = DocumentData['articles'][number];
type Paragraph = Article['paragraphs'][number];
type Item = Paragraph['items'][number];

// Law@Era is written in romaji by the schema (法令標準XMLスキーマ); the date rules live in src/normalize/date.ts.
const ERA_NAMES: Readonly<Record<string, string>> = {
  Meiji: '明治',
  Taisho: '大正',
  Showa: '昭和',
  Heisei: '平成',
  Reiwa: '令和',
};

// `{law_id}` or `{law_id}_{YYYYMMDD}_{amending law id}` as the last path segment of law_file/xml.
const LAW_ID = /^\d{3}[A-Z0-9]+$/;
const REVISION_ID = /^(\d{3}[A-Z0-9]+)_\d{8}_[A-Z0-9]+$/;

function fail(detail: string): never {
  throw new KumoError('extraction_failed', `${ID}: ${detail}`);
}

const children = (el: Element, name?: string): Element[] =>
  el.children.filter((c): c is Element => isTag(c) && (name === undefined || c.name === name));
const child = (el: Element, name: string): Element | null => children(el, name)[0] ?? null;
// Ruby readings (Ruby > Rt) are furigana, not law text: 漢字 with its reading must not read 漢字かんじ.
function plainText(node: AnyNode): string {
  if (!isTag(node)) return textContent(node);
  if (node.name === 'Rt') return '';
  return node.children.map(plainText).join('');
}
const text = (node: AnyNode | null): string | null => {
  if (!node) return null;
  const t = normalizeText(plainText(node));
  return t === '' ? null : t;
};
const attr = (el: Element, name: string): string | null => {
  const v = el.attribs[name]?.trim();
  return v ? v : null;
};

/** A sentence block (ParagraphSentence, ItemSentence …): its Sentences joined; Columns (term and meaning) spaced. */
function sentenceText(el: Element | null): string {
  if (!el) return '';
  const columns = children(el, 'Column');
  if (columns.length > 0) return columns.map((c) => text(c) ?? '').join(' ');
  return text(el) ?? '';
}

function readItems(el: Element, level: number, out: Item[]): void {
  const tag = level === 1 ? 'Item' : `Subitem${level - 1}`;
  for (const item of children(el, tag)) {
    out.push({
      level,
      number: attr(item, 'Num'),
      title: text(child(item, `${tag}Title`)),
      text: sentenceText(child(item, `${tag}Sentence`)),
    });
    if (level < 11) readItems(item, level + 1, out);
  }
}

function readParagraph(el: Element): Paragraph {
  const items: Item[] = [];
  readItems(el, 1, items);
  return {
    number: attr(el, 'Num'),
    caption: text(child(el, 'ParagraphCaption')),
    text: sentenceText(child(el, 'ParagraphSentence')),
    items,
  };
}

function readArticle(el: Element, chapter: string | null, section: string | null): Article {
  const number = attr(el, 'Num');
  if (number === null) fail('an Article has no Num');
  return {
    number,
    title: text(child(el, 'ArticleTitle')),
    caption: text(child(el, 'ArticleCaption')),
    chapter,
    section,
    paragraphs: children(el, 'Paragraph').map(readParagraph),
  };
}

/** Articles anywhere under a provision (Part > Chapter > Section > Subsection > Division), with their chapter. */
function collectArticles(el: Element, chapter: string | null, section: string | null, out: Article[]): void {
  for (const c of children(el)) {
    if (c.name === 'Article') out.push(readArticle(c, chapter, section));
    else if (c.name === 'Chapter') collectArticles(c, attr(c, 'Num'), null, out);
    else if (c.name === 'Section') collectArticles(c, chapter, attr(c, 'Num'), out);
    else if (c.name === 'Part' || c.name === 'Subsection' || c.name === 'Division')
      collectArticles(c, chapter, section, out);
  }
}

function findLaw(nodes: readonly AnyNode[]): Element | null {
  // The standard XML has Law at the root; v1-style answers wrap it (DataRoot > ApplData > LawFullText > Law).
  const stack = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (node.name === 'Law') return node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return null;
}

function promulgationDate(law: Element): string | null {
  const era = ERA_NAMES[law.attribs.Era ?? ''];
  const [y, m, d] = ['Year', 'PromulgateMonth', 'PromulgateDay'].map((n) => Number.parseInt(law.attribs[n] ?? '', 10));
  if (!era || !y || !m || !d) return null;
  return parseDate(`${era}${y}年${m}月${d}日`).value;
}

function idsOf(url: string): { law_id: string | null; law_revision_id: string | null } {
  let segment: string;
  try {
    segment = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    return { law_id: null, law_revision_id: null };
  }
  const revision = REVISION_ID.exec(segment);
  if (revision) return { law_id: revision[1]!, law_revision_id: segment };
  return { law_id: LAW_ID.test(segment) ? segment : null, law_revision_id: null };
}

export const egovLawDocumentExtractor = defineExtractor({
  id: ID,
  version: 1,
  pageType: 'document',
  input: 'xml',
  reads: 'the law XML',
  extract(page) {
    const law = findLaw(page.document.children);
    if (!law) fail('the answer holds no Law element');
    const body = child(law, 'LawBody');
    const title = body ? text(child(body, 'LawTitle')) : null;
    const lawNumber = text(child(law, 'LawNum'));
    const missing = [...(title ? [] : ['title']), ...(lawNumber ? [] : ['law_number'])];
    if (missing.length > 0 || !body) fail(`missing ${missing.join(', ') || 'LawBody'}`);

    const articles: Article[] = [];
    const main = child(body, 'MainProvision');
    if (main) collectArticles(main, null, null, articles);
    const mainParagraphs = main ? children(main, 'Paragraph') : [];
    if (articles.length === 0 && mainParagraphs.length === 0) fail('no articles or paragraphs in MainProvision');

    const chapters = main
      ? children(main, 'Chapter').map((c) => ({
          number: attr(c, 'Num') ?? '',
          title: text(child(c, 'ChapterTitle')) ?? '',
          sections: children(c, 'Section').map((s) => ({
            number: attr(s, 'Num') ?? '',
            title: text(child(s, 'SectionTitle')) ?? '',
          })),
        }))
      : [];
    const supplementary = children(body, 'SupplProvision').map((s) => {
      const supplArticles: Article[] = [];
      collectArticles(s, null, null, supplArticles);
      return {
        amend_law_number: attr(s, 'AmendLawNum'),
        label: text(child(s, 'SupplProvisionLabel')),
        articles: supplArticles,
        paragraphs: children(s, 'Paragraph').map(readParagraph),
      };
    });
    const ids = idsOf(page.url);
    const data: DocumentData = {
      title: title!,
      law_number: lawNumber!,
      ...ids,
      law_type: attr(law, 'LawType'),
      era: attr(law, 'Era'),
      year: attr(law, 'Year'),
      promulgation_date: promulgationDate(law),
      chapters: chapters.filter((c) => c.number !== '' && c.title !== ''),
      articles,
      paragraphs: mainParagraphs.map(readParagraph),
      supplementary_provisions: supplementary,
    };
    const warnings: string[] = [];
    return {
      data,
      provenance: {
        title: 'xml:Law/LawBody/LawTitle',
        law_number: 'xml:Law/LawNum',
        law_id: 'url:path',
        law_revision_id: 'url:path',
        law_type: 'xml:Law@LawType',
        era: 'xml:Law@Era',
        year: 'xml:Law@Year',
        promulgation_date: 'xml:Law@Era+Year+PromulgateMonth+PromulgateDay',
        chapters: 'xml:MainProvision/Chapter',
        articles: 'xml:MainProvision//Article',
        paragraphs: 'xml:MainProvision/Paragraph',
        supplementary_provisions: 'xml:LawBody/SupplProvision',
      },
      warnings,
    };
  },
});
