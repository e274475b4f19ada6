/**
 * The hosted receipt page (docs/design.md#receipts): plain HTML with no script, made of html
 * templates (shared/web/html.ts, which escape every value), styled by a per-page nonce under a
 * strict Content-Security-Policy, never framed, never cached and kept out of search engines, since
 * its address is all that guards it.
 */
import type { Lang } from '../core/messages.ts';
import { type Html, html, joinHtml } from '../web/html.ts';
import { hostedPage, type Page } from '../web/page.ts';
import { type ReceiptView, receiptAmount, receiptRows, receiptTexts } from './receipt.ts';

export type ReceiptPage = Page;

const styles = `
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem}
.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.1rem;margin:0 0 .25rem}.amount{font-size:2rem;font-weight:700;margin:.25rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:1rem 0}dt{color:#555}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.logo{display:block;max-height:40px;margin:0 0 .5rem}
.test{background:#fff4cc;color:#5c4500;border-radius:.4rem;padding:.4rem .6rem;font-size:.9rem;margin-bottom:.75rem}
a.pdf{display:block;text-align:center;margin-top:1.25rem;padding:.8rem;font-weight:700;border-radius:.5rem;background:#1f5eff;color:#fff;text-decoration:none}
small{color:#555}`;

/** Images from https (the merchant's logo) and inline ones only; no script, no form, no frame. */
const policy = (nonce: string) =>
  `default-src 'none'; style-src 'nonce-${nonce}'; img-src https: data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

/** The hosted pages' shell, with the receipt's styles and policy, kept out of search engines. */
const page = (status: number, language: Lang, title: string, body: Html): ReceiptPage =>
  hostedPage({
    status,
    title,
    body,
    lang: language,
    styles,
    policy,
    head: html`\n<meta name="robots" content="noindex">`,
    headers: { 'X-Robots-Tag': 'noindex' },
  });

/** The receipt, with the link to its PDF (`pdfUrl`, built from the configured base URL). */
export function receiptPage(view: ReceiptView, pdfUrl: string): ReceiptPage {
  const t = receiptTexts[view.language];
  // Only an https logo is shown: the policy loads images from https alone.
  const logo = view.logoUrl?.startsWith('https:')
    ? html`<img class="logo" src="${view.logoUrl}" alt="">`
    : undefined;
  const rows = receiptRows(view).map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`);
  return page(
    200,
    view.language,
    `${t.title} · ${view.merchant}`,
    html`<div class="card">
${view.test && html`<p class="test" role="note">${t.test}</p>`}
${logo}<h1>${view.merchant}</h1>
<p class="amount">${receiptAmount(view)}</p>
<h2>${t.heading}</h2>
<p>${t.thanks(view.merchant)}</p>
<dl>
${joinHtml(rows, '\n')}
</dl>
<a class="pdf" href="${pdfUrl}" download>${t.pdf}</a>
<p><small>${t.keep}</small></p>
</div>`,
  );
}

/** An unknown receipt link, in the reader's language (no account is known). */
export function unknownReceiptPage(language: Lang): ReceiptPage {
  const t = receiptTexts[language];
  return page(
    404,
    language,
    t.notFoundTitle,
    html`<div class="card"><h1>${t.notFoundTitle}</h1><p>${t.notFoundMessage}</p></div>`,
  );
}
