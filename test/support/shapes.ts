/** What answers look like, shared by the suites that check them: times, ids and the charge's list view. */
import { randomBytes } from 'node:crypto';

/** An ISO 8601 UTC time as the API writes it. */
export const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** `length` random letters and digits: the shape of an id or token that names nothing. */
export const randomAlnum = (length: number): string =>
  randomBytes(length * 2)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, length);

/**
 * The keys of a charge's list view (the documented ones, `payment_id`, what it pays for and what was
 * refunded of it), sorted.
 */
export const chargeListViewKeys = [
  'amount',
  'amount_refunded',
  'capture',
  'captured',
  'card_brand',
  'card_country',
  'card_exp_month',
  'card_exp_year',
  'card_last4',
  'created_on',
  'currency',
  'currency_local',
  'customer',
  'description',
  'exchange_original_local_to_usd',
  'exchange_original_payout_to_usd',
  'exchange_usd_to_local',
  'exchange_usd_to_payout',
  'fee',
  'id',
  'net',
  'net_currency',
  'payment_id',
  'payment_link_id',
  'product',
  'refund',
  'statement_description',
  'status',
  'subscription_id',
  'test',
];
