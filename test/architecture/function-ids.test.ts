/**
 * The CDK app names each route's function after its handler file's name (infra/function-id.ts), so
 * two handlers of one name in different folders (functions/plans/create-plan.ts and a dashboard
 * form's) would be one construct id, which only a synth of the whole stack would find. Checked here,
 * from the route table alone.
 */
import { describe, expect, it } from 'vitest';
import { functionId } from '../../infra/function-id.ts';
import { routes } from '../../shared/api/routes.ts';

describe('the functions of the routes', () => {
  it('have one id per handler module', () => {
    const handlers = [...new Set(routes.map((route) => route.handler))];
    const byId = new Map<string, string[]>();
    for (const handler of handlers)
      byId.set(functionId(handler), [...(byId.get(functionId(handler)) ?? []), handler]);
    const shared = [...byId.values()].filter((modules) => modules.length > 1);
    expect(shared).toEqual([]);
  });
});
