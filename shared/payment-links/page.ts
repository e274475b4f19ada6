/**
 * The payment links area's part of a link's checkout page (checkout's LinkOwner): what a payment
 * or a decline writes beside the session and the charge, in the same transaction. A payment makes
 * the link `paid` (`paid_period` when recurring, D14), logs the attempt and stores
 * `payment_link.paid`; a decline logs the attempt.
 */
import { pageUrl } from '../checkout/http.ts';
import type { LinkOwner } from '../checkout/service.ts';
import type { CheckoutSession } from '../checkout/session.ts';
import { prefixedId } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { eventWrite } from '../events/event.ts';
import { paymentLinkPaid } from './events.ts';
import { type LinkLog, linkListItem, paidLink } from './link.ts';
import { getLink, linkWrites, logWrite } from './repository.ts';

const scopeOf = (session: CheckoutSession) => ({ developerId: session.developer_id, mode: session.mode });

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
 * The LinkOwner the page functions wire into checkout. The link is read when the payment is
 * recorded and written conditioned on that version; when the billing step changed it in between
 * (pending_period → defaulter), checkout asks LinkOwner.paid again, still under its claim. A PUT
 * or DELETE cannot come in between: the page refuses them while the claim holds.
 */
export function linkPages(deps: Deps & { baseUrl: string }): LinkOwner {
  return {
    async paid(session, payment, now) {
      const scope = scopeOf(session);
      const link = await getLink(deps, scope, session.link_id ?? '');
      const log = logWrite(
        deps.table,
        scope,
        attempt(
          session,
          {
            status: 'succeeded',
            charge_id: payment.charge.id,
            customer_id: payment.customerId,
            card_brand: payment.charge.card.brand,
            card_last4: payment.charge.card.last4,
          },
          now,
        ),
      );
      // A link deleted while its page was being paid: the charge and its log stay, nothing else.
      if (!link) return [log];
      const after = paidLink(link, payment.charge.id, now);
      const event = paymentLinkPaid.of(
        { developerId: link.developer_id, test: link.mode === 'test' },
        {
          object: linkListItem(after, pageUrl(deps.baseUrl, link.token)),
          charge_id: payment.charge.id,
          customer_id: payment.customerId,
        },
        now,
      );
      return [...linkWrites(deps.table, link, after), log, eventWrite(deps.table, event)];
    },
    async declined(session, reason, now) {
      return [logWrite(deps.table, scopeOf(session), attempt(session, { decline_reason: reason }, now))];
    },
  };
}
