/**
 * A checkout paid on the acquirer's own page (Stripe's, where a mode connected to it takes cards):
 * the submit opens that page under the attempt's key and the session waits for the payer there, as
 * for a 3-D Secure challenge; what the page's events tell is recorded as a submit's outcome is
 * (./record.ts). Card data never reaches cobro.
 */
import {
  AcquirerUnavailable,
  CardEntryRefused,
  type DeclineReason,
  NotConnected,
  type RedirectRequest,
} from '../acquirer/acquirer.ts';
import { type Attempt, newAttempt, newAttemptId } from '../attempts/attempt.ts';
import { challengeWrite } from '../attempts/repository.ts';
import { logger } from '../core/log.ts';
import { named, transactWrite } from '../db/transact.ts';
import {
  type CheckoutDeps,
  type CheckoutOutcome,
  commit,
  leaveToRecovery,
  releaseSession,
} from './record.ts';
import { getSession, SessionUnavailable, sessionChallengeWrite } from './repository.ts';
import { claimFor } from './service.ts';
import type { CheckoutSession } from './session.ts';

/**
 * How long a payer has on the acquirer's own page (Stripe's Checkout Sessions last 30 minutes at
 * least): after it the page takes no payment, so recovery's lookup then is final.
 */
export const acquirerPageMs = 31 * 60_000;

/** Where the payer comes back from the acquirer's page: the return, or the checkout page itself. */
export interface AcquirerPageUrls {
  /** The session's return page (`/checkout/{token}/return`): cobro reads the outcome back there. */
  returnUrl: string;
  /** The checkout page, for a payer who leaves the acquirer's page without paying. */
  cancelUrl: string;
}

/**
 * A submit of a page whose mode takes cards on the acquirer's own page (Stripe): the attempt is
 * stored beside the claim, as for a card, then the acquirer opens its page under the attempt's key
 * (nothing is charged yet); the session then waits for the payer there as for a 3-D Secure
 * challenge, until its window (acquirerPageMs) passes and recovery closes it. Card data never
 * reaches cobro: the payer is sent on (`redirect`). A session already waiting on such a page sends
 * the payer back to it.
 */
export async function payOnAcquirerPage(
  deps: CheckoutDeps,
  token: string,
  input: { csrf: string; urls: AcquirerPageUrls; lang: 'en' | 'es' },
): Promise<CheckoutOutcome> {
  const now = deps.clock();
  const attempt = newAttempt({
    id: newAttemptId(),
    kind: 'checkout',
    subject: { token },
    owner: null,
    connector: 'stripe',
    now,
  });
  let claimed: CheckoutSession;
  try {
    claimed = await claimFor(deps, token, attempt, input.csrf, now);
  } catch (error) {
    // Waiting on the acquirer's page already: the payer goes back to it.
    const held = error instanceof SessionUnavailable ? error.session : undefined;
    if (held?.status === 'open' && held.challenge?.url)
      return { kind: 'redirect', url: held.challenge.url, session: held };
    throw error;
  }
  if (!deps.acquirer.beginRedirect) throw new Error('this acquirer has no page of its own');
  const checksOnly = deps.owners[claimed.kind].checksOnly?.(claimed) ?? false;
  const request: RedirectRequest = {
    amountMinor: claimed.amount,
    currency: claimed.currency,
    description: claimed.description,
    statementDescriptor: claimed.statement_descriptor,
    purpose: checksOnly ? 'save_card' : 'charge',
    // Subscriptions, recurring links and a subscriber's new card are charged again without the payer.
    saveCard: claimed.kind === 'subscription' || claimed.kind === 'card' || Boolean(claimed.recurrence),
    idempotencyKey: attempt.acquirer_key,
    attemptId: attempt.id,
    customerEmail: claimed.customer_email,
    returnUrl: input.urls.returnUrl,
    cancelUrl: input.urls.cancelUrl,
    expiresAt: new Date(now.getTime() + acquirerPageMs),
    lang: input.lang,
    test: claimed.mode === 'test',
    merchant: claimed.developer_id,
  };
  let page: { challengeId: string; url: string; account?: string };
  try {
    page = await deps.acquirer.beginRedirect(request);
  } catch (error) {
    if (error instanceof NotConnected || error instanceof CardEntryRefused) {
      await releaseSession(deps, token, attempt, 'not_asked', deps.clock());
      throw error;
    }
    if (!(error instanceof AcquirerUnavailable))
      logger.error("the acquirer's page could not be opened; recovery will ask by key", {
        attempt_id: attempt.id,
        error,
      });
    // No answer: a page may exist at the acquirer, but nobody has its address; recovery closes it.
    return leaveToRecovery(deps, claimed, attempt);
  }
  const at = deps.clock();
  const challenge = {
    id: page.challengeId,
    url: page.url,
    ...(page.account ? { account: page.account } : {}),
    email: claimed.customer_email ?? '',
    holder_name: '',
  };
  await commit(deps, token, [
    ...named('session', sessionChallengeWrite(deps.table, claimed, attempt.id, challenge, at)),
    ...named(
      'attempt',
      // Recovery takes it once the page can take no payment any more (a minute after it closes).
      challengeWrite(deps.table, attempt, at, new Date(now.getTime() + acquirerPageMs + 60_000)),
    ),
  ]);
  return {
    kind: 'redirect',
    url: page.url,
    session: { ...claimed, status: 'open', challenge, charging_until: null },
  };
}

/**
 * A card declined on the acquirer's own page (Stripe's, as its event reports it): told as a
 * declined submit is (`payment.failed` for a payment, the dashboard's decline count), once per try
 * (the event is taken once), while the session keeps waiting for the payer, who may try another card
 * there. The attempt stays open, so an approval after it is still recorded.
 */
export async function recordAcquirerPageDecline(
  deps: CheckoutDeps,
  attempt: Attempt<'checkout'>,
  reason: DeclineReason,
): Promise<string> {
  const session = await getSession(deps, attempt.subject.token);
  if (!session || session.attempt_id !== attempt.id || !session.challenge?.url)
    return 'no checkout waits on that page';
  const items = await deps.owners[session.kind].declined(session, reason, deps.clock());
  if (items.length) await transactWrite(deps, items);
  return `decline recorded (${reason})`;
}
