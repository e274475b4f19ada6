/**
 * Page-numbered lists (Envelope A, docs/design.md#lists): `page` from 1, `page_size` clamped to the
 * maximum, a non-integer or non-positive value 400, a page past the last 404.
 */
import * as v from 'valibot';
import { NotFound } from './errors.ts';
import { coreMessages } from './messages.ts';
import { queryParameter } from './query.ts';
import * as rules from './rules.ts';
import { validate } from './validation.ts';

export interface PageRequest {
  page: number;
  pageSize: number;
}

/** Envelope A. */
export interface NumberedPage<T> {
  count: number;
  current_page: number;
  total_pages: number;
  results: T[];
}

export interface PageLimits {
  defaultSize: number;
  maxSize: number;
}

const defaultLimits: PageLimits = { defaultSize: 10, maxSize: 100 };

/** A positive integer; one beyond any real list reads as "past the last page", not as malformed. */
const positive = v.pipe(
  v.string(),
  // `-130`, `0` and `1.5` are all refused the same way: the message says what a page number is.
  v.regex(/^\d+$/, rules.positive_integer),
  v.transform(Number),
  v.minValue(1, rules.positive_integer),
  v.transform((value) => (Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER)),
);

/**
 * `page` and `page_size` as query parameters, for a list's query object (pageRequestOf reads their
 * output). Unlike a filter, a blank value is malformed rather than absent.
 */
export const pageParameters = (limits: PageLimits = defaultLimits) => ({
  page: queryParameter('integer', 'From 1 (default 1); past the last page is 404.', positive, {
    blank: 'invalid',
  }),
  page_size: queryParameter(
    'integer',
    `Default ${limits.defaultSize}; above ${limits.maxSize} is taken as ${limits.maxSize}.`,
    positive,
    { blank: 'invalid' },
  ),
});

/** The page a list answers, from the output of pageParameters: defaults filled, the size clamped. */
export const pageRequestOf = (
  values: { page?: number | undefined; page_size?: number | undefined },
  limits: PageLimits = defaultLimits,
): PageRequest => ({
  page: values.page ?? 1,
  pageSize: Math.min(values.page_size ?? limits.defaultSize, limits.maxSize),
});

/** The query schema of a list that has only paging. */
export const pageRequestSchema = (limits: PageLimits = defaultLimits) =>
  v.pipe(
    v.object(pageParameters(limits)),
    v.transform((values) => pageRequestOf(values, limits)),
  );

/** `page` and `page_size` of a query. */
export function parsePageRequest(
  query: Record<string, string | undefined>,
  limits: PageLimits = defaultLimits,
): PageRequest {
  return validate(pageRequestSchema(limits), query);
}

export const totalPages = (count: number, pageSize: number) => Math.ceil(count / pageSize);

/** 404 (message envelope) for a page past the last; page 1 of an empty list exists. */
export function assertPageExists(count: number, request: PageRequest): void {
  const last = totalPages(count, request.pageSize);
  if (request.page > Math.max(1, last)) {
    throw new NotFound(coreMessages.page_not_found, {
      params: { page: String(request.page), last: String(last) },
    });
  }
}

/** Envelope A around one page of results. */
export function numberedPage<T>(count: number, request: PageRequest, results: T[]): NumberedPage<T> {
  return { count, current_page: request.page, total_pages: totalPages(count, request.pageSize), results };
}

/** Envelope B: a page with the absolute URLs of its neighbours. */
export interface LinkedPage<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * Envelope B around one page: `link(n)` is the absolute URL of page n (with the list's filters);
 * `previous` of a page past the last points at the last one.
 */
export function linkedPage<T>(
  count: number,
  request: PageRequest,
  results: T[],
  link: (page: number) => string,
): LinkedPage<T> {
  const last = totalPages(count, request.pageSize);
  return {
    count,
    next: request.page < last ? link(request.page + 1) : null,
    previous: request.page > 1 ? link(Math.min(request.page - 1, Math.max(last, 1))) : null,
    results,
  };
}
