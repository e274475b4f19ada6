/**
 * The owner of a payment link's page (checkout's SessionOwner): what a payment or a decline writes
 * beside the session and the charge, in the same transaction. A payment makes the link `paid`
 * (`paid_period` when recurring), logs the attempt and stores `payment_link.paid`; a decline
 * logs the attempt. A link deleted while its page was being paid is `gone`: the charge is recorded,
 * logged nowhere (the link's log went with it), and refunded in full at once (docs/design.md#late-approvals).
 */
import { cardDeclined } from '../charges/events.ts';
import type { SessionOwner } from '../checkout/owner.ts';
import { type CheckoutSession, pageUrl } from '../checkout/session.ts';
import { scopeOf } from '../core/account.ts';
import { prefixedId } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { eventWrite, internalEventWrite } from '../events/event.ts';
import { paymentLinkPaid } from './events.ts';
import { type LinkLog, linkListItem, paidLink } from './link.ts';
import { getLink, linkWrites, logWrite } from './repository.ts';

function attempt(session: CheckoutSession, fields: Partial<LinkLog>, now: Date): LinkLog {
  return {
    id: prefixedId('plog'),
    link_id: session.link_id ?? '',
    status: 'failed',
    amount: session.amount,
    currency: session.currency,
    charge_id: null,
    customer_id: null,
    decline_reason: null,
    card_brand: null,
    card_last4: null,
    created_at: now.toISOString(),
    ...fields,
  };
}

/**
 * The owner the page functions wire into checkout. The link is read when the payment is recorded
 * and written conditioned on that version; when the billing step changed it in between
 * (pending_period → defaulter), checkout asks again, still under its claim. A PUT cannot come in
 * between: it is refused while an attempt holds the page.
 */
export function linkPages(deps: Deps & { baseUrl: string }): SessionOwner {
  return {
    chargeOf: (session) => ({ source: 'link', paymentLinkId: session.link_id ?? null }),
    async approved({ session, charge, customer, now }) {
      if (!charge) throw new Error('a payment link is always charged');
      const scope = scopeOf(session);
      const link = await getLink(deps, scope, session.link_id ?? '');
      if (!link) return { kind: 'gone', reason: 'payment_link_deleted' };
      const log = logWrite(
        deps.table,
        scope,
        attempt(
          session,
          {
            status: 'succeeded',
            charge_id: charge.id,
            customer_id: customer.id,
            card_brand: charge.card.brand,
            card_last4: charge.card.last4,
          },
          now,
        ),
      );
      const after = paidLink(link, charge.id, now);
      const event = paymentLinkPaid.of(
        scopeOf(link),
        {
          object: linkListItem(after, pageUrl(deps.baseUrl, link.token)),
          charge_id: charge.id,
          customer_id: customer.id,
        },
        now,
      );
      return {
        kind: 'apply',
        items: [...linkWrites(deps.table, link, after), log, eventWrite(deps.table, event)],
      };
    },
    answerOf: () => ({ kind: 'receipt' }),
    async declined(session, reason, now) {
      // Logged on the link, and told to the dashboard's counters (an internal event: no webhook).
      const declined = cardDeclined.of(scopeOf(session), { source: 'link', decline_reason: reason }, now);
      return [
        logWrite(deps.table, scopeOf(session), attempt(session, { decline_reason: reason }, now)),
        internalEventWrite(deps.table, declined),
      ];
    },
  };
}
