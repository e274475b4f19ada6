/** Customer operations the handlers call: list and search views, photos. */

import type { Scope } from '../core/account.ts';
import { Invalid, NotFound } from '../core/errors.ts';
import { uuidParam } from '../core/ids.ts';
import { type LinkedPage, linkedPage } from '../core/pagination.ts';
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import { normalizeSearch } from '../db/search.ts';
import { uploadedImage } from '../media/images.ts';
import { type MediaStore, saveImage } from '../media/store.ts';
import { type Customer, customerSearchView, customerView } from './customer.ts';
import { customerMessages } from './messages.ts';
import { listCustomers, searchCustomers, setCustomerPhoto } from './repository.ts';
import {
  type CustomerListQuery,
  CustomerListQuerySchema,
  type CustomerSearchView,
  type CustomerView,
  customerLimits,
} from './schemas.ts';

/** The `{id}` of a customer path: a UUID; anything else names no customer (404). */
export const customerIdParam = (value: string | undefined): string =>
  uuidParam(value, () => new NotFound(customerMessages.customer_not_found));

/** The `{address_id}` of an address path. */
export const addressIdParam = (value: string | undefined): string =>
  uuidParam(value, () => new NotFound(customerMessages.address_not_found));

/**
 * The query of the customers list (GET /v1/customers/ and the dashboard's list): `search`, `page`,
 * `page_size`. An empty or blank `search` is 400.
 */
export function parseCustomerListQuery(raw: Record<string, string | undefined>): CustomerListQuery {
  if (raw.search !== undefined && normalizeSearch(raw.search) === '')
    throw new Invalid(customerMessages.customer_search_empty);
  return validate(CustomerListQuerySchema, raw);
}

/**
 * GET /v1/customers/: the search view (a bare array, 404 with the query when nothing matches) when
 * `search` comes without `page` and `page_size`, otherwise Envelope B, filtered by `search` if given.
 * An empty or blank `search` is 400.
 */
export async function customerList(
  deps: Deps & { baseUrl: string },
  scope: Scope,
  raw: Record<string, string | undefined>,
): Promise<CustomerSearchView[] | LinkedPage<CustomerView>> {
  const query = parseCustomerListQuery(raw);
  if (query.searchView && query.search !== undefined) {
    const found = await searchCustomers(deps, scope, query.search, customerLimits.searchResults);
    if (found.length === 0) {
      throw new NotFound(customerMessages.customer_search_no_match, { fields: { query: query.search } });
    }
    return found.map((customer) => customerSearchView(customer, deps.baseUrl));
  }
  const { count, customers } = await listCustomers(deps, scope, query);
  const link = (page: number) => {
    const params = new URLSearchParams({ page: String(page), page_size: String(query.page.pageSize) });
    if (query.search !== undefined) params.set('search', query.search);
    return `${deps.baseUrl}/v1/customers/?${params}`;
  };
  return linkedPage(
    count,
    query.page,
    customers.map((customer) => customerView(customer, deps.baseUrl)),
    link,
  );
}

/**
 * PUT /v1/customers/{id}/photo/: the multipart field `photo`, a JPEG or PNG by its content, 5 MB at
 * most, stored in the media bucket under the SHA-256 of its bytes.
 */
export async function replacePhoto(
  deps: Deps & { media: MediaStore },
  scope: Scope,
  id: string,
  fields: Record<string, unknown>,
): Promise<Customer> {
  const photo = fields.photo;
  const image = uploadedImage(Array.isArray(photo) ? {} : photo, 'photo', {
    bytes: customerLimits.photoBytes,
    label: '5 MB',
  });
  await saveImage(deps.media, image);
  return setCustomerPhoto(deps, scope, id, { media: image.name }, deps.clock());
}
