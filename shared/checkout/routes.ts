import * as v from 'valibot';
import { sizeText } from '../core/limits.ts';
import { queryParameter } from '../core/query.ts';
import type { Answer, ErrorAnswer, Route } from '../http/route.ts';
import { ChallengeFormDocument, checkoutFormBytes, PayFormDocument } from './schemas.ts';

const html = ['text/html'] as const;

/** The hosted checkout's error pages: HTML with the status that says why. */
const checkoutPageErrors = {
  404: { description: 'No checkout under this token', body: 'html' },
  410: { description: 'The checkout expired', body: 'html' },
  423: { description: 'Too many declines: the checkout is locked', body: 'html' },
  500: { description: 'Unexpected failure, with a request id', body: 'MessageEnvelope' },
} as const satisfies Record<number, ErrorAnswer>;

const checkoutPostErrors = {
  ...checkoutPageErrors,
  400: {
    description:
      'The form has problems (a field over its length limit, a card number whose check digit is wrong, an expiry already past): the form again, saying which',
    body: 'html',
  },
  402: { description: 'Declined: the form again, saying why', body: 'html' },
  403: { description: 'The form expired (CSRF token): the form again', body: 'html' },
  409: {
    description:
      'Already paid; a payment in progress or being confirmed; or paid while what it paid for went away (refunded in full)',
    body: 'html',
  },
  413: {
    description: `A form body over ${sizeText(checkoutFormBytes)} (no form of these pages comes near it)`,
    body: 'MessageEnvelope',
  },
} as const satisfies Record<number, ErrorAnswer>;

const paidRedirect: Answer = {
  description: "Paid: to the merchant's return_url with id_payment",
  headers: { Location: "The merchant's return_url with `id_payment` added." },
};

/**
 * What the places a checkout's link is shared through add to it (campaign tags, click ids): the
 * page documents them so that a link posted where they are added still opens, and reads none.
 */
const sharedLinkQuery = v.object(
  Object.fromEntries(
    ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'fbclid', 'gclid'].map((name) => [
      name,
      queryParameter(
        'string',
        'Added by where the link was shared (a campaign tag or a click id); the page reads none of them.',
        v.string(),
      ),
    ]),
  ),
);

/** Where Stripe sends the payer back: the Checkout Session's id, which the page never trusts (it reads its own). */
const stripeReturnQuery = v.object({
  session_id: queryParameter(
    'string',
    "Added by Stripe's page: the Checkout Session's id. Ignored: the outcome is read back from the acquirer by the attempt's own session.",
    v.string(),
  ),
});

