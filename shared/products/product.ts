/**
 * The product: what is stored, how a form becomes one, its rules (recurrence, taxes, total price,
 * images) and how it is answered. Pure functions; storage is in ./repository.ts.
 */
import { assertModeFlags, type Mode } from '../core/account.ts';
import { Invalid } from '../core/errors.ts';
import { formatAmount, scaled } from '../core/money/amount.ts';
import { type Currency, findCurrency } from '../core/money/currencies.ts';
import { amountField, currencyOf } from '../core/money/fields.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput, type Problem } from '../core/validation.ts';
import { type ImageInput, imageUrl, type StoredImage, uploadedImage } from '../media/images.ts';
import type { Tax } from '../taxes/tax.ts';
import { percentOf, percentScale } from '../taxes/tax.ts';
import { productMessages, productRules } from './messages.ts';
import {
  durationPeriods,
  maxPayday,
  type ProductFilters,
  type ProductView,
  priceScale,
  productLimits,
  type Recurrence,
} from './schemas.ts';

/** A tax as a product keeps it: taxes never change, so the product's total is fixed when it is written. */
export interface ProductTax {
  id: number;
  name: string;
  value_scaled: number;
}

export interface Product {
  id: string;
  developer_id: number;
  mode: Mode;
  name: string;
  short_description: string;
  description: string;
  stock: number;
  /** Minor units of `currency`. */
  price: number;
  /** Price at `priceScale` decimals, comparable across currencies for the price filters. */
  price_scaled: number;
  currency: string;
  /** Minor units: price with its taxes, rounded half-up once. */
  total_price: number;
  is_physical: boolean;
  bar_code: string;
  sku: string;
  taxes: ProductTax[];
  recurrence: Recurrence | null;
  image_default: StoredImage | null;
  images: StoredImage[];
  payment_link: boolean;
  /** False once deleted: the item stays for the payment links that name it. */
  active: boolean;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at?: string;
}

/** price × (100 + Σ tax percents) / 100, rounded half-up once, in integers. */
export function totalPrice(price: number, taxes: readonly { value_scaled: number }[]): number {
  const hundred = BigInt(100 * percentScale);
  const numerator = BigInt(price) * (hundred + BigInt(taxes.reduce((sum, tax) => sum + tax.value_scaled, 0)));
  return Number((numerator * 2n + hundred) / (hundred * 2n));
}

/** The `taxes` field: comma-separated integer ids (or an array of them); empty is none. */
export function parseTaxIds(value: string | readonly (string | number)[]): number[] {
  const parts = (typeof value === 'string' ? value.split(',') : value.map(String))
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.some((part) => !/^[1-9]\d{0,9}$/.test(part))) {
    throw new InvalidInput([{ field: 'taxes', rule: productRules.tax_ids }]);
  }
  return [...new Set(parts.map(Number))];
}

/** The taxes of `ids` found in the account; any id without one is 400. */
export function productTaxes(ids: number[], found: (Tax | undefined)[]): ProductTax[] {
  const missing = ids.filter((_, i) => !found[i]);
  if (missing.length) {
    throw new InvalidInput([
      { field: 'taxes', rule: productRules.unknown_tax, params: { ids: missing.join(', ') } },
    ]);
  }
  return (found as Tax[]).map((tax) => ({ id: tax.id, name: tax.name, value_scaled: tax.value_scaled }));
}

/**
 * The `recurrence` field: a JSON object (as text in a form) of one of two kinds; empty text or
 * null clears it. Not JSON, or not an object, is 400 "recurrence must be a JSON object".
 */
export function parseRecurrence(value: unknown): Recurrence | null {
  if (value === null || (typeof value === 'string' && ['', 'null'].includes(value.trim()))) return null;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Invalid(productMessages.recurrence_not_object);
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Invalid(productMessages.recurrence_not_object);
  const record = parsed as Record<string, unknown>;
  const problems: Problem[] = [];
  const unknown = Object.keys(record).filter(
    (key) => !['recurrence', 'duration_period', 'payday'].includes(key),
  );
  for (const key of unknown) problems.push({ field: `recurrence.${key}`, rule: rules.unknown_field });
  const asInteger = (raw: unknown) =>
    typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (record.recurrence === 'period') {
    const period = asInteger(record.duration_period);
    if (record.duration_period === undefined)
      problems.push({ field: 'recurrence.duration_period', rule: rules.required });
    else if (!durationPeriods.includes(period as (typeof durationPeriods)[number]))
      problems.push({ field: 'recurrence.duration_period', rule: productRules.duration_period });
    if (record.payday !== undefined) problems.push({ field: 'recurrence.payday', rule: rules.unknown_field });
    if (problems.length) throw new InvalidInput(problems);
    return { recurrence: 'period', duration_period: period as (typeof durationPeriods)[number] };
  }
  if (record.recurrence === 'specific_billing_day') {
    const payday = asInteger(record.payday);
    if (record.payday === undefined) problems.push({ field: 'recurrence.payday', rule: rules.required });
    else if (!Number.isInteger(payday) || (payday as number) < 1 || (payday as number) > maxPayday)
      problems.push({ field: 'recurrence.payday', rule: productRules.payday });
    if (record.duration_period !== undefined)
      problems.push({ field: 'recurrence.duration_period', rule: rules.unknown_field });
    if (problems.length) throw new InvalidInput(problems);
    return { recurrence: 'specific_billing_day', payday: payday as number };
  }
  throw new InvalidInput([
    {
      field: 'recurrence.recurrence',
      rule: record.recurrence === undefined ? rules.required : productRules.recurrence_kind,
    },
    ...problems,
  ]);
}

