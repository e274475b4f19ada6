/**
 * `expand[]=payment_intent.latest_charge`: an id field replaced by the object it names (of the same
 * account and mode), level by level, at most four levels deep as at Stripe. A list expands its
 * objects' fields with `data.` in front.
 */
import { type Context, find } from './context.ts';
import { invalidRequest } from './errors.ts';
import { kindOf } from './store.ts';

const maxDepth = 4;

/** A copy of `answer` with `paths` expanded. */
export function expand<T>(ctx: Context, answer: T, paths: readonly string[]): T {
  const copy = structuredClone(answer);
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.length > maxDepth + (isList(copy) ? 1 : 0))
      throw invalidRequest(`You cannot expand more than ${maxDepth} levels of a property. Property: ${path}`);
    expandAt(ctx, copy, segments, path);
  }
  return copy;
}

function isList(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { object?: unknown }).object === 'list';
}

function expandAt(ctx: Context, holder: unknown, segments: string[], path: string): void {
  const [segment, ...rest] = segments;
  if (segment === undefined) return;
  if (Array.isArray(holder)) {
    for (const item of holder) expandAt(ctx, item, segments, path);
    return;
  }
  if (typeof holder !== 'object' || holder === null || !Object.hasOwn(holder, segment))
    throw cannotExpand(path);
  const fields = holder as Record<string, unknown>;
  const value = fields[segment];
  if (value === null) return; // Stripe expands an empty field to null
  if (typeof value === 'string') {
    const kind = kindOf(value);
    const record = kind ? find(ctx, kind.collection, value) : undefined;
    if (!record) throw cannotExpand(path);
    fields[segment] = structuredClone(record.object);
  }
  // An object already (expanded by an earlier path, or a list's `data`): go on inside it.
  expandAt(ctx, fields[segment], rest, path);
}

const cannotExpand = (path: string) =>
  invalidRequest(`This property cannot be expanded (${path}).`, { param: 'expand' });