export const checkoutRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/checkout/{token}',
    handler: 'functions/checkout/show-checkout.ts',
    operationId: 'showCheckout',
    auth: false,
    // The fingerprint secret opens the sealed portal token of a saved card's page (its link back).
    access: { table: { actions: ['GetItem', 'Query'] }, fingerprintSecret: true },
    summary: 'The hosted checkout page (HTML)',
    description:
      'Renders the payment form of a checkout session made by a payment, a subscription or a payment link: plain HTML that works without JavaScript, sent with a strict Content-Security-Policy and never cached. A paid, locked, expired (after 24 hours) or unknown session shows that instead; a card saved from the customer portal shows the new card (brand and last 4), what became of an overdue payment, and a link back to the portal page while its link is valid.',
    query: sharedLinkQuery,
    answers: { 200: { description: 'The pay form, or the page saying the payment is made', media: html } },
    errors: checkoutPageErrors,
  },
  {
    method: 'POST',
    path: '/checkout/{token}',
    handler: 'functions/checkout/submit-checkout.ts',
    operationId: 'submitCheckout',
    auth: false,
    // The webhook key opens the Stripe key of a mode connected to Stripe (its page is Stripe's).
    access: {
      table: {
        actions: [
          'GetItem',
          'BatchGetItem',
          'Query',
          'PutItem',
          'UpdateItem',
          'DeleteItem',
          // An overdue period paid on a card from the portal is a renewal: its attempt is stored
          // with a check of the subscription's version.
          'ConditionCheckItem',
        ],
        indexes: ['gsi1'],
      },
      webhookKey: true,
    },
    summary:
      'Pay: the checkout form posts here (form-encoded); 303 to return_url on success (a payment link: 200, its receipt)',
    description:
      'Checks the card fields and the CSRF token, stores the attempt and claims the session for it, then asks the acquirer with 3-D Secure, so a double submit charges once. A decline shows the form again with the reason (402) and five declines lock the session; a card that needs a challenge gets the challenge page.',
    body: PayFormDocument,
    bodyTypes: ['application/x-www-form-urlencoded'],
    answers: {
      200: {
        description: 'The card needs 3-D Secure: the challenge page; or a paid payment link: its receipt',
        media: html,
      },
      202: {
        description:
          'The acquirer gave no answer: the payment could not be confirmed yet (never pay again); the page reloads until recovery records the outcome',
        media: html,
      },
      303: paidRedirect,
    },
    errors: checkoutPostErrors,
  },
  {
    method: 'GET',
    path: '/checkout/{token}/return',
    handler: 'functions/checkout/return-checkout.ts',
    operationId: 'returnToCheckout',
    auth: false,
    // It may record the payment as a submit does, and opens the connector's key to read it back.
    access: {
      table: {
        actions: [
          'GetItem',
          'BatchGetItem',
          'Query',
          'PutItem',
          'UpdateItem',
          'DeleteItem',
          // An overdue period paid on a card from the portal is a renewal: its attempt is stored
          // with a check of the subscription's version.
          'ConditionCheckItem',
        ],
        indexes: ['gsi1'],
      },
      webhookKey: true,
    },
    summary: "Back from the acquirer's own payment page (HTML): the outcome read back from the acquirer",
    description:
      "Where Stripe's Checkout page sends the payer back (a mode connected to Stripe). cobro reads the Checkout Session and its PaymentIntent back from Stripe (never trusting the redirect or its query): paid, it answers as an approved submit does (303 to the merchant's return_url, or a payment link's receipt); still open, the page to continue on Stripe's page; expired unpaid, the pay form again.",
    query: stripeReturnQuery,
    answers: {
      200: {
        description: "The page: continue on the acquirer's page, the pay form, or a receipt",
        media: html,
      },
      303: paidRedirect,
    },
    errors: checkoutPageErrors,
  },
  {
    method: 'GET',
    path: '/checkout/{token}/challenge',
    handler: 'functions/checkout/show-checkout.ts',
    operationId: 'showCheckoutChallenge',
    auth: false,
    access: { table: { actions: ['GetItem', 'Query'] }, fingerprintSecret: true },
    summary:
      'The checkout page again (HTML): the pending 3-D Secure challenge, or what GET /checkout/{token} shows',
    description:
      'Shows the pending 3-D Secure challenge of the session, where the cardholder completes or fails authentication; with no challenge pending it shows what GET /checkout/{token} shows.',
    answers: { 200: { description: 'The challenge, the pay form, or the paid page', media: html } },
    errors: checkoutPageErrors,
  },
  {
    method: 'POST',
    path: '/checkout/{token}/challenge',
    handler: 'functions/checkout/complete-challenge.ts',
    operationId: 'completeChallenge',
    auth: false,
    access: {
      table: {
        actions: [
          'GetItem',
          'BatchGetItem',
          'Query',
          'PutItem',
          'UpdateItem',
          'DeleteItem',
          // An overdue period paid on a card from the portal is a renewal: its attempt is stored
          // with a check of the subscription's version.
          'ConditionCheckItem',
        ],
        indexes: ['gsi1'],
      },
    },
    summary: 'The answer to the 3-D Secure challenge (form-encoded)',
    description:
      "Records the cardholder's answer to the 3-D Secure challenge: a completed one charges and ends like an approved submit, a failed one shows the form again as a decline (402) that counts towards the lock.",
    body: ChallengeFormDocument,
    bodyTypes: ['application/x-www-form-urlencoded'],
    answers: {
      200: { description: 'Another challenge; or a paid payment link: its receipt', media: html },
      202: {
        description: 'The acquirer gave no answer: the payment could not be confirmed yet',
        media: html,
      },
      303: paidRedirect,
    },
    errors: {
      ...checkoutPostErrors,
      409: {
        description: `${checkoutPostErrors[409].description}; or no 3-D Secure challenge is pending`,
        body: 'html',
      },
    },
  },
];
