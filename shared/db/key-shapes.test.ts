/**
 * The exact strings stored items carry. Every key builder is called with fixed arguments and its
 * answer compared with the literal keys of items already in tables: changing one would strand
 * every item stored under the old key, so a key that changes here is a migration, never a refactor.
 */
import { describe, expect, it } from 'vitest';
import { attemptDayShards, dueShards, keys, payoutShards, simulatedAcquirerLedgerShards } from './keys.ts';

const at = '2026-03-04T05:06:07.890Z';

/** Each builder: what it answers now, and what stored items hold. */
const shapes: Record<string, [built: unknown, stored: unknown]> = {
  account: [keys.account(42), { pk: 'ACCOUNT#42', sk: 'ACCOUNT' }],
  accountEmail: [
    keys.accountEmail('Ada@Example.COM'),
    { pk: 'ACCOUNT_EMAIL#ada@example.com', sk: 'ACCOUNT_EMAIL' },
  ],
  accountSequence: [keys.accountSequence(), { pk: 'SEQUENCE#ACCOUNT', sk: 'SEQUENCE' }],
  apiKey: [keys.apiKey('9f86d081'), { pk: 'APIKEY#9f86d081', sk: 'APIKEY' }],
  client: [keys.client('cl_abc'), { pk: 'CLIENT#cl_abc', sk: 'CLIENT' }],
  plan: [keys.plan(42, 'test', 'gold-2026'), { pk: 'ACCOUNT#42#test#PLAN#gold-2026', sk: 'PLAN' }],
  planInList: [
    keys.planInList(42, 'live', at, 'gold-2026'),
    { gsi1pk: 'ACCOUNT#42#live#PLANS', gsi1sk: 'PLAN#2026-03-04T05:06:07.890Z#gold-2026' },
  ],
  planCount: [
    keys.planCount(42, 'test'),
    { pk: 'ACCOUNT#42#test#PLANS', sk: 'COUNT', gsi1pk: 'ACCOUNT#42#test#PLANS', gsi1sk: 'PLAN~COUNT' },
  ],
  idempotency: [
    keys.idempotency(42, 'live', 'key #1'),
    { pk: 'ACCOUNT#42#live#IDEMPOTENCY#key #1', sk: 'IDEMPOTENCY' },
  ],
  payment: [keys.payment(42, 'test', 'pay_1'), { pk: 'ACCOUNT#42#test#PAYMENT#pay_1', sk: 'PAYMENT' }],
  checkout: [keys.checkout('tok_abc'), { pk: 'CHECKOUT#tok_abc', sk: 'CHECKOUT' }],
  charge: [keys.charge(42, 'live', 'ch_1'), { pk: 'ACCOUNT#42#live#CHARGE#ch_1', sk: 'CHARGE' }],
  chargeInList: [
    keys.chargeInList(42, 'live', at, 'ch_1'),
    { gsi1pk: 'ACCOUNT#42#live#CHARGES', gsi1sk: 'CHARGE#2026-03-04T05:06:07.890Z#ch_1' },
  ],
  chargesBefore: [keys.chargesBefore(at), 'CHARGE#2026-03-04T05:06:07.890Z'],
  chargeListPrefix: [keys.chargeListPrefix, 'CHARGE#'],
  payoutDue: [
    [keys.payoutDue('ch_1', at), keys.payoutDue('ch_abcdef', at), keys.payoutDue('ch_é😀', at)],
    [
      { gsi2pk: 'PAYOUT_DUE#3', gsi2sk: '2026-03-04T05:06:07.890Z#ch_1' },
      { gsi2pk: 'PAYOUT_DUE#7', gsi2sk: '2026-03-04T05:06:07.890Z#ch_abcdef' },
      // A shard adds the first UTF-16 unit of each character (an emoji counts its high surrogate).
      { gsi2pk: 'PAYOUT_DUE#0', gsi2sk: '2026-03-04T05:06:07.890Z#ch_é😀' },
    ],
  ],
  payoutShard: [keys.payoutShard(5), 'PAYOUT_DUE#5'],
  payoutShards: [payoutShards, 8],
  refund: [keys.refund(42, 'test', 're_1'), { pk: 'ACCOUNT#42#test#REFUND#re_1', sk: 'REFUND' }],
  refundInLists: [
    keys.refundInLists(42, 'test', 'ch_1', at, 're_1'),
    {
      gsi1pk: 'ACCOUNT#42#test#REFUNDS',
      gsi1sk: 'REFUND#2026-03-04T05:06:07.890Z#re_1',
      gsi2pk: 'ACCOUNT#42#test#CHARGE_REFUNDS#ch_1',
      gsi2sk: 'REFUND#2026-03-04T05:06:07.890Z#re_1',
    },
  ],
  refundsOfCharge: [keys.refundsOfCharge(42, 'test', 'ch_1'), 'ACCOUNT#42#test#CHARGE_REFUNDS#ch_1'],
  refundList: [keys.refundList(42, 'live'), 'ACCOUNT#42#live#REFUNDS'],
  customer: [keys.customer(42, 'test', 'cus_1'), { pk: 'ACCOUNT#42#test#CUSTOMER#cus_1', sk: 'CUSTOMER' }],
  customerInList: [
    keys.customerInList(42, 'test', at, 'cus_1'),
    { gsi1pk: 'ACCOUNT#42#test#CUSTOMERS', gsi1sk: 'CUSTOMER#2026-03-04T05:06:07.890Z#cus_1' },
  ],
  customerCount: [
    keys.customerCount(42, 'live'),
    {
      pk: 'ACCOUNT#42#live#CUSTOMERS',
      sk: 'COUNT',
      gsi1pk: 'ACCOUNT#42#live#CUSTOMERS',
      gsi1sk: 'CUSTOMER~COUNT',
    },
  ],
  customerAddress: [
    keys.customerAddress(42, 'test', 'cus_1', 'addr_1'),
    { pk: 'ACCOUNT#42#test#CUSTOMER#cus_1', sk: 'ADDRESS#addr_1' },
  ],
  customerAddressPrefix: [keys.customerAddressPrefix, 'ADDRESS#'],
  customerEmail: [
    keys.customerEmail(42, 'test', 'Ada@Example.COM'),
    { pk: 'ACCOUNT#42#test#CUSTOMER_EMAIL#ada@example.com', sk: 'CUSTOMER_EMAIL' },
  ],
  searchPartition: [
    [
      keys.searchPartition(42, 'test', 'customer', 'ada'),
      keys.searchPartition(42, 'test', 'plan', '😀x'),
      keys.searchPartition(42, 'test', 'plan', ''),
    ],
    ['ACCOUNT#42#test#SEARCH#customer#a', 'ACCOUNT#42#test#SEARCH#plan#😀', 'ACCOUNT#42#test#SEARCH#plan#'],
  ],
  searchEntry: [
    keys.searchEntry(42, 'live', 'product', 'ada', 'prod_1'),
    { pk: 'ACCOUNT#42#live#SEARCH#product#a', sk: 'ada\u001fprod_1' },
  ],
  searchSeparator: [keys.searchSeparator, '\u001f'],
  tax: [keys.tax(42, 'test', 7), { pk: 'ACCOUNT#42#test#TAX#7', sk: 'TAX' }],
  taxInList: [
    keys.taxInList(42, 'test', at, 7),
    { gsi1pk: 'ACCOUNT#42#test#TAXES', gsi1sk: 'TAX#2026-03-04T05:06:07.890Z#7' },
  ],
  taxList: [keys.taxList(42, 'test'), 'ACCOUNT#42#test#TAXES'],
  taxSequence: [keys.taxSequence(42), { pk: 'ACCOUNT#42', sk: 'SEQUENCE#TAX' }],
  product: [keys.product(42, 'test', 'prod_1'), { pk: 'ACCOUNT#42#test#PRODUCT#prod_1', sk: 'PRODUCT' }],
  productInList: [
    keys.productInList(42, 'test', at, 'prod_1'),
    { gsi1pk: 'ACCOUNT#42#test#PRODUCTS', gsi1sk: 'PRODUCT#2026-03-04T05:06:07.890Z#prod_1' },
  ],
  productCount: [
    keys.productCount(42, 'test'),
    {
      pk: 'ACCOUNT#42#test#PRODUCTS',
      sk: 'COUNT',
      gsi1pk: 'ACCOUNT#42#test#PRODUCTS',
      gsi1sk: 'PRODUCT~COUNT',
    },
  ],
  event: [keys.event('evt_1'), { pk: 'EVENT#evt_1', sk: 'EVENT' }],
  eventInList: [
    keys.eventInList(42, 'test', at, 'evt_1'),
    { gsi1pk: 'ACCOUNT#42#test#EVENTS', gsi1sk: 'EVENT#2026-03-04T05:06:07.890Z#evt_1' },
  ],
  eventOfType: [
    keys.eventOfType(42, 'test', 'payment.succeeded', at, 'evt_1'),
    { gsi2pk: 'ACCOUNT#42#test#EVENTS#payment.succeeded', gsi2sk: 'EVENT#2026-03-04T05:06:07.890Z#evt_1' },
  ],
  eventListPrefix: [keys.eventListPrefix, 'EVENT#'],
  subscription: [
    keys.subscription(42, 'test', 'sub_1'),
    { pk: 'ACCOUNT#42#test#SUBSCRIPTION#sub_1', sk: 'SUBSCRIPTION' },
  ],
  subscriptionInList: [
    keys.subscriptionInList(42, 'test', at, 'sub_1'),
    { gsi1pk: 'ACCOUNT#42#test#SUBSCRIPTIONS', gsi1sk: 'SUBSCRIPTION#2026-03-04T05:06:07.890Z#sub_1' },
  ],
  subscriptionOfPlan: [
    keys.subscriptionOfPlan(42, 'test', 'gold', at, 'sub_1'),
    {
      gsi2pk: 'ACCOUNT#42#test#PLAN#gold#SUBSCRIPTIONS',
      gsi2sk: 'SUBSCRIPTION#2026-03-04T05:06:07.890Z#sub_1',
    },
  ],
  billingDue: [
    [keys.billingDue('sub_1', at), keys.billingDue('sub_xyz', at)],
    [
      { pk: 'DUE#BILLING#2', sk: '2026-03-04T05:06:07.890Z#sub_1' },
      { pk: 'DUE#BILLING#0', sk: '2026-03-04T05:06:07.890Z#sub_xyz' },
    ],
  ],
  billingDuePartition: [keys.billingDuePartition(3), 'DUE#BILLING#3'],
  paymentLink: [keys.paymentLink(42, 'test', 'link_1'), { pk: 'ACCOUNT#42#test#LINK#link_1', sk: 'LINK' }],
  paymentLinkLog: [
    keys.paymentLinkLog(42, 'test', 'link_1', at, 'log_1'),
    { pk: 'ACCOUNT#42#test#LINK#link_1', sk: 'LOG#2026-03-04T05:06:07.890Z#log_1' },
  ],
  paymentLinkInList: [
    keys.paymentLinkInList(42, 'test', at, 'link_1'),
    { gsi1pk: 'ACCOUNT#42#test#LINKS', gsi1sk: 'LINK#2026-03-04T05:06:07.890Z#link_1' },
  ],
  paymentLinkCount: [
    keys.paymentLinkCount(42, 'test'),
    { pk: 'ACCOUNT#42#test#LINKS', sk: 'COUNT', gsi1pk: 'ACCOUNT#42#test#LINKS', gsi1sk: 'LINK~COUNT' },
  ],
  linkDue: [
    [keys.linkDue('link_1', at), keys.linkDue('link_zz', at)],
    [
      { pk: 'DUE#LINK#2', sk: '2026-03-04T05:06:07.890Z#link_1' },
      { pk: 'DUE#LINK#1', sk: '2026-03-04T05:06:07.890Z#link_zz' },
    ],
  ],
  linkDuePartition: [keys.linkDuePartition(2), 'DUE#LINK#2'],
  dueShards: [dueShards, 4],
  webhookEndpoint: [
    keys.webhookEndpoint(42, 'test', 'we_1'),
    { pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1', sk: 'WEBHOOK_ENDPOINT' },
  ],
  webhookEndpointInList: [
    keys.webhookEndpointInList(42, 'test', at, 'we_1'),
    { gsi1pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINTS', gsi1sk: 'WEBHOOK_ENDPOINT#2026-03-04T05:06:07.890Z#we_1' },
  ],
  webhookEndpointCount: [
    keys.webhookEndpointCount(42, 'test'),
    {
      pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINTS',
      sk: 'COUNT',
      gsi1pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINTS',
      gsi1sk: 'WEBHOOK_ENDPOINT~COUNT',
    },
  ],
  webhookTask: [
    keys.webhookTask(42, 'test', 'we_1', 'evt_1', '0'),
    { pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1', sk: 'TASK#evt_1#0' },
  ],
  webhookTaskDue: [
    [keys.webhookTaskDue('task_1', at), keys.webhookTaskDue('task_zz', at)],
    [
      { gsi2pk: 'DUE#WEBHOOK#3', gsi2sk: '2026-03-04T05:06:07.890Z#task_1' },
      { gsi2pk: 'DUE#WEBHOOK#2', gsi2sk: '2026-03-04T05:06:07.890Z#task_zz' },
    ],
  ],
  webhookDuePartition: [keys.webhookDuePartition(1), 'DUE#WEBHOOK#1'],
  webhookDeliveryInList: [
    keys.webhookDeliveryInList(42, 'test', 'we_1', at, 'del_1'),
    {
      pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1',
      sk: 'DELIVERY#2026-03-04T05:06:07.890Z#del_1',
      gsi1pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1#DELIVERIES',
      gsi1sk: 'DELIVERY#2026-03-04T05:06:07.890Z#del_1',
    },
  ],
  webhookDeliveryCount: [
    keys.webhookDeliveryCount(42, 'test', 'we_1'),
    {
      pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1',
      sk: 'DELIVERY~COUNT',
      gsi1pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1#DELIVERIES',
      gsi1sk: 'DELIVERY~COUNT',
    },
  ],
  redeliveryCounter: [
    [keys.redeliveryCounter(42, 'test', 'evt_1'), keys.redeliveryCounter(42, 'live')],
    [
      { pk: 'ACCOUNT#42#test#REDELIVERIES', sk: 'EVENT#evt_1' },
      { pk: 'ACCOUNT#42#live#REDELIVERIES', sk: 'ACCOUNT' },
    ],
  ],
  webhookDeadLetter: [
    keys.webhookDeadLetter(at, 'task_1'),
    { pk: 'WEBHOOK_DEAD_LETTERS#2026-03-04', sk: '2026-03-04T05:06:07.890Z#task_1' },
  ],
  simulatedAcquirerOperation: [
    keys.simulatedAcquirerOperation('live', 'idem_1'),
    { pk: 'SIMACQ#live#OPERATION#idem_1', sk: 'OPERATION' },
  ],
  simulatedAcquirerCharge: [
    keys.simulatedAcquirerCharge('test', 'ref_1'),
    { pk: 'SIMACQ#test#CHARGE#ref_1', sk: 'CHARGE' },
  ],
  simulatedAcquirerLedger: [
    [keys.simulatedAcquirerLedger(at, 'test', 'idem_1'), keys.simulatedAcquirerLedger(at, 'live', 'idem_zz')],
    [
      { gsi1pk: 'SIMACQ#LEDGER#2026-03-04#7', gsi1sk: '2026-03-04T05:06:07.890Z#test#idem_1' },
      { gsi1pk: 'SIMACQ#LEDGER#2026-03-04#2', gsi1sk: '2026-03-04T05:06:07.890Z#live#idem_zz' },
    ],
  ],
  simulatedAcquirerLedgerPartition: [
    keys.simulatedAcquirerLedgerPartition('2026-03-04', 6),
    'SIMACQ#LEDGER#2026-03-04#6',
  ],
  simulatedAcquirerLedgerShards: [simulatedAcquirerLedgerShards, 8],
  attempt: [keys.attempt('att_1'), { pk: 'ATTEMPT#att_1', sk: 'ATTEMPT' }],
  attemptRecovery: [
    [keys.attemptRecovery('att_1', at), keys.attemptRecovery('att_zz', at)],
    [
      { gsi2pk: 'DUE#ATTEMPT#1', gsi2sk: '2026-03-04T05:06:07.890Z#att_1' },
      { gsi2pk: 'DUE#ATTEMPT#0', gsi2sk: '2026-03-04T05:06:07.890Z#att_zz' },
    ],
  ],
  attemptRecoveryPartition: [keys.attemptRecoveryPartition(0), 'DUE#ATTEMPT#0'],
  attemptOfDay: [
    [keys.attemptOfDay('att_1', at), keys.attemptOfDay('att_zz', at)],
    [
      { gsi1pk: 'ATTEMPTS#2026-03-04#1', gsi1sk: '2026-03-04T05:06:07.890Z#att_1' },
      { gsi1pk: 'ATTEMPTS#2026-03-04#4', gsi1sk: '2026-03-04T05:06:07.890Z#att_zz' },
    ],
  ],
  attemptDayPartition: [keys.attemptDayPartition('2026-03-04', 7), 'ATTEMPTS#2026-03-04#7'],
  attemptDayShards: [attemptDayShards, 8],
  mailSent: [keys.mailSent('evt_1', 'abc123'), { pk: 'MAIL_SENT#evt_1#abc123', sk: 'MAIL_SENT' }],
};

describe('table keys', () => {
  it.each(Object.entries(shapes))('%s builds the stored key', (_, [built, stored]) => {
    expect(built).toStrictEqual(stored);
  });

  it('has a stored shape for every builder', () => {
    expect(Object.keys(keys).filter((name) => !(name in shapes))).toEqual([]);
  });
});
