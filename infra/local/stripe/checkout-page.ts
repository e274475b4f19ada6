/**
 * The stand-in's Checkout page, what a payer's browser sees at a session's `url`: the merchant, what
 * is paid (or "Save your card"), the card form, and a banner saying no real money moves. A closed
 * session's page says so and has no form.
 */
import type Stripe from 'stripe';
import { type Html, html, render } from '../../../shared/web/html.ts';
import { majorUnits } from './currencies.ts';
import type { LineItem } from './store.ts';

export interface PageInput {
  session: Stripe.Checkout.Session;
  lineItems: readonly LineItem[];
  merchant: string;
  /** The e-mail the session already knows: shown read-only. */
  knownEmail: string | null;
  /** What the payer typed last time, kept after a refusal (never the card). */
  typed?: { email?: string; name?: string };
  /** A refusal to show above the form. */
  error?: string;
}

// A constant of this file: a template without values is markup as written.
const style = html`
body{font-family:system-ui,sans-serif;margin:0;background:#f6f8fa;color:#1a1f36}
main{max-width:28rem;margin:2rem auto;background:#fff;padding:1.5rem;border-radius:.5rem;box-shadow:0 1px 3px #0002}
.banner{background:#fff3cd;color:#5c4400;padding:.5rem 1rem;text-align:center;font-weight:600}
label{display:block;margin-top:.75rem;font-size:.9rem}
input{display:block;width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;margin-top:.25rem}
input[readonly]{background:#eef0f3}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{margin-top:1.25rem;width:100%;padding:.75rem;font-size:1rem;background:#635bff;color:#fff;border:0;border-radius:.3rem}
.error{color:#9b1c1c;background:#fde8e8;padding:.5rem;border-radius:.3rem}
.total{font-size:1.5rem;font-weight:700}
`;

/** `1050`, `usd` → "USD 10.50". */
const money = (amount: number, currency: string): string =>
  `${currency.toUpperCase()} ${majorUnits(amount, currency)}`;

function layout(title: string, body: Html): string {
  return render(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${style}</style>
</head>
<body>
<p class="banner" role="note">Stripe stand-in: test double, no real money moves</p>
<main>
${body}
</main>
</body>
</html>
`);
}

function summary(input: PageInput): Html {
  const { session } = input;
  if (session.mode === 'setup') return html`<h1>Save your card</h1><p>with ${input.merchant}</p>`;
  return html`<h1>Pay ${input.merchant}</h1>
<p class="total">${money(session.amount_total ?? 0, session.currency ?? 'usd')}</p>
<ul>${input.lineItems.map(
    (item) =>
      html`<li>${item.name} × ${item.quantity}: ${money(item.unit_amount * item.quantity, item.currency)}</li>`,
  )}</ul>`;
}

/** The page of an open session: its summary and the card form. */
export function checkoutPage(input: PageInput): string {
  const { session } = input;
  const email = input.knownEmail ?? input.typed?.email ?? '';
  const body = html`${summary(input)}
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
<form method="post" action="/pay/${session.id}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${email}"${input.knownEmail ? html` readonly` : ''}>
<label for="name">Cardholder name</label>
<input id="name" name="name" autocomplete="cc-name" required value="${input.typed?.name ?? ''}">
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required placeholder="1234 1234 1234 1234">
<div class="row">
<div><label for="expiry">Expiry (MM / YY)</label>
<input id="expiry" name="expiry" autocomplete="cc-exp" required placeholder="MM / YY"></div>
<div><label for="cvc">CVC</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required placeholder="CVC"></div>
</div>
<button type="submit">${session.mode === 'setup' ? 'Save card' : 'Pay'}</button>
</form>
${session.cancel_url ? html`<p><a href="${session.cancel_url}">Back</a></p>` : ''}`;
  return layout(session.mode === 'setup' ? 'Save your card' : 'Checkout', body);
}

/** The page of a session that is complete or expired (or of a payment with no success_url). */
export function closedPage(input: PageInput): string {
  const { session } = input;
  const message =
    session.status === 'expired'
      ? 'This checkout session has expired. Nothing was charged.'
      : session.mode === 'setup'
        ? 'Your card is saved. You can close this page.'
        : 'This payment is complete. You can close this page.';
  const body = html`${summary(input)}
<p role="status">${message}</p>
${session.status === 'expired' && session.cancel_url ? html`<p><a href="${session.cancel_url}">Back</a></p>` : ''}`;
  return layout(session.status === 'expired' ? 'Checkout expired' : 'Checkout complete', body);
}

/** The page of an id that names no session. */
export function missingPage(): string {
  return layout('Checkout not found', html`<h1>Checkout not found</h1><p>No such checkout session.</p>`);
}

/** The page a `down` or `error500` fault answers the payer. */
export function unavailablePage(): string {
  return layout(
    'Checkout unavailable',
    html`<h1>Payment unavailable</h1><p role="alert">Stripe is unavailable right now. Nothing was charged; try again.</p>`,
  );
}
