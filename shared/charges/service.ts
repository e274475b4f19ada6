/**
 * The legacy direct charge (D8, deprecated in favour of payments): a card charged without a
 * checkout. No 3-D Secure challenge is possible here, so a card that needs one declines
 * `authentication_required`.
 */
import { statementDescriptor } from '../accounts/account.ts';
import { getAccount } from '../accounts/repository.ts';
import type { Acquirer } from '../acquirer/acquirer.ts';
import { validateCard } from '../acquirer/cards.ts';
import type { Scope } from '../core/account.ts';
import { prefixedId } from '../core/ids.ts';
import { amountField, assertMinimum, currencyOf } from '../core/money/fields.ts';
import { InvalidInput } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import { type Charge, chargeView, newCharge } from './charge.ts';
import { chargeSucceeded } from './events.ts';
import { type LegacyChargeInput, legacyDecline } from './legacy.ts';
import { createCharge } from './repository.ts';

export interface ChargeDeps extends Deps {
  acquirer: Acquirer;
}

/** Charges the card of a validated legacy request; the stored charge, or the 402 of a decline. */
export async function chargeCard(deps: ChargeDeps, scope: Scope, input: LegacyChargeInput): Promise<Charge> {
  const currency = currencyOf(input);
  const amount = amountField(input.amount, currency);
  assertMinimum(amount, currency);
  const now = deps.clock();
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
  if (!card.ok) {
    const fields = {
      card_number: 'credit_card_number',
      cvc: 'credit_card_security_code_number',
      exp_month: 'exp_month',
      exp_year: 'exp_year',
    } as const;
    throw new InvalidInput(card.problems.map((problem) => ({ field: fields[problem.field], rule: 'card' })));
  }
  const owner = await getAccount(deps, scope.developerId);
  const statement = statementDescriptor(owner);
  const chargeId = prefixedId('ch');
  const result = await deps.acquirer.charge({
    amountMinor: amount,
    currency: currency.code,
    description: input.description,
    statementDescriptor: statement,
    idempotencyKey: chargeId,
    test: scope.mode === 'test',
    merchant: scope.developerId,
    card: card.card,
    threeDSecure: 'frictionless_only',
  });
  if (result.status !== 'approved') {
    throw legacyDecline(result.status === 'declined' ? result.declineReason : 'authentication_required');
  }
  const charge = newCharge({
    id: chargeId,
    developerId: scope.developerId,
    mode: scope.mode,
    source: 'legacy',
    paymentId: null,
    customerId: null,
    amount,
    currency: currency.code,
    description: input.description || input.entity_description || null,
    statementDescription: statement,
    card: result.card,
    acquirerReference: result.acquirerReference,
    now,
  });
  const event = chargeSucceeded.of(
    { developerId: scope.developerId, test: scope.mode === 'test' },
    { object: chargeView(charge) },
    now,
  );
  await createCharge(deps, charge, event);
  return charge;
}
