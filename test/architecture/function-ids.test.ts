/**
 * The CDK app names each function after its handler's file name alone (infra/function-id.ts), so
 * two handlers with one file name in different folders (functions/events/list-events.ts and a
 * functions/webhooks/list-events.ts) would be one construct id and the stack would not synthesize.
 * Checked here, where it costs nothing, rather than only by the two-minute synthesis.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionId } from '../../infra/function-id.ts';
import { routes } from '../../shared/api/routes.ts';

const root = resolve(import.meta.dirname, '../..');

describe('function ids', () => {
  it('every handler module under functions/ has a construct id of its own', () => {
    const handlers = readdirSync(join(root, 'functions'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((folder) =>
        readdirSync(join(root, 'functions', folder.name))
          .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
          .map((name) => `functions/${folder.name}/${name}`),
      );
    const byId = new Map<string, string[]>();
    for (const handler of handlers)
      byId.set(functionId(handler), [...(byId.get(functionId(handler)) ?? []), handler]);
    expect([...byId.values()].filter((same) => same.length > 1)).toEqual([]);
    // Every route's handler is among them.
    expect(routes.map((route) => route.handler).filter((handler) => !handlers.includes(handler))).toEqual([]);
  });
});
