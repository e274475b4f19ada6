/**
 * The exact strings stored items carry. Every key builder, in whichever area or port owns it, is
 * called with fixed arguments and its answer compared with the literal keys of items already in
 * tables: changing one would strand every item stored under the old key, so a key that changes
 * here is a migration, never a refactor.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { accountKeys } from '../accounts/keys.ts';
import { connectionKeys, simulatedKeys, simulatedLedgerShards } from '../acquirer/keys.ts';
import { attemptDayShards, attemptKeys } from '../attempts/keys.ts';
import { chargeKeys, payoutShards } from '../charges/keys.ts';
import { checkoutKeys } from '../checkout/keys.ts';
import { connectorKeys } from '../connectors/keys.ts';
import { customerKeys } from '../customers/keys.ts';
import { dashboardKeys } from '../dashboard/keys.ts';
import { eventKeys } from '../events/keys.ts';
import { httpKeys } from '../http/keys.ts';
import { mailKeys } from '../mail/keys.ts';
import { linkKeys } from '../payment-links/keys.ts';
import { paymentKeys } from '../payments/keys.ts';
import { planKeys } from '../plans/keys.ts';
import { portalKeys } from '../portal/keys.ts';
import { productKeys } from '../products/keys.ts';
import { receiptKeys } from '../receipts/keys.ts';
import { refundKeys } from '../refunds/keys.ts';
import { statsKeys } from '../stats/keys.ts';
import { subscriptionKeys } from '../subscriptions/keys.ts';
import { taxKeys } from '../taxes/keys.ts';
import { teamKeys } from '../team/keys.ts';
import { webhookKeys } from '../webhooks/keys.ts';
import { dueShards, probeKey, searchKeys } from './keys.ts';

const at = '2026-03-04T05:06:07.890Z';

/** Each builder: what it answers now, and what stored items hold. */
const shapes: Record<string, [built: unknown, stored: unknown]> = {
  'accountKeys.account': [accountKeys.account(42), { pk: 'ACCOUNT#42', sk: 'ACCOUNT' }],
  'accountKeys.email': [
    accountKeys.email('Ada@Example.COM'),
    { pk: 'ACCOUNT_EMAIL#ada@example.com', sk: 'ACCOUNT_EMAIL' },
  ],
  'accountKeys.sequence': [accountKeys.sequence(), { pk: 'SEQUENCE#ACCOUNT', sk: 'SEQUENCE' }],
  'accountKeys.apiKey': [accountKeys.apiKey('9f86d081'), { pk: 'APIKEY#9f86d081', sk: 'APIKEY' }],
  'accountKeys.client': [accountKeys.client('cl_abc'), { pk: 'CLIENT#cl_abc', sk: 'CLIENT' }],
  'planKeys.plan': [
    planKeys.plan(42, 'test', 'gold-2026'),
    { pk: 'ACCOUNT#42#test#PLAN#gold-2026', sk: 'PLAN' },
  ],
  'planKeys.inList': [
    planKeys.inList(42, 'live', at, 'gold-2026'),
    { gsi1pk: 'ACCOUNT#42#live#PLANS', gsi1sk: 'PLAN#2026-03-04T05:06:07.890Z#gold-2026' },
  ],
  'planKeys.count': [
    planKeys.count(42, 'test'),
    { pk: 'ACCOUNT#42#test#PLANS', sk: 'COUNT', gsi1pk: 'ACCOUNT#42#test#PLANS', gsi1sk: 'PLAN~COUNT' },
  ],
  'httpKeys.idempotency': [
    httpKeys.idempotency(42, 'live', 'key #1'),
    { pk: 'ACCOUNT#42#live#IDEMPOTENCY#key #1', sk: 'IDEMPOTENCY' },
  ],
  'paymentKeys.payment': [
    paymentKeys.payment(42, 'test', 'pay_1'),
    { pk: 'ACCOUNT#42#test#PAYMENT#pay_1', sk: 'PAYMENT' },
  ],
  'checkoutKeys.session': [checkoutKeys.session('tok_abc'), { pk: 'CHECKOUT#tok_abc', sk: 'CHECKOUT' }],
  'receiptKeys.link': [receiptKeys.link('9f86d081'), { pk: 'RECEIPT#9f86d081', sk: 'RECEIPT' }],
  'chargeKeys.charge': [
    chargeKeys.charge(42, 'live', 'ch_1'),
    { pk: 'ACCOUNT#42#live#CHARGE#ch_1', sk: 'CHARGE' },
  ],
  'chargeKeys.inList': [
    chargeKeys.inList(42, 'live', at, 'ch_1'),
    { gsi1pk: 'ACCOUNT#42#live#CHARGES', gsi1sk: 'CHARGE#2026-03-04T05:06:07.890Z#ch_1' },
  ],
  'chargeKeys.before': [chargeKeys.before(at), 'CHARGE#2026-03-04T05:06:07.890Z'],
  'chargeKeys.listPrefix': [chargeKeys.listPrefix, 'CHARGE#'],
  'chargeKeys.ofCustomer': [
    chargeKeys.ofCustomer(42, 'live', 'cus_1', at, 'ch_1'),
    { gsi3pk: 'ACCOUNT#42#live#CUSTOMER#cus_1', gsi3sk: 'CHARGE#2026-03-04T05:06:07.890Z#ch_1' },
  ],
  'chargeKeys.payoutDue': [
    [
      chargeKeys.payoutDue('ch_1', at),
      chargeKeys.payoutDue('ch_abcdef', at),
      chargeKeys.payoutDue('ch_é😀', at),
    ],
    [
      { gsi2pk: 'PAYOUT_DUE#3', gsi2sk: '2026-03-04T05:06:07.890Z#ch_1' },
      { gsi2pk: 'PAYOUT_DUE#7', gsi2sk: '2026-03-04T05:06:07.890Z#ch_abcdef' },
      // A shard adds the first UTF-16 unit of each character (an emoji counts its high surrogate).
      { gsi2pk: 'PAYOUT_DUE#0', gsi2sk: '2026-03-04T05:06:07.890Z#ch_é😀' },
    ],
  ],
  'chargeKeys.payoutPartition': [chargeKeys.payoutPartition(5), 'PAYOUT_DUE#5'],
  payoutShards: [payoutShards, 8],
  'refundKeys.refund': [
    refundKeys.refund(42, 'test', 're_1'),
    { pk: 'ACCOUNT#42#test#REFUND#re_1', sk: 'REFUND' },
  ],
  'refundKeys.inLists': [
    refundKeys.inLists(42, 'test', 'ch_1', at, 're_1'),
    {
      gsi1pk: 'ACCOUNT#42#test#REFUNDS',
      gsi1sk: 'REFUND#2026-03-04T05:06:07.890Z#re_1',
      gsi2pk: 'ACCOUNT#42#test#CHARGE_REFUNDS#ch_1',
      gsi2sk: 'REFUND#2026-03-04T05:06:07.890Z#re_1',
    },
  ],
  'refundKeys.ofCharge': [refundKeys.ofCharge(42, 'test', 'ch_1'), 'ACCOUNT#42#test#CHARGE_REFUNDS#ch_1'],
  'refundKeys.list': [refundKeys.list(42, 'live'), 'ACCOUNT#42#live#REFUNDS'],
  'customerKeys.customer': [
    customerKeys.customer(42, 'test', 'cus_1'),
    { pk: 'ACCOUNT#42#test#CUSTOMER#cus_1', sk: 'CUSTOMER' },
  ],
  'customerKeys.inList': [
    customerKeys.inList(42, 'test', at, 'cus_1'),
    { gsi1pk: 'ACCOUNT#42#test#CUSTOMERS', gsi1sk: 'CUSTOMER#2026-03-04T05:06:07.890Z#cus_1' },
  ],
  'customerKeys.count': [
    customerKeys.count(42, 'live'),
    {
      pk: 'ACCOUNT#42#live#CUSTOMERS',
      sk: 'COUNT',
      gsi1pk: 'ACCOUNT#42#live#CUSTOMERS',
      gsi1sk: 'CUSTOMER~COUNT',
    },
  ],
  'customerKeys.address': [
    customerKeys.address(42, 'test', 'cus_1', 'addr_1'),
    { pk: 'ACCOUNT#42#test#CUSTOMER#cus_1', sk: 'ADDRESS#addr_1' },
  ],
  'customerKeys.addressPrefix': [customerKeys.addressPrefix, 'ADDRESS#'],
  'customerKeys.email': [
    customerKeys.email(42, 'test', 'Ada@Example.COM'),
    { pk: 'ACCOUNT#42#test#CUSTOMER_EMAIL#ada@example.com', sk: 'CUSTOMER_EMAIL' },
  ],
  'searchKeys.partition': [
    [
      searchKeys.partition(42, 'test', 'customer', 'ada'),
      searchKeys.partition(42, 'test', 'plan', '😀x'),
      searchKeys.partition(42, 'test', 'plan', ''),
    ],
    ['ACCOUNT#42#test#SEARCH#customer#a', 'ACCOUNT#42#test#SEARCH#plan#😀', 'ACCOUNT#42#test#SEARCH#plan#'],
  ],
  'searchKeys.entry': [
    searchKeys.entry(42, 'live', 'product', 'ada', 'prod_1'),
    { pk: 'ACCOUNT#42#live#SEARCH#product#a', sk: 'ada\u001fprod_1' },
  ],
  'searchKeys.separator': [searchKeys.separator, '\u001f'],
  'taxKeys.tax': [taxKeys.tax(42, 'test', 7), { pk: 'ACCOUNT#42#test#TAX#7', sk: 'TAX' }],
  'taxKeys.inList': [
    taxKeys.inList(42, 'test', at, 7),
    { gsi1pk: 'ACCOUNT#42#test#TAXES', gsi1sk: 'TAX#2026-03-04T05:06:07.890Z#7' },
  ],
  'taxKeys.list': [taxKeys.list(42, 'test'), 'ACCOUNT#42#test#TAXES'],
  'taxKeys.sequence': [taxKeys.sequence(42), { pk: 'ACCOUNT#42', sk: 'SEQUENCE#TAX' }],
  'productKeys.product': [
    productKeys.product(42, 'test', 'prod_1'),
    { pk: 'ACCOUNT#42#test#PRODUCT#prod_1', sk: 'PRODUCT' },
  ],
  'productKeys.inList': [
    productKeys.inList(42, 'test', at, 'prod_1'),
    { gsi1pk: 'ACCOUNT#42#test#PRODUCTS', gsi1sk: 'PRODUCT#2026-03-04T05:06:07.890Z#prod_1' },
  ],
  'productKeys.count': [
    productKeys.count(42, 'test'),
    {
      pk: 'ACCOUNT#42#test#PRODUCTS',
      sk: 'COUNT',
      gsi1pk: 'ACCOUNT#42#test#PRODUCTS',
      gsi1sk: 'PRODUCT~COUNT',
    },
  ],
  'eventKeys.event': [eventKeys.event('evt_1'), { pk: 'EVENT#evt_1', sk: 'EVENT' }],
  'eventKeys.inList': [
    eventKeys.inList(42, 'test', at, 'evt_1'),
    { gsi1pk: 'ACCOUNT#42#test#EVENTS', gsi1sk: 'EVENT#2026-03-04T05:06:07.890Z#evt_1' },
  ],
  'eventKeys.ofType': [
    eventKeys.ofType(42, 'test', 'payment.succeeded', at, 'evt_1'),
    { gsi2pk: 'ACCOUNT#42#test#EVENTS#payment.succeeded', gsi2sk: 'EVENT#2026-03-04T05:06:07.890Z#evt_1' },
  ],
  'eventKeys.internalOfType': [
    eventKeys.internalOfType(42, 'test', 'card.declined', at, 'evt_1'),
    { gsi2pk: 'ACCOUNT#42#test#INTERNAL#card.declined', gsi2sk: 'EVENT#2026-03-04T05:06:07.890Z#evt_1' },
  ],
  'eventKeys.listPrefix': [eventKeys.listPrefix, 'EVENT#'],
  'subscriptionKeys.subscription': [
    subscriptionKeys.subscription(42, 'test', 'sub_1'),
    { pk: 'ACCOUNT#42#test#SUBSCRIPTION#sub_1', sk: 'SUBSCRIPTION' },
  ],
  'subscriptionKeys.inList': [
    subscriptionKeys.inList(42, 'test', at, 'sub_1'),
    { gsi1pk: 'ACCOUNT#42#test#SUBSCRIPTIONS', gsi1sk: 'SUBSCRIPTION#2026-03-04T05:06:07.890Z#sub_1' },
  ],
  'subscriptionKeys.listPrefix': [subscriptionKeys.listPrefix, 'SUBSCRIPTION#'],
  'subscriptionKeys.ofCustomer': [
    subscriptionKeys.ofCustomer(42, 'test', 'cus_1', at, 'sub_1'),
    { gsi3pk: 'ACCOUNT#42#test#CUSTOMER#cus_1', gsi3sk: 'SUBSCRIPTION#2026-03-04T05:06:07.890Z#sub_1' },
  ],
  'subscriptionKeys.ofPlan': [
    subscriptionKeys.ofPlan(42, 'test', 'gold', at, 'sub_1'),
    {
      gsi2pk: 'ACCOUNT#42#test#PLAN#gold#SUBSCRIPTIONS',
      gsi2sk: 'SUBSCRIPTION#2026-03-04T05:06:07.890Z#sub_1',
    },
  ],
  'subscriptionKeys.due': [
    [subscriptionKeys.due('sub_1', at), subscriptionKeys.due('sub_xyz', at)],
    [
      { pk: 'DUE#BILLING#2', sk: '2026-03-04T05:06:07.890Z#sub_1' },
      { pk: 'DUE#BILLING#0', sk: '2026-03-04T05:06:07.890Z#sub_xyz' },
    ],
  ],
  'subscriptionKeys.duePartition': [subscriptionKeys.duePartition(3), 'DUE#BILLING#3'],
  'linkKeys.link': [linkKeys.link(42, 'test', 'link_1'), { pk: 'ACCOUNT#42#test#LINK#link_1', sk: 'LINK' }],
  'linkKeys.log': [
    linkKeys.log(42, 'test', 'link_1', at, 'log_1'),
    { pk: 'ACCOUNT#42#test#LINK#link_1', sk: 'LOG#2026-03-04T05:06:07.890Z#log_1' },
  ],
  'linkKeys.inList': [
    linkKeys.inList(42, 'test', at, 'link_1'),
    { gsi1pk: 'ACCOUNT#42#test#LINKS', gsi1sk: 'LINK#2026-03-04T05:06:07.890Z#link_1' },
  ],
  'linkKeys.count': [
    linkKeys.count(42, 'test'),
    { pk: 'ACCOUNT#42#test#LINKS', sk: 'COUNT', gsi1pk: 'ACCOUNT#42#test#LINKS', gsi1sk: 'LINK~COUNT' },
  ],
  'linkKeys.due': [
    [linkKeys.due('link_1', at), linkKeys.due('link_zz', at)],
    [
      { pk: 'DUE#LINK#2', sk: '2026-03-04T05:06:07.890Z#link_1' },
      { pk: 'DUE#LINK#1', sk: '2026-03-04T05:06:07.890Z#link_zz' },
    ],
  ],
  'linkKeys.duePartition': [linkKeys.duePartition(2), 'DUE#LINK#2'],
  dueShards: [dueShards, 4],
  'webhookKeys.endpoint': [
    webhookKeys.endpoint(42, 'test', 'we_1'),
    { pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1', sk: 'WEBHOOK_ENDPOINT' },
  ],
  'webhookKeys.endpointInList': [
    webhookKeys.endpointInList(42, 'test', at, 'we_1'),
    { gsi1pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINTS', gsi1sk: 'WEBHOOK_ENDPOINT#2026-03-04T05:06:07.890Z#we_1' },
  ],
  'webhookKeys.endpointCount': [
    webhookKeys.endpointCount(42, 'test'),
    {
      pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINTS',
      sk: 'COUNT',
      gsi1pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINTS',
      gsi1sk: 'WEBHOOK_ENDPOINT~COUNT',
    },
  ],
  'webhookKeys.task': [
    webhookKeys.task(42, 'test', 'we_1', 'evt_1', '0'),
    { pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1', sk: 'TASK#evt_1#0' },
  ],
  'webhookKeys.taskDue': [
    [webhookKeys.taskDue('task_1', at), webhookKeys.taskDue('task_zz', at)],
    [
      { gsi2pk: 'DUE#WEBHOOK#3', gsi2sk: '2026-03-04T05:06:07.890Z#task_1' },
      { gsi2pk: 'DUE#WEBHOOK#2', gsi2sk: '2026-03-04T05:06:07.890Z#task_zz' },
    ],
  ],
  'webhookKeys.leasedDue': [
    webhookKeys.leasedDue(at, 'TASK#evt_1#0'),
    '2026-03-04T05:06:07.890Z#TASK#evt_1#0',
  ],
  'webhookKeys.taskDuePartition': [webhookKeys.taskDuePartition(1), 'DUE#WEBHOOK#1'],
  'webhookKeys.deliveryInList': [
    webhookKeys.deliveryInList(42, 'test', 'we_1', at, 'del_1'),
    {
      pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1',
      sk: 'DELIVERY#2026-03-04T05:06:07.890Z#del_1',
      gsi1pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1#DELIVERIES',
      gsi1sk: 'DELIVERY#2026-03-04T05:06:07.890Z#del_1',
    },
  ],
  'webhookKeys.deliveryCount': [
    webhookKeys.deliveryCount(42, 'test', 'we_1'),
    {
      pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1',
      sk: 'DELIVERY~COUNT',
      gsi1pk: 'ACCOUNT#42#test#WEBHOOK_ENDPOINT#we_1#DELIVERIES',
      gsi1sk: 'DELIVERY~COUNT',
    },
  ],
  'webhookKeys.redeliveryCounter': [
    [webhookKeys.redeliveryCounter(42, 'test', 'evt_1'), webhookKeys.redeliveryCounter(42, 'live')],
    [
      { pk: 'ACCOUNT#42#test#REDELIVERIES', sk: 'EVENT#evt_1' },
      { pk: 'ACCOUNT#42#live#REDELIVERIES', sk: 'ACCOUNT' },
    ],
  ],
  'webhookKeys.deadLetter': [
    webhookKeys.deadLetter(at, 'task_1'),
    { pk: 'WEBHOOK_DEAD_LETTERS#2026-03-04', sk: '2026-03-04T05:06:07.890Z#task_1' },
  ],
  'simulatedKeys.operation': [
    simulatedKeys.operation('live', 'idem_1'),
    { pk: 'SIMACQ#live#OPERATION#idem_1', sk: 'OPERATION' },
  ],
  'simulatedKeys.charge': [
    simulatedKeys.charge('test', 'ref_1'),
    { pk: 'SIMACQ#test#CHARGE#ref_1', sk: 'CHARGE' },
  ],
  'simulatedKeys.ledger': [
    [simulatedKeys.ledger(at, 'test', 'idem_1'), simulatedKeys.ledger(at, 'live', 'idem_zz')],
    [
      { gsi1pk: 'SIMACQ#LEDGER#2026-03-04#7', gsi1sk: '2026-03-04T05:06:07.890Z#test#idem_1' },
      { gsi1pk: 'SIMACQ#LEDGER#2026-03-04#2', gsi1sk: '2026-03-04T05:06:07.890Z#live#idem_zz' },
    ],
  ],
  'simulatedKeys.ledgerPartition': [
    simulatedKeys.ledgerPartition('2026-03-04', 6),
    'SIMACQ#LEDGER#2026-03-04#6',
  ],
  simulatedLedgerShards: [simulatedLedgerShards, 8],
  'connectorKeys.stripeEvent': [
    connectorKeys.stripeEvent(42, 'live', 'evt_1'),
    { pk: 'ACCOUNT#42#live#STRIPE_EVENT#evt_1', sk: 'STRIPE_EVENT' },
  ],
  'connectorKeys.dispute': [
    connectorKeys.dispute(42, 'test', 'dp_1'),
    { pk: 'ACCOUNT#42#test#DISPUTE#dp_1', sk: 'DISPUTE' },
  ],
  'connectorKeys.disputeOfCharge': [
    connectorKeys.disputeOfCharge(42, 'live', 'ch_1', at, 'dp_1'),
    { gsi1pk: 'ACCOUNT#42#live#CHARGE_DISPUTES#ch_1', gsi1sk: '2026-03-04T05:06:07.890Z#dp_1' },
  ],
  'connectionKeys.connection': [
    connectionKeys.connection(42, 'live'),
    { pk: 'ACCOUNT#42', sk: 'CONNECTION#live' },
  ],
  'connectionKeys.stripeListed': [
    connectionKeys.stripeListed(42, 'test'),
    { gsi1pk: 'CONNECTIONS#stripe', gsi1sk: '000000000042#test' },
  ],
  'connectionKeys.stripeConnectionsPartition': [
    connectionKeys.stripeConnectionsPartition,
    'CONNECTIONS#stripe',
  ],
  'attemptKeys.attempt': [attemptKeys.attempt('att_1'), { pk: 'ATTEMPT#att_1', sk: 'ATTEMPT' }],
  'attemptKeys.recovery': [
    [attemptKeys.recovery('att_1', at), attemptKeys.recovery('att_zz', at)],
    [
      { gsi2pk: 'DUE#ATTEMPT#1', gsi2sk: '2026-03-04T05:06:07.890Z#att_1' },
      { gsi2pk: 'DUE#ATTEMPT#0', gsi2sk: '2026-03-04T05:06:07.890Z#att_zz' },
    ],
  ],
  'attemptKeys.recoveryPartition': [attemptKeys.recoveryPartition(0), 'DUE#ATTEMPT#0'],
  'attemptKeys.ofDay': [
    [attemptKeys.ofDay('att_1', at), attemptKeys.ofDay('att_zz', at)],
    [
      { gsi1pk: 'ATTEMPTS#2026-03-04#1', gsi1sk: '2026-03-04T05:06:07.890Z#att_1' },
      { gsi1pk: 'ATTEMPTS#2026-03-04#4', gsi1sk: '2026-03-04T05:06:07.890Z#att_zz' },
    ],
  ],
  'attemptKeys.dayPartition': [attemptKeys.dayPartition('2026-03-04', 7), 'ATTEMPTS#2026-03-04#7'],
  attemptDayShards: [attemptDayShards, 8],
  'portalKeys.link': [portalKeys.link('abc123'), { pk: 'PORTAL#abc123', sk: 'PORTAL' }],
  'statsKeys.partition': [statsKeys.partition(42, 'test'), 'ACCOUNT#42#test#STATS'],
  'statsKeys.day': [
    statsKeys.day(42, 'live', '2026-03-04'),
    { pk: 'ACCOUNT#42#live#STATS', sk: 'DAY#2026-03-04' },
  ],
  'statsKeys.daySort': [statsKeys.daySort('2026-03-04'), 'DAY#2026-03-04'],
  'statsKeys.gauge': [statsKeys.gauge(42, 'test'), { pk: 'ACCOUNT#42#test#STATS', sk: 'GAUGE' }],
  'statsKeys.subscription': [
    statsKeys.subscription(42, 'test', 'sub_abc'),
    { pk: 'ACCOUNT#42#test#STATS#SUB#sub_abc', sk: 'STATS_SUB' },
  ],
  'statsKeys.counted': [statsKeys.counted('evt_abc'), { pk: 'STATS_COUNTED#evt_abc', sk: 'STATS_COUNTED' }],
  'portalKeys.cancel': [portalKeys.cancel('abc123', 'sub_1'), { pk: 'PORTAL#abc123', sk: 'CANCEL#sub_1' }],
  'dashboardKeys.session': [
    dashboardKeys.session('abc123'),
    { pk: 'DASHBOARD_SESSION#abc123', sk: 'DASHBOARD_SESSION' },
  ],
  'dashboardKeys.form': [
    dashboardKeys.form(42, 'test', 'abc123'),
    { pk: 'ACCOUNT#42#test#DASHBOARD_FORM#abc123', sk: 'DASHBOARD_FORM' },
  ],
  'dashboardKeys.signInFailures': [
    dashboardKeys.signInFailures('abc123', 1_772_600_400_000),
    { pk: 'DASHBOARD_SIGN_IN#abc123', sk: 'WINDOW#1772600400000' },
  ],
  'mailKeys.sent': [mailKeys.sent('evt_1', 'abc123'), { pk: 'MAIL_SENT#evt_1#abc123', sk: 'MAIL_SENT' }],
  'teamKeys.user': [teamKeys.user('usr_abc'), { pk: 'USER#usr_abc', sk: 'USER' }],
  'teamKeys.inUserList': [
    teamKeys.inUserList(42, 'ada@example.com'),
    { gsi1pk: 'ACCOUNT#42#USERS', gsi1sk: 'USER#ada@example.com' },
  ],
  'teamKeys.userList': [teamKeys.userList(42), { partition: 'ACCOUNT#42#USERS', prefix: 'USER#' }],
  'teamKeys.email': [
    teamKeys.email('Ada@Example.COM'),
    { pk: 'USER_EMAIL#ada@example.com', sk: 'USER_EMAIL' },
  ],
  'teamKeys.admins': [teamKeys.admins(42), { pk: 'ACCOUNT#42', sk: 'USER_ADMINS' }],
  'teamKeys.lock': [teamKeys.lock('abc123'), { pk: 'USER_LOCK#abc123', sk: 'USER_LOCK' }],
  'teamKeys.link': [teamKeys.link('abc123'), { pk: 'USER_LINK#abc123', sk: 'USER_LINK' }],
  'teamKeys.challenge': [teamKeys.challenge('abc123'), { pk: 'USER_CHALLENGE#abc123', sk: 'USER_CHALLENGE' }],
  'teamKeys.audit': [teamKeys.audit(42, at, 'abc123'), { pk: 'ACCOUNT#42#AUDIT', sk: `AUDIT#${at}#abc123` }],
  'teamKeys.auditOnce': [
    teamKeys.auditOnce(42, 'refund.create', 'abc123'),
    { pk: 'ACCOUNT#42#AUDIT_ONCE#refund.create#abc123', sk: 'AUDIT_ONCE' },
  ],
  'teamKeys.auditLog': [teamKeys.auditLog(42), { partition: 'ACCOUNT#42#AUDIT', prefix: 'AUDIT#' }],
  // The gsi1 sort-key prefixes of counted lists and the payment log (records sort as `<tag>#…`).
  'planKeys.listTag': [planKeys.listTag, 'PLAN'],
  'customerKeys.listTag': [customerKeys.listTag, 'CUSTOMER'],
  'productKeys.listTag': [productKeys.listTag, 'PRODUCT'],
  'linkKeys.listTag': [linkKeys.listTag, 'LINK'],
  'linkKeys.logPrefix': [linkKeys.logPrefix, 'LOG#'],
  'webhookKeys.endpointListTag': [webhookKeys.endpointListTag, 'WEBHOOK_ENDPOINT'],
  'webhookKeys.deliveryListTag': [webhookKeys.deliveryListTag, 'DELIVERY'],
  // Read by the health probe, never stored: account 0's record.
  probeKey: [probeKey, { pk: 'ACCOUNT#0', sk: 'ACCOUNT' }],
};

const sharedRoot = join(import.meta.dirname, '..');

describe('table keys', () => {
  it.each(Object.entries(shapes))('%s builds the stored key', (_, [built, stored]) => {
    expect(built).toStrictEqual(stored);
  });

  it('has a stored shape for every builder of every owner', async () => {
    // Every keys module of shared/ is an owner, found on disk: a new area's keys need no list here.
    const modules = readdirSync(sharedRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(sharedRoot, entry.name, 'keys.ts')))
      .map((entry) => join(sharedRoot, entry.name, 'keys.ts'));
    const owners: Record<string, Record<string, unknown>> = {};
    for (const file of modules) {
      const exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported)) {
        if (/Keys$/.test(name) && typeof value === 'object' && value !== null)
          owners[name] = value as Record<string, unknown>;
      }
    }
    expect(Object.keys(owners).length).toBeGreaterThanOrEqual(18);
    const builders = Object.entries(owners).flatMap(([owner, members]) =>
      Object.keys(members).map((member) => `${owner}.${member}`),
    );
    expect(builders.filter((name) => !(name in shapes))).toEqual([]);
  });
});
