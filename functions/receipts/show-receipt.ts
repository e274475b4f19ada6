/**
 * GET /receipts/{token}: the receipt page a receipt e-mail links to (docs/design.md#receipts), and
 * the same receipt as a PDF when the token is followed by `.pdf`; a token that opens no receipt is
 * the 404 page either way. One function serves both forms of the one resource.
 */
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { receiptPage, unknownReceiptPage } from '../../shared/receipts/page.ts';
import { asRequested, receiptPdfUrl } from '../../shared/receipts/receipt.ts';
import { openReceipt, stageReceiptKeys } from '../../shared/receipts/service.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();
const keys = stageReceiptKeys();

export const handler = publicEndpoint(
  async ({ params, lang }) => {
    const { token, pdf } = asRequested(params.token ?? '');
    const view = await openReceipt(deps, keys, token);
    if (!view) {
      const page = unknownReceiptPage(lang);
      return { status: page.status, html: page.html, headers: page.headers };
    }
    if (!pdf) {
      const page = receiptPage(view, receiptPdfUrl(baseUrl, token));
      return { status: page.status, html: page.html, headers: page.headers };
    }
    // The PDF library is loaded on the first PDF asked for, not at a cold start: most opens are the page.
    const { receiptPdf } = await import('../../shared/receipts/pdf.ts');
    return {
      status: 200,
      bytes: await receiptPdf(view),
      headers: {
        'Content-Type': 'application/pdf',
        // The reference is `ch_` and letters and digits only: nothing to quote in the header.
        'Content-Disposition': `inline; filename="receipt-${view.reference}.pdf"`,
        'Cache-Control': 'no-store',
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
        'X-Frame-Options': 'DENY',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'X-Robots-Tag': 'noindex',
      },
    };
  },
  { parseBody: false },
);
