/** Request schemas of the payment links API (docs/design.md#payment-links). */
import * as v from 'valibot';
import { currencyCodes, findCurrency } from '../core/money/currencies.ts';
import { amountBoundsByCurrency } from '../core/money/fields.ts';
import { pageParameters, pageRequestOf } from '../core/pagination.ts';
import * as rules from '../core/rules.ts';
import {
  booleanField,
  emailFormat,
  maxEmailLength,
  modeField,
  nonBlank,
  plainText,
  textField,
} from '../core/validation.ts';
import { customerLimits } from '../customers/schemas.ts';
import { linkStatuses } from './link.ts';

/** The currency of a link that names none. */
const defaultLinkCurrency = 'USD';

export const linkLimits = { description: 300, customers: 25, id: 100 } as const;

const id = v.pipe(plainText(), nonBlank(), v.trim(), v.minLength(1), v.maxLength(linkLimits.id));

/**
 * A customer of a new link: an id (a string, or `id`/`customer`), or `first_name`, `last_name` and
 * `email` together (a customer with that e-mail is reused, or created).
 */
const CustomerRefSchema = v.union([
  id,
  v.pipe(
    v.strictObject({
      id: v.optional(v.nullable(id)),
      customer: v.optional(v.nullable(id)),
      first_name: v.optional(v.nullable(textField(customerLimits.name, { allowEmpty: true }))),
      last_name: v.optional(v.nullable(textField(customerLimits.name, { allowEmpty: true }))),
      email: v.optional(
        // The service checks it is an address (isEmail) once the customer is resolved.
        v.nullable(
          v.pipe(plainText(), v.trim(), v.maxLength(maxEmailLength), v.toLowerCase(), emailFormat()),
        ),
      ),
    }),
    // What the service requires of an object (resolveCustomers): an id, or the three fields filled.
    v.metadata({
      anyOf: [
        { required: ['id'], properties: { id: { type: 'string', pattern: '\\S' } } },
        { required: ['customer'], properties: { customer: { type: 'string', pattern: '\\S' } } },
        {
          required: ['first_name', 'last_name', 'email'],
          properties: {
            first_name: { type: 'string', pattern: '\\S' },
            last_name: { type: 'string', pattern: '\\S' },
            email: { type: 'string' },
          },
        },
      ],
    }),
  ),
]);
export type CustomerRef = v.InferOutput<typeof CustomerRefSchema>;

export const CreatePaymentLinkSchema = v.pipe(
  v.strictObject({
    description: v.pipe(
      plainText({ lines: 'many' }),
      nonBlank(),
      v.trim(),
      v.minLength(1),
      v.maxLength(linkLimits.description),
      v.description('What the customer pays for; shown on the link page. Missing: 406 Missing Data.'),
    ),
    amount: v.pipe(
      v.union([plainText(), v.number()], rules.amount),
      v.description(
        'Decimal in major units, a string ("10.50") or a JSON number, at the currency precision; at least the equivalent of USD 1.00.',
      ),
    ),
    currency: v.optional(
      v.pipe(
        plainText({ message: rules.currency }),
        v.trim(),
        v.toUpperCase(),
        v.check((code) => findCurrency(code) !== undefined, rules.currency),
        // The codes the check finds, in the case answers use (any case is taken).
        v.metadata({ enum: [...currencyCodes] }),
        v.description(`One of ${currencyCodes.join(', ')} (default USD).`),
      ),
      defaultLinkCurrency,
    ),
    customers: v.optional(
      v.pipe(
        v.array(CustomerRefSchema),
        v.maxLength(linkLimits.customers),
        v.description(
          `Up to ${linkLimits.customers} customers, one link each: ids, or objects with id, customer, or first_name, last_name and email.`,
        ),
      ),
      [],
    ),
    test: v.optional(modeField()),
    is_test: v.optional(modeField()),
  }),
  // The service checks the amount against its currency (amountField, assertMinimum): the document
  // shows the same bounds per currency.
  v.metadata(amountBoundsByCurrency('amount', 'currency', defaultLinkCurrency)),
);
export type CreatePaymentLinkInput = v.InferOutput<typeof CreatePaymentLinkSchema>;

export const UpdatePaymentLinkSchema = v.strictObject({
  product: v.optional(v.nullable(id)),
  customer: v.optional(v.nullable(id)),
  active: v.optional(booleanField()),
  recurring: v.optional(booleanField()),
  next_date_of_payment: v.optional(
    v.nullable(
      v.pipe(
        plainText(),
        v.maxLength(40),
        // A date that exists (parseInterfaceDate refuses 2026-02-30); the pattern shows days to 28.
        v.metadata({
          pattern:
            '^(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8]) (?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$',
        }),
        v.description('`YYYY-MM-DD HH:MM:SS`, UTC, a date that exists.'),
      ),
    ),
  ),
  status: v.optional(
    v.pipe(
      plainText(),
      v.maxLength(40),
      v.description(`One of ${linkStatuses.join(', ')}.`),
      // The service takes these, in any case.
      v.metadata({ enum: [...linkStatuses] }),
    ),
  ),
  test: v.optional(modeField()),
  is_test: v.optional(modeField()),
});
export type UpdatePaymentLinkInput = v.InferOutput<typeof UpdatePaymentLinkSchema>;

export const LinkListQuerySchema = v.pipe(
  v.object({ ...pageParameters() }),
  v.transform(({ page, page_size }) => ({ page: pageRequestOf({ page, page_size }) })),
);

/** What creation answers: one link, or one per customer. */
export const CreatedLinkSchema = v.strictObject({ id: v.string(), link: v.string() });
export const CreatedCustomerLinkSchema = v.strictObject({
  id: v.string(),
  customer: v.string(),
  customer_name: v.string(),
  link: v.string(),
});
