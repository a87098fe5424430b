// The one gate every normalized HTML document passes before it leaves Kumo (`html`, artifacts): an allowlist, not a blocklist.
import sanitizeHtml, { type IFrame, type IOptions } from 'sanitize-html';
import { splitSrcset } from './srcset.js';

/** Control characters HTML does not allow in a document (all C0 but its whitespace tab, LF, FF and CR; and DEL). They
 * carry no text, and inside the JSON answer each would take six bytes (`\u0001`). */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CONTROLS = /[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g;

/** Schemes a URL attribute may keep after resolution; links alone may also keep mailto: and tel: (inert until clicked). */
const WEB_SCHEMES = new Set(['http:', 'https:']);
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/** Attributes that hold one URL. They are resolved here, before the allowlist, so that what the browser would
 * follow is what gets checked (`new URL()` drops tabs, newlines and leading controls exactly as a browser does). */
const URL_ATTRIBUTES = new Set(['href', 'src', 'cite']);

/** `<link rel>` values that make a browser fetch nothing; any other token (stylesheet, preload, icon…) drops the element.
 * Not `next`/`prev`: Firefox prefetches `rel=next`. */
const INERT_LINK_RELS = new Set(['canonical', 'alternate', 'author', 'license', 'shortlink']);

/** `<meta name>` values a browser does not act on; others (`referrer`, `viewport`, `color-scheme`…) change how the
 * document behaves where it is opened. Namespaced names (`og:title`, `twitter:card`) are data only. */
const INERT_META_NAMES = new Set(['description', 'keywords', 'author', 'generator', 'application-name', 'robots']);

/** An attribute name as the HTML parser reads it plainly; anything else (`aria-x"onmouseover`) would serialize into
 * markup that another parser could read differently. */
const PLAIN_ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/;

/** Elements whose whole subtree goes: raw-text or foreign content (scripts, styles, plugins, frames, SVG, MathML,
 * media players). Everything else that is not allowed loses its tag but keeps its text. */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'plaintext',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'canvas',
  'video',
  'audio',
  'portal',
  'fencedframe',
];

const ALLOWED_TAGS = [
  // document
  'html',
  'head',
  'body',
  'title',
  'meta',
  'link',
  // sections and text
  'header',
  'footer',
  'main',
  'nav',
  'section',
  'article',
  'aside',
  'address',
  'hgroup',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'div',
  'span',
  'br',
  'hr',
  'wbr',
  'pre',
  'code',
  'blockquote',
  'q',
  'cite',
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'mark',
  'abbr',
  'dfn',
  'kbd',
  'samp',
  'var',
  'time',
  'data',
  'del',
  'ins',
  'ruby',
  'rt',
  'rp',
  'bdi',
  'bdo',
  'center',
  'font',
  // lists and tables
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'menu',
  'table',
  'caption',
  'colgroup',
  'col',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  // links and images
  'a',
  'img',
  'picture',
  'source',
  'figure',
  'figcaption',
  // disclosure and the readable part of forms (the form itself, inputs and actions go)
  'details',
  'summary',
  'fieldset',
  'legend',
  'label',
  'button',
  'select',
  'optgroup',
  'option',
];

