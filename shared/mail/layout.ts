/**
 * How every e-mail is made (docs/design.md#e-mail): an area writes what its e-mail says, in English
 * and Spanish, as content (a subject, a heading, blocks of text, a footer) with `defineMail`; the
 * layout here renders that content twice, as the plain-text part and as the HTML part, with the
 * merchant's name and logo above. The area writes no markup: the HTML part is made of html templates
 * (shared/web/html.ts), which escape every value, so callers and areas pass raw values.
 */
import { isLang, type Lang } from '../core/messages.ts';
import { type Html, html, render } from '../web/html.ts';
import { type Words, words } from './words.ts';

/**
 * The language an account's `language` field names (set with `accounts update`): English when unset
 * or unknown.
 */
export function mailLanguage(value: unknown): Lang {
  return isLang(value) ? value : 'en';
}

/** Whose e-mail it is: the name shown in the header and the logo above it. */
export interface MailMerchant {
  name: string;
  /** Shown only when it is an http(s) URL. @default none */
  logoUrl?: string | null;
}

/** What every e-mail takes besides its own fields. */
export interface MailContext {
  language: Lang;
  merchant: MailMerchant;
}

/** An e-mail ready to send (shared/mail/send.ts adds the recipient). */
export interface RenderedMail {
  subject: string;
  text: string;
  /** The HTML part, rendered: every value in it escaped by the templates it was made of. */
  html: string;
}

/** A piece of an e-mail's body, rendered once as text and once as HTML. */
export type Block =
  | { paragraph: string }
  | { details: ReadonlyArray<readonly [label: string, value: string]> }
  /** A link to one of cobro's own pages: the label as a link in HTML, the address on its own line in text. */
  | { link: { label: string; url: string } };

/** What an e-mail says, in one language: plain text throughout, never markup. */
export interface MailContent {
  subject: string;
  heading: string;
  blocks: Block[];
  footer: string;
}

/** The logo's URL when it is an absolute http(s) URL; anything else (javascript:, data:, junk) is dropped. */
export function safeLogoUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A subject is one header line: no line breaks or other control characters from a merchant's name. */
const oneLine = (value: string) =>
  Array.from(value, (char) => (char < ' ' || char === '\u007f' ? ' ' : char))
    .join('')
    .trim();

const colors = { text: '#1f2328', muted: '#6e7781', page: '#f4f5f7', card: '#ffffff', rule: '#d0d7de' };

function textOf(content: MailContent): string {
  const blocks = content.blocks.map((block) =>
    'paragraph' in block
      ? block.paragraph
      : 'link' in block
        ? `${block.link.label}:\n${block.link.url}`
        : block.details.map(([label, value]) => `${label}: ${value}`).join('\n'),
  );
  // `-- ` on its own line is the signature separator mail clients recognize.
  return `${blocks.join('\n\n')}\n\n-- \n${content.footer}`;
}

function blockHtml(block: Block): Html {
  if ('paragraph' in block) {
    const lines = block.paragraph.split('\n');
    return html`<p style="margin:0 0 16px">${lines.map((line, index) => (index === 0 ? line : html`<br>${line}`))}</p>`;
  }
  if ('link' in block) {
    // Only an http(s) address becomes a link; anything else is shown as text.
    const href = safeLogoUrl(block.link.url);
    const { label } = block.link;
    return href
      ? html`<p style="margin:0 0 16px"><a href="${href}" style="color:#1f5eff;font-weight:bold">${label}</a><br><span style="font-size:12px;color:${colors.muted};word-break:break-all">${href}</span></p>`
      : html`<p style="margin:0 0 16px">${label}: ${block.link.url}</p>`;
  }
  const rows = block.details.map(
    ([label, value]) =>
      html`<tr><td style="padding:4px 16px 4px 0;color:${colors.muted};vertical-align:top">${label}</td><td style="padding:4px 0;font-weight:bold">${value}</td></tr>`,
  );
  return html`<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${rows}</table>`;
}

function htmlOf(content: MailContent, language: Lang, merchant: MailMerchant): string {
  const logo = safeLogoUrl(merchant.logoUrl);
  const header = html`${logo && html`<img src="${logo}" alt="${merchant.name}" height="40" style="display:block;max-height:40px;border:0;margin:0 0 8px">`}<div style="font-size:16px;font-weight:bold">${merchant.name}</div>`;
  // One block a line, as the text part has one a paragraph.
  const blocks = content.blocks.map((block) => html`${blockHtml(block)}\n`);
  return render(html`<!DOCTYPE html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${content.subject}</title></head>
<body style="margin:0;padding:0;background:${colors.page}">
<div style="max-width:560px;margin:0 auto;padding:24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:${colors.text}">
<div style="background:${colors.card};border:1px solid ${colors.rule};border-radius:8px;padding:24px">
<div style="margin:0 0 16px">${header}</div>
<h1 style="font-size:20px;line-height:1.3;margin:0 0 16px">${content.heading}</h1>
${blocks}</div>
<p style="margin:16px 0 0;font-size:12px;color:${colors.muted};text-align:center">${content.footer}</p>
</div>
</body>
</html>`);
}

/**
 * An e-mail: one function per language writing its content from the e-mail's own fields and that
 * language's words; the layout renders it, text and HTML, in the account's language (English for an
 * unknown one).
 */
export function defineMail<Fields>(
  copy: Record<Lang, (input: Fields & MailContext, words: Words) => MailContent>,
): (input: Fields & MailContext) => RenderedMail {
  return (input) => {
    const language = mailLanguage(input.language);
    const written = copy[language](input, words[language]);
    // A details block left with no rows (every row optional and absent) is not shown at all.
    const blocks = written.blocks.filter((block) => !('details' in block) || block.details.length > 0);
    const content = { ...written, blocks };
    const subject = oneLine(content.subject);
    return {
      subject,
      text: textOf(content),
      html: htmlOf({ ...content, subject }, language, input.merchant),
    };
  };
}
