/** The products area's routes (assembled with the others in shared/api/routes.ts). */
import { MessageSchema, messageEnvelope, numberedPageSchema } from '../core/envelopes.ts';
import type { Route } from '../http/route.ts';
import {
  CreateProductDocument,
  ProductListQuerySchema,
  ProductUpdatedSchema,
  ProductViewSchema,
  UpdateProductDocument,
} from './schemas.ts';

const notFound = {
  404: { description: 'No such product in this account and mode', body: 'MessageEnvelope' },
} as const;
const formTypes = ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'] as const;

export const productsRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/products/',
    handler: 'functions/products/create-product.ts',
    operationId: 'createProduct',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
      media: 'write',
    },
    summary: 'Create a product (multipart form, with images); 201 with data.id',
    description:
      "Stores a product from a multipart form: a price in its currency's precision, tax ids of the account, a recurrence, a default image and up to four more. Its total price is computed from the price and the taxes.",
    body: CreateProductDocument,
    bodyTypes: formTypes,
    answers: {
      201: { description: 'Created; data is the product', json: messageEnvelope(ProductViewSchema) },
    },
  },
  {
    method: 'GET',
    path: '/v1/products/',
    handler: 'functions/products/list-products.ts',
    operationId: 'listProducts',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } },
    summary: 'Active products, newest first, in Envelope A; filters combine with AND',
    description:
      'Lists the active products of the account and mode, newest first, one numbered page at a time; deleted products are left out.',
    query: ProductListQuerySchema,
    answers: { 200: { description: 'One page (Envelope A)', json: numberedPageSchema(ProductViewSchema) } },
    errors: {
      404: { description: 'A page past the last (type warning)', body: 'MessageEnvelope' },
    },
  },
  {
    method: 'GET',
    path: '/v1/products/{id}/',
    handler: 'functions/products/get-product.ts',
    operationId: 'getProduct',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'] } },
    summary: 'One product',
    description: 'Shows one product with its taxes, total price and image URLs; a deleted product is 404.',
    answers: { 200: { description: 'The product', json: ProductViewSchema } },
    errors: notFound,
  },
  {
    method: 'PUT',
    path: '/v1/products/{id}/',
    handler: 'functions/products/update-product.ts',
    operationId: 'updateProduct',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
      media: 'write',
    },
    summary:
      'Change any field; `default` and `additional_images` keep (-1), remove (-remove-) or replace (files) images',
    description:
      'Changes the fields sent and keeps the others. For `default` and `additional_images`, `-1` keeps the images, `-remove-` removes them and files replace them.',
    body: UpdateProductDocument,
    bodyTypes: formTypes,
    answers: { 200: { description: 'Updated', json: messageEnvelope(ProductUpdatedSchema) } },
    errors: {
      ...notFound,
      400: {
        description:
          'Invalid input or malformed body; or the price (the one sent, else the stored one) does not fit the currency (the one sent, else the stored one): more decimals than it takes (type danger), or above its largest amount',
        body: 'MessageEnvelope',
      },
    },
  },
  {
    method: 'DELETE',
    path: '/v1/products/{id}/',
    handler: 'functions/products/delete-product.ts',
    operationId: 'deleteProduct',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Remove and deactivate a product; payment links that name it keep working',
    description:
      'Takes the product out of the API but keeps it stored, deactivated, so payment links that already name it keep working.',
    answers: { 200: { description: 'Deleted', json: MessageSchema } },
    errors: notFound,
  },
];
