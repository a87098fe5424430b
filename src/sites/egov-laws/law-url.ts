// e-Gov law URLs a caller may give (law_file/xml, law_data, the public viewer) and the one law XML request each means.
import { KumoError } from '../../errors.js';

export const EGOV_HOST = 'laws.e-gov.go.jp';

// The public viewer: `/law/{law_id}` is the version in force today, `/law/{law_id}/{YYYYMMDD}_{amending law id}` one
// fixed version, the same thing as the revision id `{law_id}_{YYYYMMDD}_{amending law id}` of the API.
const LAW_ID = '\\d{3}[A-Z0-9]+';
const VIEWER = new RegExp(`^/law/(${LAW_ID})(?:/(\\d{8}_[A-Z0-9]+))?/?$`);
// law_file/xml and law_data take `{law_id}`, `{law_num}` (Japanese, percent-encoded) or `{law_revision_id}`. Other
// file types (json, html, rtf, docx) are other formats of the same law, not this page type's XML.
const API_PATH = /^\/api\/2\/(?:law_file\/xml|law_data)\/([^/]+)$/;
const ASOF = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The law a page URL names, as `law_file/xml/{id}` would take it: `{ id, asof }`, or null when the URL is not one of
 * these pages. Only `asof=YYYY-MM-DD` is kept: law_data's other parameters (`elm` for one part, `law_full_text_format`,
 * `response_format`) ask for another answer than the whole law, and a parameter we do not know could too, so such a
 * URL is not this page type. A decoded id holding a slash, backslash, dot, percent sign or control character is
 * refused: it could only be a way to reach another path.
 */
export function egovLawRef(url: URL): { id: string; asof: string | null } | null {
  if (url.hostname !== EGOV_HOST) return null;
  let asof: string | null = null;
  for (const [name, value] of url.searchParams) {
    if (name !== 'asof' || asof !== null || !ASOF.test(value)) return null;
    asof = value;
  }
  const viewer = VIEWER.exec(url.pathname);
  if (viewer) {
    // The viewer names its version in the path (none: today's); an asof beside it is not a viewer URL we know.
    if (asof !== null) return null;
    return { id: viewer[2] ? `${viewer[1]}_${viewer[2]}` : viewer[1]!, asof: null };
  }
  const api = API_PATH.exec(url.pathname);
  if (!api) return null;
  let id: string;
  try {
    id = decodeURIComponent(api[1]!);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (id === '' || /[/\\.%\u0000-\u001f\u007f]/.test(id)) return null;
  return { id, asof };
}

/** The law XML request that stands for a page URL: `https://laws.e-gov.go.jp/api/2/law_file/xml/{id}[?asof=…]`. */
export function egovLawXmlUrl(pageUrl: URL): URL {
  const ref = egovLawRef(pageUrl);
  if (!ref) {
    throw new KumoError(
      'page_not_supported',
      'egov_laws/document: the URL is not law_file/xml, law_data or /law/<law_id> with at most asof=YYYY-MM-DD',
    );
  }
  const url = new URL(`https://${EGOV_HOST}/api/2/law_file/xml/${encodeURIComponent(ref.id)}`);
  if (ref.asof !== null) url.searchParams.set('asof', ref.asof);
  return url;
}
