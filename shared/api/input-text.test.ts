/**
 * Every string a request takes is clean text (shared/core/validation.ts textChecks): this walks
 * the body and query schemas of every route in the table and names any string that is not
 * checked, so a new field cannot skip the rule by using a bare `v.string()`.
 */
import { describe, expect, it } from 'vitest';
import { textChecks } from '../core/validation.ts';
import { routes } from './routes.ts';

interface Node {
  type?: string;
  kind?: string;
  pipe?: readonly Node[];
  entries?: Record<string, Node>;
  item?: Node;
  items?: readonly Node[];
  options?: readonly Node[];
  wrapped?: Node;
  key?: Node;
  value?: Node;
}

const checks: readonly unknown[] = Object.values(textChecks);

/**
 * The paths of strings in `schema` that no text check covers, and whether one was met. A check in
 * a pipe covers the pipe's own string and every schema after it (a query parameter checks its raw
 * text first, then reads it).
 */
function walk(schema: Node, path: string, covered: boolean): { unchecked: string[]; checked: boolean } {
  const unchecked: string[] = [];
  let checked = false;
  const visit = (child: Node | undefined, childPath: string, childCovered: boolean) => {
    if (!child) return;
    const found = walk(child, childPath, childCovered);
    unchecked.push(...found.unchecked);
    checked ||= found.checked;
  };
  if (schema.pipe) {
    const [root, ...rest] = schema.pipe;
    let inPipe = covered || rest.some((action) => checks.includes(action));
    checked ||= inPipe && !covered;
    if (root) {
      const found = walk(root, path, inPipe);
      unchecked.push(...found.unchecked);
      if (found.checked) {
        inPipe = true;
        checked = true;
      }
    }
    for (const item of rest) if (item.kind === 'schema') visit(item, path, inPipe);
    return { unchecked, checked };
  }
  if (schema.type === 'string' && !covered) unchecked.push(path || '(body)');
  for (const [name, entry] of Object.entries(schema.entries ?? {})) visit(entry, `${path}.${name}`, covered);
  visit(schema.item, `${path}[]`, covered);
  for (const [i, item] of (schema.items ?? []).entries()) visit(item, `${path}[${i}]`, covered);
  for (const option of schema.options ?? []) visit(option, path, covered);
  visit(schema.wrapped, path, covered);
  visit(schema.key, `${path}{key}`, covered);
  visit(schema.value, `${path}{}`, covered);
  return { unchecked, checked };
}

describe('the strings requests take', () => {
  it('are all clean text, in every body and query of the route table', () => {
    const unchecked = routes.flatMap((route) =>
      [
        ['body', route.body],
        ['query', route.query],
      ].flatMap(([part, schema]) =>
        schema
          ? walk(schema as Node, '', false).unchecked.map(
              (path) => `${route.method} ${route.path} ${part}${path}`,
            )
          : [],
      ),
    );
    expect(unchecked).toEqual([]);
  });

  it('are found by the walk when they are bare', async () => {
    const v = await import('valibot');
    const bare = v.strictObject({ a: v.string(), b: v.optional(v.union([v.string(), v.number()])) });
    expect(walk(bare as Node, '', false).unchecked).toEqual(['.a', '.b']);
  });
});
