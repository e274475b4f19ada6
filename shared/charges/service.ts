/**
 * The legacy direct charge (docs/design.md#legacy-charge; deprecated in favour of payments): a card
 * charged without a checkout. No 3-D Secure challenge is possible here, so a card that needs one
 * declines `authentication_required`. Like every money movement it is an attempt stored before the
 * acquirer is asked; with an `Idempotency-Key` the attempt is the key's, so a retry of a request
 * whose answer was lost answers that charge and never charges the card a second time.
 */

import { statementDescriptor } from '../accounts/account.ts';
import { getAccount } from '../accounts/repository.ts';
import {
  type Acquirer,
  AcquirerUnavailable,
  type ApprovedCharge,
  type CardInput,
  type FoundCharge,
} from '../acquirer/acquirer.ts';
import { validateCard } from '../acquirer/cards.ts';
import { requireCardNumbersTaken } from '../acquirer/connection.ts';
import { type Attempt, idempotentAttemptId, newAttempt, newAttemptId } from '../attempts/attempt.ts';
import { chargeFinisher } from '../attempts/recovery.ts';
import {
  AttemptTaken,
  finishWrite,
  moveAttempt,
  restarted,
  restartWrite,
  storeAttempt,
  unconfirmedWrite,
} from '../attempts/repository.ts';
import { resumeAttempt } from '../attempts/resume.ts';
import type { Scope } from '../core/account.ts';
import { Conflict, Unconfirmed } from '../core/errors.ts';
import { prefixedId } from '../core/ids.ts';
import { coreMessages } from '../core/messages.ts';
import { countFact, metricNames } from '../core/metrics.ts';
import { amountField, assertMinimum, currencyOf } from '../core/money/fields.ts';
import { InvalidInput } from '../core/validation.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { transactWrite } from '../db/transact.ts';
import { internalEventWrite } from '../events/event.ts';
import { type Charge, newCharge } from './charge.ts';
import { cardDeclined } from './events.ts';
import { type LegacyChargeInput, legacyDecline } from './legacy.ts';
import { chargeMessages, chargeRules } from './messages.ts';
import { chargeWrites, getCharge } from './repository.ts';

export interface ChargeDeps extends Deps {
  acquirer: Acquirer;
}

const scopeOf = (attempt: Attempt) => ({
  developerId: attempt.developer_id ?? 0,
  mode: attempt.mode ?? ('test' as const),
});

/**
 * Records what the acquirer said of a legacy charge's attempt: the charge with `charge.succeeded`,
 * or the decline. Answers the charge when approved (whoever recorded it), undefined otherwise.
 */
async function settleLegacy(
  deps: Deps,
  attempt: Attempt<'legacy'>,
  result: Exclude<FoundCharge, { status: 'challenge_required' }>,
  now: Date,
): Promise<Charge | undefined> {
  if (result.status === 'not_found') {
    await moveAttempt(deps, finishWrite(deps.table, attempt, 'failed', { note: 'not_found' }, now));
    return undefined;
  }
  if (result.status === 'declined') {
    // A decline is told to the dashboard's counters by an internal event (no webhook reports a
    // legacy decline) written with the attempt's end, so only the writer that finished the attempt
    // stores it (one that lost the race to another writer, the request or recovery, stores nothing);
    // that writer also counts the metric.
    const reason = result.declineReason;
    const declined = cardDeclined.of(scopeOf(attempt), { source: 'legacy', decline_reason: reason }, now);
    try {
      await transactWrite(deps, [
        finishWrite(deps.table, attempt, 'declined', { decline_reason: reason }, now),
        internalEventWrite(deps.table, declined),
      ]);
    } catch (error) {
      if (conditionFailedAt(error).includes(0)) return undefined;
      throw error;
    }
    countFact(metricNames.chargesDeclined, attempt.mode ?? 'test');
    return undefined;
  }
  const charge = legacyCharge(attempt, result, now);
  try {
    await transactWrite(deps, [
      finishWrite(
        deps.table,
        attempt,
        'succeeded',
        { reference: result.acquirerReference, charge_id: charge.id },
        now,
      ),
      ...chargeWrites(deps.table, charge, now),
    ]);
    return charge;
  } catch (error) {
    if (!conditionFailedAt(error).includes(0)) throw error;
    // Recorded by another writer first (recovery, a retry): that record stands.
    return getCharge(deps, scopeOf(attempt), attempt.subject.charge_id);
  }
}

function legacyCharge(attempt: Attempt<'legacy'>, result: ApprovedCharge, now: Date): Charge {
  return newCharge({
    id: attempt.subject.charge_id,
    developerId: attempt.developer_id ?? 0,
    mode: attempt.mode ?? 'test',
    source: 'legacy',
    paymentId: null,
    attemptId: attempt.id,
    customerId: null,
    amount: attempt.amount ?? 0,
    currency: attempt.currency ?? '',
    description: attempt.subject.description,
    statementDescription: attempt.subject.statement_description,
    card: result.card,
    acquirerReference: result.acquirerReference,
    now,
  });
}

