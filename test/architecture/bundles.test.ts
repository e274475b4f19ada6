/**
 * What each function ships, bundled as the CDK app bundles it (test/support/bundles.ts; the AWS SDK
 * left out, which is the same in every function and not cobro's choice): the message texts it
 * holds are those of the code it runs, the health check stays small, and the dashboard's one
 * function holds every page its rows name. A deliberately wrong function
 * (fixtures/health-with-plan-texts.ts) shows the message rule failing.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../infra/local/info.ts';
import { routes } from '../../shared/api/routes.ts';
import { dashboardFunction } from '../../shared/dashboard/area.ts';
import {
  bundleFunctions,
  bytesWhenUnread,
  type FunctionBundle,
  functionEntries,
  messageModules,
  strayMessages,
} from '../support/bundles.ts';

/** The most the health check may ship: it reads one item and answers two fixed bodies. */
const healthLimitBytes = 30 * 1024;

const sdkLeftOut = { bundleAwsSdk: false, sourceMap: false };
const fixture = 'test/architecture/fixtures/health-with-plan-texts.ts';

let bundles: FunctionBundle[] = [];
const bundleOf = (entry: string) => {
  const found = bundles.find((bundle) => bundle.entry === entry);
  if (!found) throw new Error(`no bundle of ${entry}`);
  return found;
};

beforeAll(async () => {
  bundles = await bundleFunctions([...functionEntries, fixture], { bundling: sdkLeftOut });
});

describe('message texts in the bundles', () => {
  it('are, in every function, those of folders whose code the function runs', () => {
    const stray = bundles
      .filter((bundle) => bundle.entry !== fixture)
      .flatMap((bundle) => strayMessages(bundle).map((path) => `${bundle.entry}: ${path}`));
    expect(stray).toEqual([]);
  });

  it("are seen where they belong: a plan function holds the plans' texts, the health check no area's", () => {
    const folders = (entry: string) => messageModules(bundleOf(entry)).map(([path]) => path);
    expect(folders('functions/plans/create-plan.ts')).toContain('shared/plans/messages.ts');
    expect(folders('functions/subscriptions/create-subscription.ts')).toContain(
      'shared/subscriptions/messages.ts',
    );
    expect(folders('functions/system/health.ts').every((path) => /^shared\/(core|http)\//.test(path))).toBe(
      true,
    );
  });

  it("fail on a function that reads an area's texts without running its code", () => {
    expect(strayMessages(bundleOf(fixture))).toEqual(['shared/plans/messages.ts']);
  });
});

describe('message modules', () => {
  // Every folder's messages.ts under shared/, and the base's rules.
  const modules = readdirSync(join(projectRoot, 'shared'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `shared/${entry.name}/messages.ts`)
    .filter((path) => readdirSync(join(projectRoot, path, '..')).includes('messages.ts'))
    .concat('shared/core/rules.ts');

  it('cost nothing in a function that imports them and reads none of their texts', async () => {
    expect(modules.length).toBeGreaterThan(10);
    const kept = [...(await bytesWhenUnread(modules))].filter(([, bytes]) => bytes > 0);
    expect(kept).toEqual([]);
  });

  it('would, unmarked, cost their texts in such a function', async () => {
    const unmarked = 'test/architecture/fixtures/unmarked-messages.ts';
    expect((await bytesWhenUnread([unmarked])).get(unmarked)).toBeGreaterThan(0);
  });
});

describe('the health check', () => {
  it(`bundles under ${healthLimitBytes / 1024} kB`, () => {
    const health = bundleOf('functions/system/health.ts');
    const largest = [...health.modules]
      .sort(([, a], [, b]) => b - a)
      .slice(0, 5)
      .map(([path, bytes]) => `${path} ${bytes}`);
    expect(health.bytes, `largest modules in it: ${largest.join(', ')}`).toBeLessThan(healthLimitBytes);
  });
});

describe("the dashboard's one function", () => {
  // Its router loads a page's module by a template (`./${module}-http.ts`): the bundler must take in
  // every module a row names, or that page fails when first asked for, in a deployed stage only.
  it('bundles the module of every page its rows name', () => {
    const dashboard = bundleOf(dashboardFunction.handler);
    const named = new Set(
      routes
        .filter((route) => route.handler === dashboardFunction.handler)
        .map(
          (route) => `shared/dashboard/${String((route as { page?: string }).page).split('#')[0]}-http.ts`,
        ),
    );
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((module) => !dashboard.modules.has(module))).toEqual([]);
    console.log(
      `${dashboardFunction.handler}: ${(dashboard.bytes / 1024).toFixed(1)} kB without the AWS SDK, ${dashboard.modules.size} modules`,
    );
  });
});
