/** Product operations the handlers call: forms (text fields, files and image flags) to records. */
import { randomUUID } from 'node:crypto';
import { assertModeFlags, type Scope } from '../core/account.ts';
import { NotFound } from '../core/errors.ts';
import { uuidParam } from '../core/ids.ts';
import { formatAmount } from '../core/money/amount.ts';
import { type Currency, findCurrency } from '../core/money/currencies.ts';
import { currencyOf } from '../core/money/fields.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput, validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { StoredImage } from '../media/images.ts';
import { type MediaStore, saveImage } from '../media/store.ts';
import { taxesByIds } from '../taxes/repository.ts';
import { productMessages } from './messages.ts';
import {
  changedProduct,
  imageFile,
  imageFiles,
  imageFlag,
  newProduct,
  type Product,
  type ProductTax,
  parseRecurrence,
  parseTaxIds,
  priceOf,
  productTaxes,
} from './product.ts';
import { changeProduct, createProduct } from './repository.ts';
import { CreateProductSchema, UpdateProductSchema } from './schemas.ts';

export type ProductDeps = Deps & { media: MediaStore };

/** The `{id}` of a product path: a UUID; anything else names no product (404). */
export const productIdParam = (value: string | undefined): string =>
  uuidParam(value, () => new NotFound(productMessages.product_not_found));

/** A body as named fields (multipart, form or JSON object); no body is an empty form, any other body 400. */
function fieldsOf(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body && typeof body === 'object' && !Array.isArray(body))
    return { ...(body as Record<string, unknown>) };
  throw new InvalidInput([{ field: 'body', rule: rules.body_object }]);
}

/** Splits the named fields off a form. */
function take(fields: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const taken: Record<string, unknown> = {};
  for (const name of names) {
    if (name in fields) taken[name] = fields[name];
    delete fields[name];
  }
  return taken;
}

async function taxesOf(deps: Deps, scope: Scope, value: string | (string | number)[]): Promise<ProductTax[]> {
  const ids = parseTaxIds(value);
  return productTaxes(ids, await taxesByIds(deps, scope, ids));
}

/** POST /v1/products/: validates every field, stores the images, then the product. */
export async function createProductFromForm(
  deps: ProductDeps,
  scope: Scope,
  body: unknown,
): Promise<Product> {
  const fields = fieldsOf(body);
  const files = take(fields, ['image_default', 'images']);
  const input = validate(CreateProductSchema, fields);
  const recurrence = input.recurrence === undefined ? null : parseRecurrence(input.recurrence);
  const taxes = input.taxes === undefined ? [] : await taxesOf(deps, scope, input.taxes);
  const imageDefault =
    files.image_default === undefined ? undefined : imageFile(files.image_default, 'image_default');
  const images = files.images === undefined ? [] : imageFiles(files.images, 'images');
  const product = newProduct(input, {
    id: randomUUID(),
    developerId: scope.developerId,
    mode: scope.mode,
    now: deps.clock(),
    taxes,
    recurrence,
    imageDefault: imageDefault ? { media: imageDefault.name } : null,
    images: images.map((image) => ({ media: image.name })),
  });
  await Promise.all(
    [...(imageDefault ? [imageDefault] : []), ...images].map((image) => saveImage(deps.media, image)),
  );
  await createProduct(deps, product);
  return product;
}

/**
 * PUT /v1/products/{id}/: omitted fields keep their values; `default` and `additional_images`
 * keep (-1), remove (-remove-) or replace (files) the images. The price is checked against the
 * currency the product ends up with.
 */
export async function updateProductFromForm(
  deps: ProductDeps,
  scope: Scope,
  id: string,
  body: unknown,
): Promise<Product> {
  const fields = fieldsOf(body);
  const flags = take(fields, ['default', 'additional_images']);
  const input = validate(UpdateProductSchema, fields);
  assertModeFlags(input, scope.mode);
  const defaultFlag = imageFlag(flags.default, 'default');
  const imagesFlag = imageFlag(flags.additional_images, 'additional_images');
  const newDefault = defaultFlag.action === 'replace' ? imageFile(defaultFlag.value, 'default') : undefined;
  const newImages =
    imagesFlag.action === 'replace' ? imageFiles(imagesFlag.value, 'additional_images') : undefined;
  const recurrence = input.recurrence === undefined ? undefined : parseRecurrence(input.recurrence);
  const taxes = input.taxes === undefined ? undefined : await taxesOf(deps, scope, input.taxes);
  await Promise.all(
    [...(newDefault ? [newDefault] : []), ...(newImages ?? [])].map((image) => saveImage(deps.media, image)),
  );

  return changeProduct(deps, scope, id, (read) => {
    const changes: Partial<Product> = {};
    for (const field of [
      'name',
      'short_description',
      'description',
      'stock',
      'is_physical',
      'bar_code',
      'sku',
      'payment_link',
    ] as const) {
      if (input[field] !== undefined) Object.assign(changes, { [field]: input[field] });
    }
    if (input.price !== undefined || input.currency !== undefined) {
      const currency = (input.currency ? findCurrency(input.currency) : currencyOf(read)) as Currency;
      // The price as given, or the stored one as its decimal, at the resulting currency's precision.
      const price = input.price ?? formatAmount(read.price, currencyOf(read));
      changes.price = priceOf(price, currency);
      changes.currency = currency.code;
    }
    if (taxes !== undefined) changes.taxes = taxes;
    if (recurrence !== undefined) changes.recurrence = recurrence;
    if (defaultFlag.action === 'remove') changes.image_default = null;
    if (newDefault) changes.image_default = { media: newDefault.name } satisfies StoredImage;
    if (imagesFlag.action === 'remove') changes.images = [];
    if (newImages) changes.images = newImages.map((image) => ({ media: image.name }));
    return changedProduct(read, changes, deps.clock());
  });
}
