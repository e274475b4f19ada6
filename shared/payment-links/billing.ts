/**
 * The recurring payment links' part of the billing step (docs/design.md#payment-links), found by due
 * time in the link due index, never by scanning: a `paid_period` link whose `next_date_of_payment`
 * has come becomes `pending_period` (its page reopens for the new period) and its next date moves a
 * month on; a `pending_period` link unpaid 5 days after the date that fell due becomes `defaulter`.
 * Each step is one transaction conditioned on the version read, so concurrent runs step a link once.
 */

import { linkPageWrite } from '../checkout/repository.ts';
import { scopeOf } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { type RunPart, stepEveryDue } from '../db/due.ts';
import { linkRecurrence, nextDateOf, type PaymentLink, revised } from './link.ts';
import { dropStaleLinkDue, dueLinks, getLink, type LinkDueRef, PageBusy, saveLink } from './repository.ts';

export type LinkStepOutcome = 'pending_period' | 'defaulter' | 'not_due' | 'raced';

/** The one step due for a link at `now`. */
export async function linkStep(deps: Deps, ref: LinkDueRef, now: Date): Promise<LinkStepOutcome> {
  const link = await getLink(deps, scopeOf(ref), ref.link_id);
  if (!link || link.due_at !== ref.due_at) {
    await dropStaleLinkDue(deps, ref);
    return 'not_due';
  }
  if (Date.parse(ref.due_at) > now.getTime()) return 'not_due';
  const fellDue = nextDateOf(link);
  if (link.status === 'paid_period' && fellDue) {
    const after = revised(
      {
        ...link,
        status: 'pending_period',
        period_due_at: fellDue,
        months_from_anchor: link.months_from_anchor + 1,
      },
      now,
    );
    // The page takes the new period's payment: open again, declines forgotten.
    const page = linkPageWrite(
      deps.table,
      link.token,
      now,
      'reopen',
      link.customer_email,
      linkRecurrence(link),
    );
    const saved = await saveLinkStep(deps, link, after, page);
    return saved ? 'pending_period' : 'raced';
  }
  if (link.status === 'pending_period') {
    const after: PaymentLink = revised({ ...link, status: 'defaulter' }, now);
    return (await saveLinkStep(deps, link, after)) ? 'defaulter' : 'raced';
  }
  await dropStaleLinkDue(deps, ref);
  return 'not_due';
}

/** A step's write; a page held by a payment under way refuses it, and the next run tries again. */
async function saveLinkStep(
  deps: Deps,
  before: PaymentLink,
  after: PaymentLink,
  page?: Parameters<typeof saveLink>[3],
) {
  try {
    return await saveLink(deps, before, after, page);
  } catch (error) {
    if (error instanceof PageBusy) return false;
    throw error;
  }
}

/**
 * Every link step due at `now`, of every account or of `account` alone (`billing run --account`), in
 * every partition of the due index or in `part.shard` alone, until `part.stop`: a summary of what
 * was done; a step that throws is counted in `failed` and tried again by the next run.
 */
export async function runLinkBilling(
  deps: Deps,
  now: Date,
  account?: { developerId: number },
  part: RunPart = {},
) {
  const outcomes: Record<LinkStepOutcome | 'failed', number> = {
    pending_period: 0,
    defaulter: 0,
    not_due: 0,
    raced: 0,
    failed: 0,
  };
  const due = await stepEveryDue(
    (limit) => dueLinks(deps, now, limit, part.shard),
    (ref) => linkStep(deps, ref, now),
    outcomes,
    { name: 'payment_link_id', of: (ref) => ref.link_id },
    account,
    part.stop,
  );
  return { due, ...outcomes };
}
