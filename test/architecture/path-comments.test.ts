/**
 * A comment that names a file points a reader at it: every path a comment of the production tree
 * names (`shared/api/routes.ts`, `./keys.ts`, `docs/design.md#lists`) exists. A file moved or
 * renamed leaves no comment pointing at where it was.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const folders = ['shared', 'functions', 'infra', 'bin'];

/** The production sources: no tests, no generated client, no workspace's own dependencies. */
const sources = () =>
  folders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => /\.[cm]?ts$/.test(path) && !/\.test(-d)?\.ts$/.test(path))
      .filter((path) => !path.split('/').includes('node_modules') && !path.split('/').includes('generated'))
      .map((path) => join(folder, path)),
  );

/** A comment line: `//`, or a line of a block comment. */
const commentLine = /^\s*(\/\/|\/?\*)/;
/** A path from the project root, or one relative to the file (`./x.ts`, `../area/x.ts`). */
const pathInText =
  /(?<![\w./-])((?:shared|functions|infra|bin|test|docs)\/[\w./-]+|\.\.?\/[\w./-]+)\.(ts|md|cjs|json)\b/g;

/** Every path the comments of `file` name, with the line it is on. */
function namedPaths(file: string): { line: number; path: string; resolved: string }[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  return lines.flatMap((text, index) =>
    commentLine.test(text)
      ? [...text.matchAll(pathInText)].map((match) => {
          const path = `${match[1]}.${match[2]}`;
          const resolved = path.startsWith('.') ? join(dirname(file), path) : path;
          return { line: index + 1, path, resolved };
        })
      : [],
  );
}

describe('paths named in comments', () => {
  it('are found in comments at all (the scan reads what it should)', () => {
    const named = sources().flatMap(namedPaths);
    expect(named.length).toBeGreaterThan(100);
    expect(named.some(({ path }) => path.startsWith('./'))).toBe(true);
  });

  it('exist, in every production source', () => {
    const stale = sources().flatMap((file) =>
      namedPaths(file)
        .filter(({ resolved }) => !existsSync(join(root, resolved)))
        .map(({ line, path }) => `${file}:${line}: ${path}`),
    );
    expect(stale).toEqual([]);
  });
});
