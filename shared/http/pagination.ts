/**
 * Page-numbered lists (Envelope A, D9): `page` from 1, `page_size` clamped to the maximum, a
 * non-integer or non-positive value 400, a page past the last 404.
 */
import { NotFound } from './errors.ts';
import { InvalidInput, type Problem } from './validation.ts';

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

function positive(
  query: Record<string, string | undefined>,
  field: string,
  fallback: number,
): { value: number; problem?: undefined } | { value?: undefined; problem: Problem } {
  const raw = query[field];
  if (raw === undefined || raw === '') return { value: fallback };
  if (!/^\d+$/.test(raw.trim())) return { problem: { field, rule: 'integer' } };
  const value = Number(raw.trim());
  if (value < 1) return { problem: { field, rule: 'min_value', params: { limit: '1' } } };
  // Beyond any real list; it reads as "past the last page" rather than as a malformed number.
  return { value: Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER };
}

/** `page` and `page_size` of a query. */
export function parsePageRequest(
  query: Record<string, string | undefined>,
  limits: { defaultSize: number; maxSize: number } = { defaultSize: 10, maxSize: 100 },
): PageRequest {
  const page = positive(query, 'page', 1);
  const size = positive(query, 'page_size', limits.defaultSize);
  if (page.problem || size.problem) {
    throw new InvalidInput([page.problem, size.problem].filter((p): p is Problem => p !== undefined));
  }
  return { page: page.value, pageSize: Math.min(size.value, limits.maxSize) };
}

export const totalPages = (count: number, pageSize: number) => Math.ceil(count / pageSize);

/** 404 (message envelope) for a page past the last; page 1 of an empty list exists. */
export function assertPageExists(count: number, request: PageRequest): void {
  const last = totalPages(count, request.pageSize);
  if (request.page > Math.max(1, last)) {
    throw new NotFound('page_not_found', {
      type: 'warning',
      params: { page: String(request.page), last: String(last) },
    });
  }
}

/** Envelope A around one page of results. */
export function numberedPage<T>(count: number, request: PageRequest, results: T[]): NumberedPage<T> {
  return { count, current_page: request.page, total_pages: totalPages(count, request.pageSize), results };
}
