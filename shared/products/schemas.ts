/**
 * Product request fields, query and views. Create and update come as multipart forms (files
 * beside text fields); JSON and url-encoded bodies are taken too, for products without images.
 */
import * as v from 'valibot';
import { currencyCodes, findCurrency } from '../core/money/currencies.ts';
import { amountBoundsByCurrency } from '../core/money/fields.ts';
import { pageParameters, pageRequestOf } from '../core/pagination.ts';
import { digitsQuery, queryParameter, scaledDecimalQuery } from '../core/query.ts';
import * as rules from '../core/rules.ts';
import {
  booleanField,
  integerField,
  type Lines,
  modeField,
  plainText,
  textField,
} from '../core/validation.ts';
import { imageRule } from '../media/images.ts';
import { productRules } from './messages.ts';

export const productLimits = {
  name: 50,
  shortDescription: 100,
  description: 300,
  code: 64,
  maxStock: 1_000_000_000,
  additionalImages: 4,
  imageBytes: 10 * 1024 * 1024,
} as const;

/** Price filters compare prices of every currency at this many decimals (the most any has). */
export const priceScale = 3;

export const durationPeriods = [1, 2, 3, 4, 6, 12] as const;

/** The last day of the month a `specific_billing_day` recurrence may name (every month has it). */
export const maxPayday = 28;

const currency = v.pipe(
  plainText({ message: rules.currency }),
  v.trim(),
  v.toUpperCase(),
  v.check((code) => findCurrency(code) !== undefined, rules.currency),
  // The codes the check finds, in the case answers use (any case is taken).
  v.metadata({ enum: [...currencyCodes] }),
  v.description(`One of ${currencyCodes.join(', ')}; USD when absent.`),
);

const price = v.pipe(
  v.union([plainText(), v.number()], rules.amount),
  v.description(
    'Decimal at the currency precision ("10.50"; JPY "1000"; KWD "1.500"); more decimals is 400 (type danger).',
  ),
);

const recurrenceSchema = {
  oneOf: [
    {
      type: 'object',
      properties: { recurrence: { const: 'period' }, duration_period: { enum: [...durationPeriods] } },
      required: ['recurrence', 'duration_period'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        recurrence: { const: 'specific_billing_day' },
        payday: { type: 'integer', minimum: 1, maximum: maxPayday },
      },
      required: ['recurrence', 'payday'],
      additionalProperties: false,
    },
  ],
};
const recurrenceTextPattern = `^(?:|null|\\{"recurrence":"period","duration_period":(?:${durationPeriods.join('|')})\\}|\\{"recurrence":"specific_billing_day","payday":(?:[1-9]|1[0-9]|2[0-${maxPayday - 20}])\\})$`;

const optionalText = (max: number, lines: Lines = 'one') =>
  v.optional(textField(max, { allowEmpty: true, lines }));

const text = {
  short_description: optionalText(productLimits.shortDescription),
  description: optionalText(productLimits.description, 'many'),
  bar_code: optionalText(productLimits.code),
  sku: v.pipe(optionalText(productLimits.code), v.description('Searched, with the name, by `search`.')),
  taxes: v.optional(
    v.pipe(
      v.union([plainText(), v.array(v.union([plainText(), v.number()]))], productRules.tax_ids),
      v.description('Comma-separated tax ids ("1,2"); an id this account does not have is 400.'),
    ),
  ),
  recurrence: v.optional(
    v.pipe(
      v.unknown(),
      // What parseRecurrence takes: either object, as JSON or as its JSON text (shown here in the
      // compact form), or what clears it.
      v.metadata({
        anyOf: [recurrenceSchema, { type: 'null' }, { type: 'string', pattern: recurrenceTextPattern }],
      }),
      v.description(
        'JSON object as text: {"recurrence":"period","duration_period":1|2|3|4|6|12} or {"recurrence":"specific_billing_day","payday":1..28}; empty or "null" clears it.',
      ),
    ),
  ),
  stock: v.optional(integerField(0, productLimits.maxStock)),
  is_physical: v.optional(booleanField()),
  test: v.optional(modeField()),
  is_test: v.optional(modeField()),
};

/** The text fields of POST /v1/products/ (files, `image_default` and `images`, are read apart). */
// The service checks the price against its currency (priceOf): the document shows the same bounds.
const priceBounds = amountBoundsByCurrency('price', 'currency', 'USD', { minimum: false });

export const CreateProductSchema = v.pipe(
  v.strictObject({
    name: textField(productLimits.name),
    price,
    currency: v.optional(currency),
    ...text,
  }),
  v.metadata(priceBounds),
);
export type CreateProductInput = v.InferOutput<typeof CreateProductSchema>;

