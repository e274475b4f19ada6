/**
 * The layer rules (.dependency-cruiser.cjs, run by `npm run deps` in `npm test`) hold on the tree,
 * and they bite: a small tree with one wrong import of each kind fails them, naming the rule.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const config = join(root, '.dependency-cruiser.cjs');
const depcruise = join(root, 'node_modules/.bin/depcruise');

function cruise(cwd: string, folders: string[]) {
  const run = spawnSync(depcruise, [...folders, '--config', config, '--output-type', 'err'], {
    cwd,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const scratch = mkdtempSync(join(tmpdir(), 'cobro-layers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A tree of files, each `path: imports`, every import a relative module of the tree; an import
 * written `type ./x.ts` is type-only (`import type`), erased when the code runs.
 */
function tree(name: string, files: Record<string, string[]>): string {
  const dir = join(scratch, name.replace(/[^a-z-]+/g, '-'));
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    const lines = imports.map((target, i) =>
      target.startsWith('type ')
        ? `import type * as m${i} from '${target.slice(5)}';\nexport type U${i} = typeof m${i};`
        : `import * as m${i} from '${target}';\nexport const u${i} = m${i};`,
    );
    writeFileSync(join(dir, path), `${lines.join('\n')}\nexport const here = 1;\n`);
  }
  return dir;
}