/** An uploaded image file: JPEG or PNG by its content, 10 MB at most. */
export const imageFile = (value: unknown, field: string) =>
  uploadedImage(value, field, { bytes: productLimits.imageBytes, label: '10 MB' });

/** Image files of a field that may repeat: at most 4. */
export function imageFiles(value: unknown, field: string): Extract<ImageInput, { kind: 'data' }>[] {
  const values = Array.isArray(value) ? value : [value];
  if (values.length > productLimits.additionalImages)
    throw new InvalidInput([{ field, rule: productRules.too_many_images }]);
  return values.map((one, i) => imageFile(one, values.length > 1 ? `${field}.${i}` : field));
}

/** What a PUT's image flag asks for: keep, remove, or these files. */
export type ImageFlag = { action: 'keep' } | { action: 'remove' } | { action: 'replace'; value: unknown };

export function imageFlag(value: unknown, field: string): ImageFlag {
  if (value === undefined) return { action: 'keep' };
  if (typeof value === 'string') {
    if (value.trim() === '-1') return { action: 'keep' };
    if (value.trim() === '-remove-') return { action: 'remove' };
    throw new InvalidInput([{ field, rule: productRules.image_flag }]);
  }
  return { action: 'replace', value };
}

export interface NewProductInput {
  name: string;
  price: string | number;
  currency?: string | undefined;
  short_description?: string | undefined;
  description?: string | undefined;
  stock?: number | undefined;
  is_physical?: boolean | undefined;
  bar_code?: string | undefined;
  sku?: string | undefined;
  test?: boolean | undefined;
  is_test?: boolean | undefined;
}

/** The price field in its currency: precision per currency (400, type danger). */
export function priceOf(value: string | number, currency: Currency): number {
  return amountField(value, currency, 'price');
}

export function newProduct(
  input: NewProductInput,
  context: {
    id: string;
    developerId: number;
    mode: Mode;
    now: Date;
    taxes: ProductTax[];
    recurrence: Recurrence | null;
    imageDefault: StoredImage | null;
    images: StoredImage[];
  },
): Product {
  assertModeFlags(input, context.mode);
  const currency = findCurrency(input.currency ?? 'USD') as Currency;
  const price = priceOf(input.price, currency);
  const at = context.now.toISOString();
  return {
    id: context.id,
    developer_id: context.developerId,
    mode: context.mode,
    name: input.name,
    short_description: input.short_description ?? '',
    description: input.description ?? '',
    stock: input.stock ?? 0,
    price,
    price_scaled: scaled(price, currency, priceScale),
    currency: currency.code,
    total_price: totalPrice(price, context.taxes),
    is_physical: input.is_physical ?? false,
    bar_code: input.bar_code ?? '',
    sku: input.sku ?? '',
    taxes: context.taxes,
    recurrence: context.recurrence,
    image_default: context.imageDefault,
    images: context.images,
    payment_link: false,
    active: true,
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

/** The product with `changes` applied and its derived fields (scaled and total price) made again. */
export function changedProduct(product: Product, changes: Partial<Product>, now: Date): Product {
  const next = { ...product, ...changes };
  const currency = currencyOf(next);
  return {
    ...next,
    price_scaled: scaled(next.price, currency, priceScale),
    total_price: totalPrice(next.price, next.taxes),
    version: product.version + 1,
    updated_at: now.toISOString(),
  };
}

/** The texts product search matches (case-insensitive substrings): name and SKU. */
export const searchTextsOf = (product: Pick<Product, 'name' | 'sku'>) => [product.name, product.sku];

/** Whether a product passes the list filters other than `search` (which the index applies). */
export function matchesFilters(product: Product, filters: ProductFilters): boolean {
  const within = (value: number, min?: number, max?: number) =>
    (min === undefined || value >= min) && (max === undefined || value <= max);
  return (
    (filters.physical === undefined || product.is_physical === filters.physical) &&
    within(product.stock, filters.stockMin, filters.stockMax) &&
    within(product.price_scaled, filters.priceMin, filters.priceMax)
  );
}

export function productView(product: Product, baseUrl: string): ProductView {
  const currency = currencyOf(product);
  return {
    id: product.id,
    name: product.name,
    short_description: product.short_description,
    description: product.description,
    stock: product.stock,
    price: formatAmount(product.price, currency),
    currency: currency.code,
    total_price: formatAmount(product.total_price, currency),
    is_physical: product.is_physical,
    bar_code: product.bar_code,
    sku: product.sku,
    recurrence: product.recurrence,
    images: {
      default: product.image_default ? imageUrl(product.image_default, baseUrl) : null,
      additional_images: product.images.map((image) => ({ image: imageUrl(image, baseUrl) })),
    },
    payment_link: product.payment_link,
    created_on: product.created_at,
    test: product.mode === 'test',
    taxes: product.taxes.map((tax) => ({ id: tax.id, name: tax.name, value: percentOf(tax.value_scaled) })),
  };
}
