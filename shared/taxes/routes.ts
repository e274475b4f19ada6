/** The taxes area's routes (assembled with the others in shared/api/routes.ts). */
import * as v from 'valibot';
import { messageEnvelope } from '../core/envelopes.ts';
import type { Route } from '../http/route.ts';
import { CreateTaxSchema, TaxViewSchema } from './tax.ts';

export const taxesRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/v1/taxes/',
    handler: 'functions/taxes/list-taxes.ts',
    operationId: 'listTaxes',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } },
    summary: "The account's taxes in the request's mode, newest first, as a bare array",
    description: "Lists the taxes of the account in the request's mode, newest first, as a bare array.",
    answers: { 200: { description: 'The taxes', json: v.array(TaxViewSchema) } },
  },
  {
    method: 'POST',
    path: '/v1/taxes/',
    handler: 'functions/taxes/create-tax.ts',
    operationId: 'createTax',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Create a tax (name, value in percent); its id is an integer',
    description:
      'Stores a tax with a name and a value in percent, kept exactly as sent, under an integer id; products name their taxes by that id.',
    body: CreateTaxSchema,
    answers: { 201: { description: 'Created; data is the tax', json: messageEnvelope(TaxViewSchema) } },
  },
];
