/** GET /v1/taxes/: the account's taxes in the request's mode, newest first (a bare array). */
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { listTaxes } from '../../shared/taxes/repository.ts';
import { taxView } from '../../shared/taxes/tax.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ scope }) => ({
  status: 200,
  body: (await listTaxes(deps, scope)).map(taxView),
}));
