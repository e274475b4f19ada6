/**
 * POST /v1/charges/simple/create/ (D8, deprecated in favour of /v1/payments/): charges a card
 * directly. 201 with the charge in the list view; a decline is 402 `payment_failed`. No 3-D
 * Secure challenge is possible here, so a card that needs one declines `authentication_required`.
 */

import { getAccount } from '../../shared/accounts/repository.ts';
import { validateCard } from '../../shared/acquirer/cards.ts';
import { configuredAcquirer } from '../../shared/acquirer/configured.ts';
import { chargeView, newCharge } from '../../shared/charges/charge.ts';
import { LegacyChargeSchema, legacyDecline } from '../../shared/charges/legacy.ts';
import { makeDeps } from '../../shared/deps.ts';
import { eventPublisher, newEvent, sendCommitted } from '../../shared/events/publish.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { BadRequest } from '../../shared/http/errors.ts';
import { InvalidInput, validate } from '../../shared/http/validation.ts';
import { prefixedId } from '../../shared/ids.ts';
import { minimumMet } from '../../shared/money/fees.ts';
import { currencyOf } from '../../shared/payments/payment.ts';
import { createCharge } from '../../shared/payments/repository.ts';
import { amountField } from '../../shared/plans/plan.ts';

const deps = makeDeps();
const acquirer = configuredAcquirer();
const events = eventPublisher();

export const handler = endpoint(async ({ body, account, mode }) => {
  const input = validate(LegacyChargeSchema, body);
  const currency = currencyOf(input);
  const amount = amountField(input.amount, currency);
  if (!minimumMet(amount, currency))
    throw new BadRequest('amount_below_minimum', { params: { currency: currency.code } });
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
  const owner = await getAccount(deps, account.developerId);
  const statement =
    owner?.statement_descriptor ?? [...(owner?.company_name ?? owner?.name ?? '')].slice(0, 22).join('');
  const chargeId = prefixedId('ch');
  const result = await acquirer.charge({
    amountMinor: amount,
    currency: currency.code,
    description: input.description,
    statementDescriptor: statement,
    idempotencyKey: chargeId,
    test: mode === 'test',
    card: card.card,
    threeDSecure: 'frictionless_only',
  });
  if (result.status !== 'approved') {
    throw legacyDecline(result.status === 'declined' ? result.declineReason : 'authentication_required');
  }
  const charge = newCharge({
    id: chargeId,
    developerId: account.developerId,
    mode,
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
  const event = newEvent(
    {
      type: 'charge.succeeded',
      developerId: account.developerId,
      test: mode === 'test',
      data: { object: chargeView(charge) },
    },
    now,
  );
  await createCharge(deps, charge, event);
  await sendCommitted(events, event);
  return { status: 201, body: chargeView(charge) };
});
