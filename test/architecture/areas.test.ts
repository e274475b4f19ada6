/**
 * The one list of areas (shared/api/areas.ts) is what the layer rules and the assembled tables are
 * read from: the rules' layer order is the list's, every listed area's folder declares itself, and
 * every folder of shared/ is a base, a port, the HTTP adapter, what areas declare for the stack, the
 * top, the typed client or a listed area (an area left out of the list would escape every area rule).
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { areas } from '../../shared/api/areas.ts';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);

interface Rule {
  name: string;
  from: { path?: string };
  to: { path?: string };
}

const loadRules = (config: string): Rule[] => (require(config) as { forbidden: Rule[] }).forbidden;

/** The areas a rule's `from` names, `^shared/(a|b|c)/`, in its order. */
const areasOf = (rule: Rule | undefined): string[] =>
  /^\^shared\/\(([a-z|-]+)\)\/$/.exec(rule?.from.path ?? '')?.[1]?.split('|') ?? [];

const scratch = mkdtempSync(join(tmpdir(), 'cobro-areas-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the list of areas', () => {
  const names = areas.map((area) => area.name);

  it('is the layer order of the dependency rules', () => {
    const rules = loadRules(join(root, '.dependency-cruiser.cjs'));
    expect(areasOf(rules.find((rule) => rule.name === 'area-rules-use-acquirer-port'))).toEqual(names);
    // Each area but the highest may not import the ones after it.
    const upward = rules.filter((rule) => /^area-[a-z-]+-imports-higher-area$/.test(rule.name));
    expect(upward.map((rule) => rule.name)).toEqual(
      names.slice(0, -1).map((name) => `area-${name}-imports-higher-area`),
    );
    expect(upward.at(-1)?.to.path).toBe(`^shared/(${names.at(-1)})/`);
  });

  it("names each area by its folder, whose area.ts is the list's entry", async () => {
    expect(new Set(names).size).toBe(names.length);
    for (const area of areas) {
      const module = (await import(`../../shared/${area.name}/area.ts`)) as Record<string, unknown>;
      expect(Object.values(module), area.name).toContain(area);
    }
  });

  it('holds every folder of shared/ that is not the base, a port, the HTTP adapter, the top or the client', () => {
    // client is the typed client package, outside the layers: it imports nothing of the server.
    // web (the page templates and shell) is a base beside core; stack holds what areas declare.
    const layers = [
      'core',
      'web',
      'db',
      'events',
      'mail',
      'media',
      'acquirer',
      'http',
      'stack',
      'api',
      'client',
    ];
    const folders = readdirSync(join(root, 'shared'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !layers.includes(folder) && !names.includes(folder))).toEqual([]);
    expect(names.filter((name) => layers.includes(name))).toEqual([]);
  });

  it('is read by the rules or refused, never read short', () => {
    const list = readFileSync(join(root, 'shared/api/areas.ts'), 'utf8');
    const configWith = (name: string, text: string) => {
      const dir = join(scratch, name);
      mkdirSync(join(dir, 'shared/api'), { recursive: true });
      copyFileSync(join(root, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
      writeFileSync(join(dir, 'shared/api/areas.ts'), text);
      return join(dir, '.dependency-cruiser.cjs');
    };
    // accounts moved from the list's first line (lowest) to its last (highest): the rules follow.
    const reordered = list
      .replace(/^[ \t]+accountsArea,\n/m, '')
      .replace(/^([ \t]+)(\w+),\n\];$/m, '$1$2,\n$1accountsArea,\n];');
    const rules = loadRules(configWith('reordered', reordered));
    expect(areasOf(rules.find((rule) => rule.name === 'area-rules-use-acquirer-port'))).toEqual([
      ...names.filter((name) => name !== 'accounts'),
      'accounts',
    ]);
    // An entry not imported from an area.ts, or a list the reader cannot find, stops the rules.
    const stray = list.replace(/^([ \t]+)accountsArea,$/m, '$1accountsArea,\n$1strayArea,');
    expect(() => loadRules(configWith('stray', stray))).toThrow(/strayArea is not imported/);
    const inline = list.replace(/= \[\n[\s\S]*?\n\];/, `= [${names.map((n) => `${n}Area`).join(', ')}];`);
    expect(() => loadRules(configWith('inline', inline))).toThrow(/no `export const areas = \[` list/);
  });
});
