/**
 * The stand-in's page template: `html\`…\`` escapes every interpolated value; markup made by `html`
 * itself is the one thing inserted as is. Lists are joined, null/undefined/false render nothing.
 */
import { escapeHtml } from '../../../shared/core/html.ts';

/** Markup made by `html`, trusted to be inserted as is. */
export class Markup {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  toString(): string {
    return this.text;
  }
}

function render(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let text = strings[0] ?? '';
  for (const [index, value] of values.entries()) text += render(value) + (strings[index + 1] ?? '');
  return new Markup(text);
}
