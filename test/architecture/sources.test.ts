/**
 * The layer rules judge only what dependency-cruiser saw: a source it skipped, or an import it
 * could not read, would pass every rule unseen. TypeScript 7 has no compiler API, so it reads the
 * sources with swc (`parser: 'swc'` in .dependency-cruiser.cjs); these tests hold that it reads all
 * of them, type-only imports included, and that it does not warn it may have missed some.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const folders = ['shared', 'functions', 'infra', 'bin'];

interface Cruise {
  modules: { source: string; dependencies: { resolved: string; dependencyTypes: string[] }[] }[];
  summary: { environment?: { issues?: { name: string; description: string }[] } };
}

const run = spawnSync(
  join(root, 'node_modules/.bin/depcruise'),
  [...folders, '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'],
  { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
const cruise = JSON.parse(run.stdout) as Cruise;

/** Every TypeScript file on disk under the cruised folders, as paths from the project root. */
function sourcesOnDisk(): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      // A workspace's own dependencies (bin/typegen/node_modules) are not sources of cobro.
      .filter((path) => /\.[cm]?ts$/.test(path) && !path.split('/').includes('node_modules'))
      .map((path) => relative(root, join(root, folder, path))),
  );
}

describe('what dependency-cruiser sees', () => {
  it('is every TypeScript source under shared, functions, infra and bin', () => {
    const onDisk = sourcesOnDisk();
    const seen = new Set(cruise.modules.map((module) => module.source));
    expect(onDisk.length).toBeGreaterThan(250);
    expect(onDisk.filter((path) => !seen.has(path))).toEqual([]);
  });

  it('is every relative import of each source, type-only imports marked as such', () => {
    // A cheap independent reading of each file: the `from '…'` of its static imports and exports.
    const typeOnly = /^\s*(import|export)\s+type\s/;
    let imports = 0;
    let typeImports = 0;
    for (const module of cruise.modules.filter((m) => folders.some((f) => m.source.startsWith(`${f}/`)))) {
      const text = readFileSync(join(root, module.source), 'utf8');
      const statements = text.match(/^(?:import|export)\s[^;]*?\sfrom\s+'\.[^']*';/gms) ?? [];
      for (const statement of statements) {
        const target = /from\s+'([^']+)'/.exec(statement)?.[1] ?? '';
        const resolved = relative(root, resolve(root, module.source, '..', target));
        const found = module.dependencies.filter((dependency) => dependency.resolved === resolved);
        expect(found, `${module.source} imports ${target}`).not.toEqual([]);
        imports += 1;
        if (typeOnly.test(statement)) {
          typeImports += 1;
          expect(
            found.some((dependency) => dependency.dependencyTypes.includes('type-only')),
            `${module.source}: ${statement.split('\n')[0]} is type-only`,
          ).toBe(true);
        }
      }
    }
    // The reading above found the imports there are (so it checked something).
    expect(imports).toBeGreaterThan(1000);
    expect(typeImports).toBeGreaterThan(100);
  });

  it('comes without a warning that sources may have been missed', () => {
    expect(run.status).toBe(0);
    expect(cruise.summary.environment?.issues ?? []).toEqual([]);
  });
});
