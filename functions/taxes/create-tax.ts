/** POST /v1/taxes/: 201 with the new tax (integer id) as `data`. */
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { taxMessages } from '../../shared/taxes/messages.ts';
import { createTax } from '../../shared/taxes/repository.ts';
import { CreateTaxSchema, taxView } from '../../shared/taxes/tax.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ body, scope, lang }) => {
  const input = validate(CreateTaxSchema, body);
  const tax = await createTax(deps, scope, { name: input.name, value_scaled: input.value });
  return {
    status: 201,
    body: envelope(201, taxMessages.tax_created, lang, { type: 'success', data: taxView(tax) }),
  };
});
