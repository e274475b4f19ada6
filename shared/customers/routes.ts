/** The customers area's routes (assembled with the others in shared/api/routes.ts). */
import * as v from 'valibot';
import { linkedPageSchema, MessageSchema, messageEnvelope } from '../core/envelopes.ts';
import type { Route } from '../http/route.ts';
import {
  AddAddressSchema,
  AddressViewSchema,
  CreateCustomerSchema,
  CustomerListQuerySchema,
  CustomerPhotoSchema,
  CustomerSearchViewSchema,
  CustomerViewSchema,
  UpdateCustomerSchema,
} from './schemas.ts';

const notFound = {
  404: { description: 'No such customer in this account and mode', body: 'MessageEnvelope' },
} as const;

export const customersRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/v1/customers/',
    handler: 'functions/customers/list-customers.ts',
    operationId: 'listCustomers',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } },
    summary:
      'Customers, newest first, in Envelope B; with `search` and neither `page` nor `page_size`, the search view (a bare array of at most 100)',
    description:
      "Lists the customers of the account in the request's mode, newest first, one page at a time; `search` narrows the list to the customers it matches. Given `search` without `page` or `page_size`, it answers the search view instead: at most 100 matches as a bare array.",
    query: CustomerListQuerySchema,
    answers: {
      200: {
        description: 'Envelope B, or the search view',
        json: v.union([linkedPageSchema(CustomerViewSchema), v.array(CustomerSearchViewSchema)]),
      },
    },
    errors: {
      404: {
        description: 'The search view matched nothing (with `query`), or a page past the last',
        body: 'SearchNoMatchOrMessageEnvelope',
      },
    },
  },
  {
    method: 'POST',
    path: '/v1/customers/',
    handler: 'functions/customers/create-customer.ts',
    operationId: 'createCustomer',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Create a customer; the e-mail is unique in the account and mode (400 when taken)',
    description:
      'Stores a customer with the required first name, last name and e-mail, and an optional phone, country and metadata (a JSON object of at most 10 KB). The e-mail is unique, whatever its case, among the customers of the account and mode, even when two requests race.',
    body: CreateCustomerSchema,
    errors: {
      400: {
        description:
          "Invalid input or malformed body; or the e-mail is already another customer's in the account and mode (whatever its case)",
        body: 'MessageEnvelope',
      },
    },
    answers: {
      201: { description: 'Created; data is the customer', json: messageEnvelope(CustomerViewSchema) },
    },
  },
  {
    method: 'GET',
    path: '/v1/customers/{id}/',
    handler: 'functions/customers/get-customer.ts',
    operationId: 'getCustomer',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'] } },
    summary: 'One customer',
    description:
      'Shows one customer of the account and mode as it is stored now; a customer of another account or mode is 404.',
    answers: { 200: { description: 'The customer', json: CustomerViewSchema } },
    errors: notFound,
  },
  {
    method: 'PUT',
    path: '/v1/customers/{id}/',
    handler: 'functions/customers/update-customer.ts',
    operationId: 'updateCustomer',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary:
      'Change any of first_name, last_name, email, phone, country, metadata; omitted fields keep their values',
    description:
      'Changes only the fields sent and keeps the others. A new e-mail must be free in the account and mode (400 when taken), and the old one becomes free.',
    body: UpdateCustomerSchema,
    answers: {
      200: { description: 'Updated; data is the customer', json: messageEnvelope(CustomerViewSchema) },
    },
    errors: {
      ...notFound,
      400: {
        description:
          "Invalid input or malformed body; or the e-mail is already another customer's in the account and mode (whatever its case)",
        body: 'MessageEnvelope',
      },
    },
  },
  {
    method: 'DELETE',
    path: '/v1/customers/{id}/',
    handler: 'functions/customers/delete-customer.ts',
    operationId: 'deleteCustomer',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Delete a customer and its addresses; its e-mail becomes free',
    description:
      'Deletes the customer and its addresses for good, and frees its e-mail for a new customer of the same account and mode.',
    answers: { 200: { description: 'Deleted', json: MessageSchema } },
    errors: notFound,
  },
  {
    method: 'PUT',
    path: '/v1/customers/{id}/photo/',
    handler: 'functions/customers/update-customer-photo.ts',
    operationId: 'updateCustomerPhoto',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
      media: 'write',
    },
    summary: 'Replace the photo: multipart field `photo`, JPEG or PNG (by content), 5 MB at most',
    description:
      "Stores the uploaded photo under its content hash and makes it the customer's photo. The file must be one whole JPEG or PNG, judged by its bytes rather than its name, of at most 5 MB.",
    body: CustomerPhotoSchema,
    bodyTypes: ['multipart/form-data'],
    answers: {
      200: { description: 'Updated; data.photo is the URL', json: messageEnvelope(CustomerViewSchema) },
    },
    errors: notFound,
  },
  {
    method: 'GET',
    path: '/v1/customers/{id}/addresses/',
    handler: 'functions/customers/list-addresses.ts',
    operationId: 'listCustomerAddresses',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'] } },
    summary: "The customer's addresses (at most 3), oldest first, as a bare array",
    description:
      "Lists the customer's addresses, at most three, in the order they were added, as a bare array.",
    answers: { 200: { description: 'The addresses', json: v.array(AddressViewSchema) } },
    errors: notFound,
  },
  {
    method: 'POST',
    path: '/v1/customers/{id}/addresses/',
    handler: 'functions/customers/add-address.ts',
    operationId: 'addCustomerAddress',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Add an address; a fourth is 406',
    description:
      'Adds an address to the customer. A customer holds at most three addresses, so a fourth is refused with 406 and nothing is stored.',
    body: AddAddressSchema,
    answers: { 201: { description: 'Added; data is the address', json: messageEnvelope(AddressViewSchema) } },
    errors: {
      ...notFound,
      406: { description: 'The customer already has 3 addresses', body: 'MessageEnvelope' },
    },
  },
  {
    method: 'DELETE',
    path: '/v1/customers/{id}/addresses/{address_id}/',
    handler: 'functions/customers/delete-address.ts',
    operationId: 'deleteCustomerAddress',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Delete one address of the customer',
    description: 'Deletes one address of the customer; an address that belongs to another customer is 404.',
    answers: { 200: { description: 'Deleted', json: MessageSchema } },
    errors: { 404: { description: 'No such customer or address', body: 'MessageEnvelope' } },
  },
];