describe('the layer rules', () => {
  it('hold on this tree', () => {
    const run = cruise(root, ['shared', 'functions', 'infra', 'bin']);
    expect(run.output).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  });

  it.each([
    ['core-imports-nothing-above', { 'shared/core/x.ts': ['../plans/plan.ts'], 'shared/plans/plan.ts': [] }],
    ['db-imports-core-only', { 'shared/db/x.ts': ['../events/y.ts'], 'shared/events/y.ts': [] }],
    ['port-imports-no-other-port', { 'shared/mail/x.ts': ['../media/y.ts'], 'shared/media/y.ts': [] }],
    [
      'port-imports-no-other-port (the HTTP adapter)',
      { 'shared/events/x.ts': ['../http/y.ts'], 'shared/http/y.ts': [] },
    ],
    [
      'acquirer-port-imports-no-adapter',
      { 'shared/acquirer/acquirer.ts': ['type ./simulated.ts'], 'shared/acquirer/simulated.ts': [] },
    ],
    [
      'area-rules-use-acquirer-port',
      { 'shared/charges/service.ts': ['../acquirer/configured.ts'], 'shared/acquirer/configured.ts': [] },
    ],
    [
      'http-adapter-imports-no-area',
      { 'shared/http/x.ts': ['../plans/plan.ts'], 'shared/plans/plan.ts': [] },
    ],
    [
      'web-imports-core-only',
      { 'shared/web/x.ts': ['../checkout/pages.ts'], 'shared/checkout/pages.ts': [] },
    ],
    ['web-imports-core-only (the table)', { 'shared/web/x.ts': ['../db/y.ts'], 'shared/db/y.ts': [] }],
    [
      'stack-imports-route-types-only',
      { 'shared/stack/area.ts': ['type ../http/middlewares.ts'], 'shared/http/middlewares.ts': [] },
    ],
    [
      'stack-imports-route-types-only (an area)',
      { 'shared/stack/area.ts': ['type ../plans/plan.ts'], 'shared/plans/plan.ts': [] },
    ],
    [
      'stack-only-for-area-descriptors',
      { 'shared/plans/service.ts': ['type ../stack/area.ts'], 'shared/stack/area.ts': [] },
    ],
    ['area-rules-import-no-http', { 'shared/plans/plan.ts': ['../http/y.ts'], 'shared/http/y.ts': [] }],
    [
      // The back door the rule above left open: another area's *http.ts, which imports shared/http.
      'area-adapter-only-for-entry-points',
      {
        'shared/payment-links/service.ts': ['../checkout/http.ts'],
        'shared/checkout/http.ts': ['../http/y.ts'],
        'shared/http/y.ts': [],
      },
    ],
    [
      'area-adapter-only-for-entry-points (its own area)',
      { 'shared/checkout/service.ts': ['./submit-http.ts'], 'shared/checkout/submit-http.ts': [] },
    ],
    [
      // What an area declares for the stack (its routes included) is read only at the top.
      'area-adapter-only-for-entry-points (area.ts)',
      { 'shared/subscriptions/service.ts': ['../plans/area.ts'], 'shared/plans/area.ts': [] },
    ],
    [
      'area-adapter-imports-no-other-area-adapter',
      { 'shared/payment-links/routes.ts': ['../checkout/http.ts'], 'shared/checkout/http.ts': [] },
    ],
    [
      'area-payments-imports-higher-area',
      { 'shared/payments/a.ts': ['../checkout/b.ts'], 'shared/checkout/b.ts': [] },
    ],
    ['areas-import-no-top', { 'shared/plans/a.ts': ['../api/routes.ts'], 'shared/api/routes.ts': [] }],
    ['no-circular', { 'shared/plans/a.ts': ['./b.ts'], 'shared/plans/b.ts': ['./a.ts'] }],
    [
      // Type-only imports are erased at run time, but a cycle of them still ties the modules
      // together: none can be understood, moved or split without the others.
      'no-circular (import type only)',
      {
        'shared/plans/a.ts': ['type ./b.ts'],
        'shared/plans/b.ts': ['type ./c.ts'],
        'shared/plans/c.ts': ['type ./a.ts'],
      },
    ],
    ['infra-imports-no-entry-point', { 'infra/local/x.ts': ['../../bin/cli.ts'], 'bin/cli.ts': [] }],
    [
      // The operator CLI loaded the whole local stack (emulators, gateway) to read local.json.
      'bin-imports-no-infra',
      { 'bin/cli.ts': ['../infra/local/stack.ts'], 'infra/local/stack.ts': [] },
    ],
    [
      'bin-imports-no-infra (through info.ts)',
      {
        'bin/cli.ts': ['../infra/local/info.ts'],
        'infra/local/info.ts': ['type ./stack.ts'],
        'infra/local/stack.ts': [],
      },
    ],
    [
      'client-imports-no-server',
      { 'shared/client/src/x.ts': ['../../api/openapi.ts'], 'shared/api/openapi.ts': [] },
    ],
    [
      'client-imports-no-server (a type)',
      { 'shared/client/src/x.ts': ['type ../../plans/schemas.ts'], 'shared/plans/schemas.ts': [] },
    ],
    [
      'server-imports-no-client',
      { 'shared/plans/x.ts': ['../client/src/index.ts'], 'shared/client/src/index.ts': [] },
    ],
    [
      'small-functions-bundle-no-schema',
      {
        'functions/system/health.ts': ['../../shared/core/x.ts'],
        'shared/core/x.ts': ['../plans/schemas.ts'],
        'shared/plans/schemas.ts': [],
      },
    ],
  ])('fail on a wrong import: %s', (name, files) => {
    const rule = name.split(' ')[0];
    const dir = tree(name, files);
    const run = cruise(dir, [...new Set(Object.keys(files).map((path) => path.split('/')[0] ?? ''))]);
    expect(run.output).toContain(`error ${rule}:`);
    expect(run.status).not.toBe(0);
  });

  it('fail on the client imported by its package name: server-imports-no-client', () => {
    // As in the repository: @cobro/client is a workspace, linked in node_modules, that resolves
    // to its sources through its package.json's exports.
    const dir = tree('client-by-name', {
      'functions/plans/x.ts': ['@cobro/client'],
      'shared/client/src/index.ts': [],
    });
    writeFileSync(
      join(dir, 'shared/client/package.json'),
      JSON.stringify({ name: '@cobro/client', type: 'module', exports: { '.': './src/index.ts' } }),
    );
    mkdirSync(join(dir, 'node_modules/@cobro'), { recursive: true });
    symlinkSync('../../shared/client', join(dir, 'node_modules/@cobro/client'));
    const run = cruise(dir, ['functions', 'shared']);
    expect(run.output).toContain(
      'error server-imports-no-client: functions/plans/x.ts → shared/client/src/index.ts',
    );
    expect(run.status).not.toBe(0);
  });
});
