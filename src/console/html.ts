// The console's HTML templating: a tagged template that escapes every interpolated value unless it is already HTML.

/** Markup that is already safe to embed (built by `markup` or `raw`); anything else is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and for quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c]!);
}

type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly Value[]).map(render).join('');
  return escapeHtml(String(value));
}

/** `markup\`<p>${text}</p>\`` escapes `text`; nested `markup` results, arrays of them, and `raw` pass through. */
export function markup(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Trusted markup written by this module's own code (never user or stored data). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

export interface Column {
  label: string;
  /** A numeric column: right-aligned. */
  num?: boolean;
}

/**
 * A table in a region of its own that scrolls sideways on a narrow screen (not the page), reachable by keyboard and
 * named for screen readers by `label`.
 */
export function scrollTable(label: string, className: string, columns: readonly Column[], rows: Value): SafeHtml {
  return markup`<div class="scroll" tabindex="0" role="region" aria-label="${label}">
    <table class="${className}">
      <thead>
        <tr>
          ${columns.map((column) => markup`<th scope="col"${column.num ? raw(' class="num"') : ''}>${column.label}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
