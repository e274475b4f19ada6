/**
 * Request bodies, queries and views of the customer endpoints (docs/design.md#customers). Handlers
 * validate with them and the OpenAPI document shows them. JSON and form bodies both pass.
 */
import * as v from 'valibot';
import { metadataBytes, metadataField } from '../core/metadata.ts';
import { pageParameters, pageRequestOf } from '../core/pagination.ts';
import { queryParameter } from '../core/query.ts';
import * as rules from '../core/rules.ts';
import { emailFormat, isEmail, maxEmailLength, modeField, plainText, textField } from '../core/validation.ts';
import { imageRule } from '../media/images.ts';

export const customerLimits = {
  name: 50,
  email: maxEmailLength,
  phone: 32,
  country: 56,
  /** Serialized `metadata`, in bytes of UTF-8 JSON (at most 10 KB). */
  metadataBytes,
  /** A photo's bytes (at most 5 MB). */
  photoBytes: 5 * 1024 * 1024,
  addresses: 3,
  /** The search view answers at most this many customers, newest first. */
  searchResults: 100,
  address: { line: 200, city: 100, state: 100, postalCode: 20, country: 56 },
} as const;

const email = v.pipe(
  plainText(),
  v.trim(),
  v.minLength(1),
  v.maxLength(customerLimits.email),
  v.toLowerCase(),
  v.check(isEmail, rules.email),
  emailFormat(),
  v.description('Unique among the customers of the account and mode (case-insensitive).'),
);

const optionalText = (max: number) => v.nullable(textField(max, { allowEmpty: true }));

const metadata = metadataField();

const modeFlag = modeField();

export const CreateCustomerSchema = v.strictObject({
  first_name: textField(customerLimits.name),
  last_name: textField(customerLimits.name),
  email,
  phone: v.optional(optionalText(customerLimits.phone), null),
  country: v.optional(optionalText(customerLimits.country), null),
  metadata: v.optional(metadata, null),
  test: v.optional(modeFlag),
  is_test: v.optional(modeFlag),
});
export type CreateCustomerInput = v.InferOutput<typeof CreateCustomerSchema>;

export const UpdateCustomerSchema = v.strictObject({
  first_name: v.optional(textField(customerLimits.name)),
  last_name: v.optional(textField(customerLimits.name)),
  email: v.optional(email),
  phone: v.optional(optionalText(customerLimits.phone)),
  country: v.optional(optionalText(customerLimits.country)),
  metadata: v.optional(metadata),
  test: v.optional(modeFlag),
  is_test: v.optional(modeFlag),
});
export type UpdateCustomerInput = v.InferOutput<typeof UpdateCustomerSchema>;

const { address: addressLimits } = customerLimits;
export const AddAddressSchema = v.strictObject({
  line1: textField(addressLimits.line),
  line2: v.optional(optionalText(addressLimits.line), null),
  city: v.optional(optionalText(addressLimits.city), null),
  state: v.optional(optionalText(addressLimits.state), null),
  postal_code: v.optional(optionalText(addressLimits.postalCode), null),
  country: v.optional(optionalText(addressLimits.country), null),
});
export type AddAddressInput = v.InferOutput<typeof AddAddressSchema>;

/** The body of PUT /v1/customers/{id}/photo/, for the OpenAPI document (the handler reads the file). */
export const CustomerPhotoSchema = v.strictObject({
  photo: v.pipe(
    plainText(),
    v.description(`A JPEG or PNG file, 5 MB at most, checked by its content: ${imageRule}.`),
    // A file part of the multipart body, its bytes as they are.
    v.metadata({ format: 'binary' }),
  ),
});

/** The query of GET /v1/customers/. */
export const CustomerListQuerySchema = v.pipe(
  v.object({
    search: queryParameter(
      'string',
      'Case-insensitive substring of first_name or email. Without page and page_size it answers the search view (a bare array); an empty search is 400.',
      v.pipe(v.string(), v.metadata({ minLength: 1, pattern: '\\S' })),
      { blank: 'invalid' },
    ),
    ...pageParameters(),
  }),
  v.transform((query) => ({
    search: query.search,
    page: pageRequestOf(query),
    /** `search` without `page` or `page_size` asks for the search view. */
    searchView: query.search !== undefined && query.page === undefined && query.page_size === undefined,
  })),
);
export type CustomerListQuery = v.InferOutput<typeof CustomerListQuerySchema>;

const nullableString = v.nullable(v.string());

const customerFields = {
  id: v.pipe(v.string(), v.uuid()),
  first_name: v.string(),
  last_name: v.string(),
  email: v.string(),
  phone: nullableString,
  photo: v.pipe(nullableString, v.description('URL of the photo (loads without credentials), or null.')),
  country: nullableString,
  metadata: v.nullable(v.record(v.string(), v.unknown())),
  created_on: v.string(),
  test: v.boolean(),
};

/** A customer as GET, the list, create and update answer it. */
export const CustomerViewSchema = v.strictObject({ ...customerFields, developer: v.number() });
export type CustomerView = v.InferOutput<typeof CustomerViewSchema>;

/** A customer in the search view. */
export const CustomerSearchViewSchema = v.strictObject({
  ...customerFields,
  developer_id: v.number(),
  pay_providers: v.array(v.strictObject({ id: v.string(), name: v.string() })),
});
export type CustomerSearchView = v.InferOutput<typeof CustomerSearchViewSchema>;

export const AddressViewSchema = v.strictObject({
  id: v.pipe(v.string(), v.uuid()),
  line1: v.string(),
  line2: nullableString,
  city: nullableString,
  state: nullableString,
  postal_code: nullableString,
  country: nullableString,
  created_on: v.string(),
});
export type AddressView = v.InferOutput<typeof AddressViewSchema>;
