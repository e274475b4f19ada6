/**
 * The `type` of failure envelopes follows one rule (stated on `MessageTexts.type` in
 * shared/core/messages.ts): `error`, except `warning` for an answer that is empty (nothing matched,
 * a range that holds nothing, a page past the last, no keys) and `danger` for exactly the two
 * answers existing clients branch on (an amount too precise for its currency, an absent payment).
 * This walks every folder's messages, so a new message with another type fails here.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../infra/local/info.ts';
import { Invalid, NotFound } from '../../shared/core/errors.ts';
import type { EnvelopeType, Message } from '../../shared/core/messages.ts';
import { customerMessages } from '../../shared/customers/messages.ts';
import { answerOf } from '../../shared/http/errors.ts';
import { paymentMessages } from '../../shared/payments/messages.ts';

/** Every message of every `shared/<folder>/messages.ts`, as `<folder>.<id>` with its type. */
async function allMessages(): Promise<Map<string, EnvelopeType>> {
  const types = new Map<string, EnvelopeType>();
  const folders = readdirSync(join(projectRoot, 'shared'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => readdirSync(join(projectRoot, 'shared', name)).includes('messages.ts'));
  for (const folder of folders) {
    const module = (await import(join(projectRoot, 'shared', folder, 'messages.ts'))) as Record<
      string,
      unknown
    >;
    for (const exported of Object.values(module)) {
      if (!exported || typeof exported !== 'object') continue;
      for (const entry of Object.values(exported as Record<string, unknown>)) {
        const message = entry as Partial<Message>;
        // Messages have texts with a title; validation rules (defineRules) are bare strings.
        if (typeof message?.id !== 'string' || typeof message.en?.title !== 'string') continue;
        types.set(`${folder}.${message.id}`, message.type ?? 'error');
      }
    }
  }
  return types;
}

const having = (types: Map<string, EnvelopeType>, type: EnvelopeType) =>
  [...types]
    .filter(([, t]) => t === type)
    .map(([name]) => name)
    .sort();

describe('envelope types of failures', () => {
  it('danger only for an amount too precise and an absent payment; warning only for empty answers; error otherwise', async () => {
    const types = await allMessages();
    expect(types.size).toBeGreaterThan(50);
    expect(having(types, 'danger')).toEqual(['core.price_precision', 'payments.payment_not_found']);
    expect(having(types, 'warning')).toEqual([
      'accounts.api_keys_missing',
      'core.page_not_found',
      'customers.customer_search_no_match',
      'plans.plan_filters_no_match',
      'plans.plan_price_range',
      'plans.plan_subscriber_range',
    ]);
    // success and info are answers, never failures.
    expect([...having(types, 'success'), ...having(types, 'info')]).toEqual([]);
  });

  it('a message without a type answers as error, and the type is never translated', () => {
    for (const lang of ['en', 'es'] as const) {
      expect(answerOf(new Invalid(customerMessages.customer_search_empty), lang)?.body).toMatchObject({
        code: 400,
        type: 'error',
      });
      expect(answerOf(new NotFound(paymentMessages.payment_not_found), lang)?.body).toMatchObject({
        code: 404,
        type: 'danger',
      });
    }
  });
});
