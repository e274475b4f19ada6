/**
 * Table keys are written in their owner's keys.ts (shared/<area or port>/keys.ts, the mechanism in
 * shared/db/keys.ts) and nowhere else, so a key's shape has one home and key-shapes.test.ts sees
 * it. A string that starts like a key (`'PLAN#'`, `` `DUE#…` ``, `'LINK~COUNT'`) anywhere else fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** A string literal or template that opens with an upper-case key segment and `#` or `~`. */
const keyLiteral = /['"`][A-Z][A-Z_]*[#~]/;

/** Code without its comments (comments may show a key's shape), its lines where they were. */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, '')).replace(/\/\/.*$/gm, '');

/** Each line of `source` that writes a key-like string, as `path:line: text`. */
function keyStrings(path: string, source: string): string[] {
  return withoutComments(source)
    .split('\n')
    .flatMap((line, index) => (keyLiteral.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : []));
}

describe('where table keys are written', () => {
  it('is only the owners’ keys.ts files', () => {
    const found = ['shared', 'functions', 'infra', 'bin'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter(
          (path) =>
            path.endsWith('.ts') &&
            !path.endsWith('.test.ts') &&
            basename(path) !== 'keys.ts' &&
            !path.split('/').includes('node_modules'),
        )
        .flatMap((path) => {
          const file = join(root, folder, path);
          return keyStrings(relative(root, file), readFileSync(file, 'utf8'));
        }),
    );
    expect(found).toEqual([]);
  });

  it('notices a key written in a repository', () => {
    const source = [
      '/**',
      ' * Plans sort as `PLAN#…`.',
      ' */',
      "const key = { pk: `ACCOUNT#` + developerId, sk: 'PLAN' };",
      "const prefix = 'LOG#';",
      'const due = `DUE#` + shard;',
    ].join('\n');
    expect(keyStrings('shared/plans/repository.ts', source)).toEqual([
      "shared/plans/repository.ts:4: const key = { pk: `ACCOUNT#` + developerId, sk: 'PLAN' };",
      "shared/plans/repository.ts:5: const prefix = 'LOG#';",
      'shared/plans/repository.ts:6: const due = `DUE#` + shard;',
    ]);
  });
});
