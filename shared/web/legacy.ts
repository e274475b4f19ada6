/**
 * The hosted page shell for pages still written as strings whose values are escaped by hand (the
 * dashboard's, until it is made of `html` templates, issue 35). It goes when its last importer
 * does: test/architecture/html.test.ts lists who may still import it.
 */
import { trusted } from './html.ts';
import { hostedPage, type Page, type PageShell } from './page.ts';

/** `hostedPage` for a body and head that are HTML strings whose values are escaped already. */
export function legacyHostedPage(
  shell: Omit<PageShell, 'body' | 'head'> & { body: string; head?: string },
): Page {
  const { body, head, ...rest } = shell;
  return hostedPage({
    ...rest,
    body: trusted(body),
    ...(head === undefined ? {} : { head: trusted(head) }),
  });
}
