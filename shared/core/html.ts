/** HTML that cobro writes itself (the hosted checkout's pages, e-mails' HTML parts). */

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes a value for HTML text and double- or single-quoted attributes. */
export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => escapes[char] as string);
