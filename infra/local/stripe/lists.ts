/** Stripe's lists: newest first, `limit`, `starting_after`/`ending_before` cursors, `created` ranges. */
import type { Context } from './context.ts';
import { invalidRequest } from './errors.ts';
import type { Params } from './params.ts';
import type { Owned } from './store.ts';

export interface Paging {
  limit: number;
  startingAfter: string | undefined;
  endingBefore: string | undefined;
  created: { gte?: number; gt?: number; lte?: number; lt?: number } | undefined;
}

/** Reads the paging parameters every list takes. */
export function readPaging(params: Params): Paging {
  const paging = {
    limit: params.integer('limit', { min: 1, max: 100 }) ?? 10,
    startingAfter: params.string('starting_after'),
    endingBefore: params.string('ending_before'),
    created: params.range('created'),
  };
  if (paging.startingAfter && paging.endingBefore)
    throw invalidRequest('You may only specify one of these parameters: starting_after, ending_before.');
  return paging;
}

export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/**
 * One page of `records` (this key's account and mode only), newest first; a cursor that names no
 * record of the list is Stripe's 400.
 */
export function page<T extends { id: string; created: number }>(
  ctx: Context,
  records: Iterable<Owned<T>>,
  paging: Paging,
  url: string,
): StripeList<T> {
  const { created } = paging;
  const listed = [...records]
    .filter((record) => record.account === ctx.account.object.id && record.livemode === ctx.livemode)
    .filter(({ object }) => {
      if (!created) return true;
      if (created.gte !== undefined && object.created < created.gte) return false;
      if (created.gt !== undefined && object.created <= created.gt) return false;
      if (created.lte !== undefined && object.created > created.lte) return false;
      if (created.lt !== undefined && object.created >= created.lt) return false;
      return true;
    })
    .sort((a, b) => b.seq - a.seq)
    .map((record) => record.object);
  let from = 0;
  let to = listed.length;
  const cursor = paging.startingAfter ?? paging.endingBefore;
  if (cursor !== undefined) {
    const at = listed.findIndex((object) => object.id === cursor);
    if (at < 0)
      throw invalidRequest(`No such object: '${cursor}'`, {
        code: 'resource_missing',
        param: paging.startingAfter ? 'starting_after' : 'ending_before',
      });
    if (paging.startingAfter) from = at + 1;
    else to = at;
  }
  // ending_before pages backwards: the `limit` objects just before the cursor.
  const window = paging.endingBefore
    ? listed.slice(Math.max(from, to - paging.limit), to)
    : listed.slice(from, from + paging.limit);
  const hasMore = paging.endingBefore ? to - paging.limit > from : from + paging.limit < to;
  return { object: 'list', data: window.map((object) => structuredClone(object)), has_more: hasMore, url };
}
