/**
 * Every event goes through one store-and-send path: it is written in the transaction of the change
 * it reports, with data its catalogue schema accepts, and then sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventCatalogue } from '../../shared/api/events.ts';
import { createPayment, payThroughCheckout, submitCard, testCards } from '../support/checkout.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { storedEventItems } from '../support/table.ts';

/** The events stored for an account in test mode, oldest first. */
const storedEvents = async (account: TestAccount) =>
  (await storedEventItems(account.developerId, 'test')).map(
    (item) => item.detail as { type: string; data: Record<string, unknown> },
  );

/** Each stored event's data passes its catalogue schema. */
function expectInCatalogue(events: { type: string }[]) {
  for (const event of events) {
    const type = eventCatalogue.find((candidate) => candidate.type === event.type);
    expect(type, event.type).toBeDefined();
    expect(() => type?.read(event)).not.toThrow();
  }
}

let account: TestAccount;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('events');
});

describe('stored events', () => {
  it('a declined checkout attempt stores payment.failed with its reason', async () => {
    const payment = await createPayment(apiKey(account.testKey));
    const declined = await submitCard(payment.url, { card_number: testCards.insufficientFunds });
    expect(declined.status).toBe(402);
    const failed = (await storedEvents(account)).filter((event) => event.type === 'payment.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.data).toMatchObject({
      decline_reason: 'insufficient_funds',
      object: { id: payment.id, status: 'pending', decline_reason: 'insufficient_funds' },
    });
    expectInCatalogue(failed);
  });

  it('a paid checkout, a refund and a legacy charge store events their schemas accept', async () => {
    const auth = apiKey(account.testKey);
    const paid = await payThroughCheckout(auth);
    const refund = await api('POST', '/v1/refunds/', {
      auth,
      body: { charge_id: paid.chargeId, amount: '1.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    const events = await storedEvents(account);
    const types = events.map((event) => event.type);
    expect(types).toContain('payment.succeeded');
    expect(types).toContain('refund.created');
    expectInCatalogue(events);
  });
});
