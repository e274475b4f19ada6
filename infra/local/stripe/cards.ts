/**
 * Stripe's own test card numbers (stripe.com/docs/testing) and what each does, here as in Stripe's
 * test mode. The stand-in keeps a card's behaviour with its PaymentMethod, never the number.
 */

/**
 * - `succeed`: every payment succeeds.
 * - `decline_*`: the issuer declines every payment.
 * - `auth_required_off_session`: succeeds with the payer present (as if 3-D Secure passed), every
 *   later off-session payment fails `authentication_required` (4000002760003184).
 * - `decline_after_attach`: saving it succeeds, every payment is declined (4000000000000341).
 * - `refund_fails`: payments succeed, every refund of them fails (4000000000005126).
 * - `incorrect_number`: no such card.
 */
export type CardBehaviour =
  | 'succeed'
  | 'decline_generic'
  | 'decline_insufficient_funds'
  | 'decline_expired_card'
  | 'decline_incorrect_cvc'
  | 'auth_required_off_session'
  | 'decline_after_attach'
  | 'refund_fails'
  | 'incorrect_number';

export interface TestCard {
  brand: 'visa' | 'mastercard';
  behaviour: CardBehaviour;
}

const testCards = new Map<string, TestCard>([
  ['4242424242424242', { brand: 'visa', behaviour: 'succeed' }],
  ['5555555555554444', { brand: 'mastercard', behaviour: 'succeed' }],
  ['4000000000000002', { brand: 'visa', behaviour: 'decline_generic' }],
  ['4000000000009995', { brand: 'visa', behaviour: 'decline_insufficient_funds' }],
  ['4000000000000069', { brand: 'visa', behaviour: 'decline_expired_card' }],
  ['4000000000000127', { brand: 'visa', behaviour: 'decline_incorrect_cvc' }],
  ['4000002760003184', { brand: 'visa', behaviour: 'auth_required_off_session' }],
  ['4000000000000341', { brand: 'visa', behaviour: 'decline_after_attach' }],
  ['4000000000005126', { brand: 'visa', behaviour: 'refund_fails' }],
]);

/** The test card a number (spaces and dashes allowed) names; any other number is incorrect. */
export function testCard(number: string): TestCard {
  const digits = number.replace(/[\s-]/g, '');
  return (
    testCards.get(digits) ?? {
      brand: digits.startsWith('5') ? 'mastercard' : 'visa',
      behaviour: 'incorrect_number',
    }
  );
}

/** A refusal as Stripe reports it: `code`, `decline_code` and the message it shows a payer. */
export interface Decline {
  code: string;
  decline_code?: string;
  message: string;
  /** Whether the issuer saw it, so Stripe records a failed Charge. */
  reachedIssuer: boolean;
}

export const declines = {
  generic: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
    reachedIssuer: true,
  },
  insufficientFunds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
    reachedIssuer: true,
  },
  expiredCard: {
    code: 'expired_card',
    decline_code: 'expired_card',
    message: 'Your card has expired.',
    reachedIssuer: true,
  },
  incorrectCvc: {
    code: 'incorrect_cvc',
    decline_code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
    reachedIssuer: true,
  },
  incorrectNumber: {
    code: 'incorrect_number',
    message: 'Your card number is incorrect.',
    reachedIssuer: false,
  },
  processingError: {
    code: 'card_declined',
    decline_code: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
    reachedIssuer: true,
  },
  authenticationRequired: {
    code: 'authentication_required',
    decline_code: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
    reachedIssuer: false,
  },
} as const satisfies Record<string, Decline>;

/**
 * Where a card is used: on the Checkout page to pay or to save it, or by the API (off-session, the
 * payer away, or on-session).
 */
export type CardUse = 'checkout_payment' | 'checkout_setup' | 'off_session' | 'on_session';

/** What happens when a card with `behaviour` is used so: it goes through, is declined, or needs 3-D Secure. */
export function cardOutcome(
  behaviour: CardBehaviour,
  use: CardUse,
): 'approved' | 'requires_action' | Decline {
  switch (behaviour) {
    case 'succeed':
    case 'refund_fails':
      return 'approved';
    case 'decline_generic':
      return declines.generic;
    case 'decline_insufficient_funds':
      return declines.insufficientFunds;
    case 'decline_expired_card':
      return declines.expiredCard;
    case 'decline_incorrect_cvc':
      return declines.incorrectCvc;
    case 'incorrect_number':
      return declines.incorrectNumber;
    case 'auth_required_off_session':
      if (use === 'off_session') return declines.authenticationRequired;
      // The stand-in has no 3-D Secure page: on its Checkout page the challenge counts as passed.
      return use === 'on_session' ? 'requires_action' : 'approved';
    case 'decline_after_attach':
      return use === 'checkout_setup' ? 'approved' : declines.generic;
  }
}