/** The text fields of PUT /v1/products/{id}/ (image flags, `default` and `additional_images`, apart). */
export const UpdateProductSchema = v.pipe(
  v.strictObject({
    name: v.optional(textField(productLimits.name)),
    price: v.optional(price),
    currency: v.optional(currency),
    payment_link: v.optional(booleanField()),
    ...text,
  }),
  v.metadata(priceBounds),
);
export type UpdateProductInput = v.InferOutput<typeof UpdateProductSchema>;

const file = v.pipe(
  plainText(),
  v.metadata({ format: 'binary' }),
  v.description(`A JPEG or PNG file (10 MB at most), checked by content: ${imageRule}.`),
);

/** The bodies as the OpenAPI document shows them, files included. */
export const CreateProductDocument = v.pipe(
  v.strictObject({
    ...CreateProductSchema.entries,
    image_default: v.optional(file),
    images: v.optional(v.pipe(v.array(file), v.description('At most 4 files.'))),
  }),
  v.metadata(priceBounds),
);
/** An image flag of PUT: keep (`-1`) or remove (`-remove-`) what is there, or a file to replace it. */
const imageFlag = (description: string) =>
  v.optional(v.pipe(v.union([v.picklist(['-1', '-remove-']), file]), v.description(description)));
export const UpdateProductDocument = v.pipe(
  v.strictObject({
    ...UpdateProductSchema.entries,
    default: imageFlag('-1 keeps the default image, -remove- removes it, a file replaces it.'),
    additional_images: imageFlag('-1 keeps, -remove- removes all, files (at most 4) replace them.'),
  }),
  v.metadata(priceBounds),
);

/** The query of GET /v1/products/: paging and filters that combine with AND. */
export const ProductListQuerySchema = v.pipe(
  v.object({
    search: queryParameter('string', 'Case-insensitive substring of the name or the SKU.', v.string()),
    type: queryParameter(
      'string',
      '`physical` or `digital`.',
      v.pipe(v.string(), v.toLowerCase(), v.picklist(['physical', 'digital'])),
    ),
    stock_min: queryParameter('integer', 'Least stock, inclusive.', digitsQuery()),
    stock_max: queryParameter('integer', 'Most stock, inclusive.', digitsQuery()),
    price_min: queryParameter(
      'string',
      "Lowest price, inclusive, in each product's own currency.",
      scaledDecimalQuery(priceScale),
    ),
    price_max: queryParameter(
      'string',
      "Highest price, inclusive, in each product's own currency.",
      scaledDecimalQuery(priceScale),
    ),
    ...pageParameters(),
  }),
  v.transform((query) => ({
    page: pageRequestOf(query),
    filters: {
      search: query.search,
      physical: query.type === undefined ? undefined : query.type === 'physical',
      stockMin: query.stock_min,
      stockMax: query.stock_max,
      priceMin: query.price_min,
      priceMax: query.price_max,
    },
  })),
);
export type ProductListQuery = v.InferOutput<typeof ProductListQuerySchema>;
export type ProductFilters = ProductListQuery['filters'];

const nullableString = v.nullable(v.string());

export const RecurrenceSchema = v.union([
  v.strictObject({ recurrence: v.literal('period'), duration_period: v.picklist(durationPeriods) }),
  v.strictObject({ recurrence: v.literal('specific_billing_day'), payday: v.number() }),
]);
export type Recurrence = v.InferOutput<typeof RecurrenceSchema>;

export const ProductViewSchema = v.strictObject({
  id: v.pipe(v.string(), v.uuid()),
  name: v.string(),
  short_description: v.string(),
  description: v.string(),
  stock: v.number(),
  price: v.pipe(v.string(), v.description('Decimal at the currency precision.')),
  currency: v.string(),
  total_price: v.pipe(
    v.string(),
    v.description("price × (100 + the taxes' percents) / 100, rounded half-up once."),
  ),
  is_physical: v.boolean(),
  bar_code: v.string(),
  sku: v.string(),
  recurrence: v.nullable(RecurrenceSchema),
  images: v.strictObject({
    default: nullableString,
    additional_images: v.array(v.strictObject({ image: v.string() })),
  }),
  payment_link: v.boolean(),
  created_on: v.string(),
  test: v.boolean(),
  taxes: v.array(v.strictObject({ id: v.number(), name: v.string(), value: v.number() })),
});
export type ProductView = v.InferOutput<typeof ProductViewSchema>;

export const ProductUpdatedSchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  description: v.string(),
  price: v.string(),
  stock: v.number(),
  total_price: v.string(),
});