/** Recovery's finisher of legacy charges: what the acquirer has under the attempt's key. */
export const legacyFinisher = (deps: ChargeDeps) =>
  chargeFinisher<'legacy'>(deps.acquirer, async (legacy, found, now) => {
    const charge = await settleLegacy(deps, legacy, found, now);
    return charge ? 'succeeded' : found.status === 'declined' ? 'declined' : 'failed';
  });

/** The attempt a legacy request runs under: new, or the next try of its key's (none: answered already). */
async function attemptFor(
  deps: ChargeDeps,
  scope: Scope,
  fresh: (id: string) => Attempt<'legacy'>,
  idempotencyKey: string | undefined,
): Promise<Attempt<'legacy'> | Charge> {
  if (!idempotencyKey) {
    const attempt = fresh(newAttemptId());
    await storeAttempt(deps, attempt);
    return attempt;
  }
  const id = idempotentAttemptId('legacy', scope, idempotencyKey);
  const resumed = await resumeAttempt<'legacy'>(
    deps,
    id,
    legacyFinisher(deps),
    chargeMessages.acquirer_unconfirmed_charge,
  );
  if (resumed.kind === 'done') {
    const charge = await getCharge(deps, scope, resumed.attempt.subject.charge_id);
    if (charge) return charge;
  }
  try {
    if (resumed.kind !== 'again') {
      const attempt = fresh(id);
      await storeAttempt(deps, attempt);
      return attempt;
    }
    const attempt = restarted(resumed.attempt, deps.clock());
    if (!(await moveAttempt(deps, restartWrite(deps.table, resumed.attempt, attempt))))
      throw new AttemptTaken();
    return attempt;
  } catch (error) {
    // Another retry with this key started first.
    if (error instanceof AttemptTaken) throw new Conflict(coreMessages.idempotency_in_progress);
    throw error;
  }
}

/** Charges the card of a validated legacy request; the stored charge, or the 402 of a decline. */
export async function chargeCard(
  deps: ChargeDeps,
  scope: Scope,
  input: LegacyChargeInput,
  idempotencyKey?: string,
): Promise<Charge> {
  const currency = currencyOf(input);
  const amount = amountField(input.amount, currency);
  assertMinimum(amount, currency);
  const card = checkedCard(input, deps.clock());
  const [owner] = await Promise.all([
    getAccount(deps, scope.developerId),
    requireCardNumbersTaken(deps, scope),
  ]);
  const statement = statementDescriptor(owner);
  const fresh = (id: string) =>
    newAttempt({
      id,
      kind: 'legacy',
      subject: {
        charge_id: prefixedId('ch'),
        description: input.description || input.entity_description || null,
        statement_description: statement,
      },
      owner: { developerId: scope.developerId, mode: scope.mode, amount, currency: currency.code },
      now: deps.clock(),
    });
  const attempt = await attemptFor(deps, scope, fresh, idempotencyKey);
  if (!('kind' in attempt)) return attempt;
  let result: Awaited<ReturnType<Acquirer['charge']>>;
  try {
    result = await deps.acquirer.charge({
      amountMinor: amount,
      currency: currency.code,
      description: input.description,
      statementDescriptor: statement,
      idempotencyKey: attempt.acquirer_key,
      test: scope.mode === 'test',
      merchant: scope.developerId,
      card,
      threeDSecure: 'frictionless_only',
    });
  } catch (error) {
    // No answer: the card may have been charged. Recovery learns it from the acquirer by key.
    await moveAttempt(deps, unconfirmedWrite(deps.table, attempt, deps.clock()));
    if (error instanceof AcquirerUnavailable)
      throw new Unconfirmed(chargeMessages.acquirer_unconfirmed_charge);
    throw error;
  }
  // A card that needs a challenge cannot be charged here: frictionless_only declines it.
  const final =
    result.status === 'challenge_required'
      ? { status: 'declined' as const, declineReason: 'authentication_required' as const, card: result.card }
      : result;
  const charge = await settleLegacy(
    deps,
    attempt,
    { ...final, amountMinor: amount, currency: currency.code },
    deps.clock(),
  );
  if (charge) return charge;
  throw legacyDecline(final.status === 'declined' ? final.declineReason : 'processing_error');
}

/** The posted card, checked (Luhn, expiry, CVC): a validation error names the legacy form's own fields. */
function checkedCard(input: LegacyChargeInput, now: Date): CardInput {
  const card = validateCard(
    {
      number: input.credit_card_number,
      expMonth: input.exp_month,
      expYear: input.exp_year,
      cvc: input.credit_card_security_code_number,
      holderName: '',
    },
    now,
  );
  if (card.ok) return card.card;
  const fields = {
    card_number: 'credit_card_number',
    cvc: 'credit_card_security_code_number',
    exp_month: 'exp_month',
    exp_year: 'exp_year',
  } as const;
  throw new InvalidInput(
    card.problems.map((problem) => ({ field: fields[problem.field], rule: chargeRules.card })),
  );
}
