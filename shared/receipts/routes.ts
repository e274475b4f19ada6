/**
 * The receipt's public route: its page, and the same receipt as a PDF, opened by the token a
 * receipt e-mail carries. The PDF is the page's address with `.pdf` after the token, so both forms
 * of the one resource are one route and one function.
 */
import type { Route } from '../http/route.ts';

export const receiptsRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/receipts/{token}',
    handler: 'functions/receipts/show-receipt.ts',
    operationId: 'showReceipt',
    auth: false,
    access: { table: { actions: ['GetItem'] }, fingerprintSecret: true },
    summary:
      'The receipt of one approved charge: a page (HTML, no login), or a PDF when the token ends in .pdf',
    description:
      "Renders the receipt the payer's e-mail links to: merchant, amount and currency, description, date, card brand and last 4 digits and the charge's id, in the account's language. `{token}` alone answers the page (plain HTML under a strict Content-Security-Policy, never framed or cached, linking to the PDF); `{token}.pdf` answers the same receipt as a one-page PDF. An unknown token is a 404 page.",
    answers: {
      200: {
        description: 'The receipt page, or (`{token}.pdf`) the receipt as a PDF',
        media: ['text/html', 'application/pdf'],
        headers: {
          'Content-Disposition': {
            description: 'For the PDF: inline, with the file name `receipt-<charge id>.pdf`.',
            sometimes: true,
          },
        },
      },
    },
    errors: {
      404: { description: 'No receipt under this token (the page says so, in HTML)', body: 'html' },
      500: { description: 'Unexpected failure, with a request id', body: 'MessageEnvelope' },
    },
  },
];