const OPTIONS: IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    '*': ['class', 'id', 'title', 'lang', 'dir', 'role', 'aria-*', 'itemprop', 'itemscope', 'itemtype'],
    html: ['lang'],
    meta: ['charset', 'name', 'property', 'content'],
    link: ['rel', 'href', 'hreflang'],
    a: ['href', 'hreflang'],
    img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading'],
    source: ['srcset', 'sizes', 'media', 'type'],
    blockquote: ['cite'],
    q: ['cite'],
    del: ['cite', 'datetime'],
    ins: ['cite', 'datetime'],
    time: ['datetime'],
    data: ['value'],
    ol: ['start', 'reversed', 'type'],
    li: ['value'],
    td: ['colspan', 'rowspan', 'headers', 'abbr'],
    th: ['colspan', 'rowspan', 'headers', 'abbr', 'scope'],
    col: ['span'],
    colgroup: ['span'],
    details: ['open'],
    button: [{ name: 'type', multiple: false, values: ['button'] }],
    option: ['value', 'selected', 'label'],
    optgroup: ['label'],
  },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: { a: ['http', 'https', 'mailto', 'tel'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  parser: { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
  exclusiveFilter: (frame: IFrame) =>
    (frame.tag === 'link' && !isInertLink(frame.attribs)) || (frame.tag === 'meta' && !isNamedMeta(frame.attribs)),
};

/**
 * Returns `html` reduced to the allowlist above, as a UTF-8 document: every URL attribute absolute (against
 * `baseUrl`, the page's final URL) and http(s) — links may also be mailto:/tel:, fragment-only links stay
 * fragments — and nothing that can run script, load a frame, stylesheet, font or plugin, or navigate by itself.
 */
export function sanitizeOutputHtml(html: string, baseUrl: string): string {
  // Stripped before the allowlist, so the sanitizer has the last word on what the result reads as.
  const body = sanitizeHtml(html.replace(FORBIDDEN_CONTROLS, ''), {
    ...OPTIONS,
    transformTags: { '*': (tagName, attribs) => ({ tagName, attribs: rewriteAttributes(tagName, attribs, baseUrl) }) },
  });
  return `<!DOCTYPE html>\n${body}`;
}

function rewriteAttributes(
  tagName: string,
  attribs: sanitizeHtml.Attributes,
  baseUrl: string,
): sanitizeHtml.Attributes {
  // A button pasted inside a customer's own <form> would submit it; as type=button it does nothing.
  const out: sanitizeHtml.Attributes = tagName === 'button' ? { type: 'button' } : {};
  for (const [name, value] of Object.entries(attribs)) {
    if (!PLAIN_ATTRIBUTE_NAME.test(name)) continue;
    if (URL_ATTRIBUTES.has(name)) {
      const link = tagName === 'a';
      const safe = safeUrl(value, baseUrl, link ? LINK_SCHEMES : WEB_SCHEMES, link && name === 'href');
      if (safe !== null) out[name] = safe;
    } else if (name === 'srcset') {
      const safe = safeSrcset(value, baseUrl);
      if (safe !== null) out[name] = safe;
    } else if (tagName === 'meta' && name === 'charset') {
      // The served text is UTF-8 whatever the page declared; a kept `Shift_JIS` would garble it when saved and opened.
      out[name] = 'utf-8';
    } else if (!(tagName === 'button' && name === 'type')) {
      out[name] = value;
    }
  }
  return out;
}

/** The resolved, serialized URL when its scheme is allowed, else null. With `keepFragment` (links), a fragment-only
 * reference stays a fragment: it can only move within the document, and made absolute it would lead back to the live
 * page. Anywhere else (`img src="#"`) it is made absolute like any other URL. */
export function safeUrl(
  value: string,
  baseUrl: string,
  schemes: ReadonlySet<string> = WEB_SCHEMES,
  keepFragment = false,
): string | null {
  let url: URL;
  try {
    url = new URL(value, baseUrl);
  } catch {
    return null;
  }
  if (!schemes.has(url.protocol)) return null;
  // Same leading strip as the URL parser (C0 controls and space), so `\t#x` is a fragment too.
  // eslint-disable-next-line no-control-regex
  if (keepFragment && /^[\u0000-\u0020]*#/.test(value)) return url.hash || '#';
  return url.href;
}

/** srcset candidates (`url [descriptor]`, comma separated; a URL may itself hold commas), each resolved and checked;
 * null when none survives. */
function safeSrcset(srcset: string, baseUrl: string): string | null {
  const kept: string[] = [];
  for (const { url, descriptor } of splitSrcset(srcset)) {
    const safe = safeUrl(url, baseUrl);
    // Only the descriptors the spec defines (`2x`, `640w`); anything else could smuggle text into the attribute.
    if (safe !== null && /^(?:\d+(?:\.\d+)?[wx])?$/.test(descriptor)) {
      kept.push(descriptor ? `${safe} ${descriptor}` : safe);
    }
  }
  return kept.length > 0 ? kept.join(', ') : null;
}

/** A <link> stays when it names a URL without fetching it: only inert rel tokens, or none at all on a microdata
 * property (`<link itemprop="availability" href="https://schema.org/InStock">`). */
function isInertLink(attribs: Record<string, string>): boolean {
  const rels = (attribs.rel ?? '')
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .filter(Boolean);
  if (attribs.href === undefined) return false;
  return rels.length === 0 ? attribs.itemprop !== undefined : rels.every((rel) => INERT_LINK_RELS.has(rel));
}

/** A <meta> says something only with a charset, a name or a microdata property; one left with a bare `content` (its
 * http-equiv gone) is noise. */
function isNamedMeta(attribs: Record<string, string>): boolean {
  const name = attribs.name?.trim().toLowerCase();
  if (name !== undefined) return INERT_META_NAMES.has(name) || /^[a-z0-9_-]+:[a-z0-9_:.-]+$/.test(name);
  return ['charset', 'property', 'itemprop'].some((attribute) => attribs[attribute] !== undefined);
}
