// Splits an HTML `srcset` into its candidates the way the HTML Standard does (a URL may itself hold commas).

export interface SrcsetCandidate {
  url: string;
  /** `2x`, `640w`, or '' when none was given; trimmed but otherwise as written. */
  descriptor: string;
}

const isSpace = (c: string | undefined) => c !== undefined && /[\t\n\f\r ]/.test(c);

export function splitSrcset(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && (isSpace(srcset[i]) || srcset[i] === ',')) i++;
    if (i >= srcset.length) break;
    let j = i;
    while (j < srcset.length && !isSpace(srcset[j])) j++;
    let url = srcset.slice(i, j);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      // The descriptor runs to the next comma outside parentheses.
      let k = j;
      let depth = 0;
      while (k < srcset.length) {
        const c = srcset[k];
        if (c === '(') depth++;
        else if (c === ')') depth = Math.max(0, depth - 1);
        else if (c === ',' && depth === 0) break;
        k++;
      }
      descriptor = srcset.slice(j, k).trim();
      j = k + 1;
    }
    candidates.push({ url, descriptor });
    i = j;
  }
  return candidates;
}
