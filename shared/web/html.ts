/**
 * The one way cobro makes HTML (docs/design.md#pages): `html` templates escape every value they
 * are given, and keep as it is only markup that is HTML already, a template's result or what
 * `trusted` vouches for. hono's `html` does the work; these names narrow its types to what a page
 * may hold, so a promise (an async value, which would make the template async) or an object that
 * is not markup is a type error, and `render` returns the page's text at once.
 *
 * `trusted` is the one way to insert a string as markup: test/architecture/html.test.ts allows it
 * only where it names the call and why it is safe there.
 */
import { html as escapingHtml, raw } from 'hono/html';

declare const markup: unique symbol;

/** HTML whose every value is escaped already: what `html` makes. `render` writes it out. */
export interface Html {
  readonly [markup]: true;
}

/**
 * What a template takes: text and numbers (escaped: `&`, `<`, `>`, `"`, `'`), markup (kept as it
 * is), nothing (`null`, `undefined`, `false` write nothing, so `${cond && html`…`}` works) or a
 * list of them (written one after the other). No promise: a page renders at once.
 */
export type Value = string | number | Html | false | null | undefined | readonly Value[];

/** An HTML template: every value is escaped but markup made by `html` (or `trusted`), which is kept. */
export function html(strings: TemplateStringsArray, ...values: readonly Value[]): Html {
  const made = escapingHtml(strings, ...values);
  // Only a promise among the values (through a cast) makes hono's template async.
  if (made instanceof Promise)
    throw new TypeError('an html template takes no promise: a page renders at once');
  return made as unknown as Html;
}

/**
 * Markup that is HTML already, inserted as it is (a style sheet written in the code). The one way
 * to do so: each call is named in test/architecture/html.test.ts's allow-list with why it is safe.
 */
export const trusted = (markup: string): Html => raw(markup) as unknown as Html;

/** `parts` one after the other, `separator` (text, escaped) between each two. */
export const joinHtml = (parts: readonly Html[], separator: string): Html =>
  html`${parts.flatMap((part, index) => (index === 0 ? [part] : [separator, part]))}`;

/** The text of `markup`, to answer with. */
export const render = (markup: Html): string => String(markup);
