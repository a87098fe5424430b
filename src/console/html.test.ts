// The console's templating escapes what it is given and passes through only what it built itself.
import { describe, expect, it } from 'vitest';
import { escapeHtml, markup, raw } from './html.js';

describe('markup', () => {
  it('escapes interpolated text for content and attributes', () => {
    const evil = `"><script>alert('x')</script>&`;
    expect(markup`<a title="${evil}">${evil}</a>`.value).toBe(
      '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>',
    );
  });

  it('nests templates and arrays without escaping them twice, and drops null, undefined and false', () => {
    const items = ['a<b', 'c'].map((t) => markup`<li>${t}</li>`);
    expect(markup`<ul>${items}${null}${undefined}${false}</ul>`.value).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
    expect(markup`${raw('<br>')}${0}`.value).toBe('<br>0');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});
