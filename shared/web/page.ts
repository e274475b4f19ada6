/**
 * The shell of every hosted page (the checkout, the customer portal, the receipt, the dashboard):
 * a per-page nonce for its styles under the page's Content-Security-Policy, no script, never framed,
 * never cached, no referrer (docs/design.md#pages).
 */
import { randomBytes } from 'node:crypto';
import { isHostName } from '../core/host-name.ts';
import type { Lang } from '../core/messages.ts';
import { type Html, html, render, trusted } from './html.ts';

/** A page to answer with: its status, its HTML and its headers. */
export interface Page {
  status: number;
  html: string;
  headers: Record<string, string>;
}

/** The headers every hosted page answers with besides its policy: never framed, sniffed, cached or referred. */
export const hostedPageHeaders: Readonly<Record<string, string>> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/**
 * A form-action source for a URL: its http(s) origin rebuilt from the parsed scheme, host and
 * port, or undefined when it has none a policy may name. A stored URL can never add a directive.
 */
export function formActionSource(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (!isHostName(parsed.hostname)) return undefined;
  // `host` is the checked hostname plus the parser's all-digit port.
  return `${parsed.protocol}//${parsed.host}`;
}

/**
 * The pages' Content-Security-Policy: nothing but the nonce's style and inline images; forms may
 * post to the page itself and to the origins of `formTargets` (the success redirect goes there).
 */
export function contentSecurityPolicy(nonce: string, formTargets: readonly string[] = []): string {
  const sources = formTargets.map(formActionSource).filter((source) => source !== undefined);
  const formAction = ["'self'", ...new Set(sources)].join(' ');
  return `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

/** What a hosted page is made of; `headers` adds to the shell's. */
export interface PageShell {
  status: number;
  /** The document's title (text). */
  title: string;
  /** What `<main>` holds. */
  body: Html;
  lang: Lang;
  /** The page's style sheet, written in the code (never with a value from a request). */
  styles: string;
  policy: (nonce: string) => string;
  /** More of `<head>` (a refresh, an icon, robots). @default nothing */
  head?: Html;
  headers?: Record<string, string>;
}

/**
 * A hosted page: the shell around `body`, with a per-page nonce for its styles under the page's
 * Content-Security-Policy, never framed, never cached, no referrer.
 */
export function hostedPage(shell: PageShell): Page {
  // The style sheet goes in as it is (CSS is no HTML text): it must not be able to end its element.
  if (/<\/style/i.test(shell.styles)) throw new Error('a page style sheet cannot hold </style');
  const nonce = randomBytes(16).toString('base64');
  return {
    status: shell.status,
    html: render(html`<!doctype html>
<html lang="${shell.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">${shell.head}
<title>${shell.title}</title>
<style nonce="${nonce}">${trusted(shell.styles)}</style>
</head>
<body>
<main>
${shell.body}
</main>
</body>
</html>
`),
    headers: {
      'Content-Security-Policy': shell.policy(nonce),
      ...hostedPageHeaders,
      ...shell.headers,
    },
  };
}
