import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { answerOf, statusOf } from '../http/errors.ts';
import { NotFound } from './errors.ts';
import {
  assertPageExists,
  numberedPage,
  pageParameters,
  parsePageRequest,
  totalPages,
} from './pagination.ts';
import * as rules from './rules.ts';
import { InvalidInput } from './validation.ts';

function invalid(query: Record<string, string | undefined>): InvalidInput {
  try {
    parsePageRequest(query);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInput);
    return error as InvalidInput;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

describe('parsePageRequest', () => {
  it('defaults to page 1 of 10', () => {
    expect(parsePageRequest({})).toEqual({ page: 1, pageSize: 10 });
    expect(parsePageRequest({ page: '', page_size: '' })).toEqual({ page: 1, pageSize: 10 });
    expect(parsePageRequest({ page: undefined, page_size: undefined })).toEqual({ page: 1, pageSize: 10 });
  });

  it('reads page and page_size', () => {
    expect(parsePageRequest({ page: '3', page_size: '25' })).toEqual({ page: 3, pageSize: 25 });
    expect(parsePageRequest({ page: ' 2 ', page_size: '100' })).toEqual({ page: 2, pageSize: 100 });
  });

  it('clamps page_size above 100 to 100', () => {
    expect(parsePageRequest({ page_size: '101' }).pageSize).toBe(100);
    expect(parsePageRequest({ page_size: '100000' }).pageSize).toBe(100);
    expect(parsePageRequest({ page_size: '99999999999999999999999' }).pageSize).toBe(100);
  });

  it('takes other limits', () => {
    expect(parsePageRequest({}, { defaultSize: 100, maxSize: 1000 })).toEqual({ page: 1, pageSize: 100 });
    expect(parsePageRequest({ page_size: '5000' }, { defaultSize: 100, maxSize: 1000 }).pageSize).toBe(1000);
  });

  // One message whatever is wrong with it: "-1" is an integer, so "must be an integer" would mislead.
  it.each(['0', '00', '-1', '-130', '1.5', 'x', '1e2', '+2', '2 pages', '0x10'])(
    'refuses %j as not a whole number of at least 1',
    (value) => {
      for (const field of ['page', 'page_size']) {
        const error = invalid({ [field]: value });
        expect(statusOf(error)).toBe(400);
        expect(error.problems).toEqual([{ field, rule: rules.positive_integer }]);
      }
    },
  );

  it('reports both fields when both are wrong', () => {
    expect(invalid({ page: 'x', page_size: '0' }).problems.map((problem) => problem.field)).toEqual([
      'page',
      'page_size',
    ]);
  });

  it('takes a huge page number as a page past the end, not as malformed', () => {
    const request = parsePageRequest({ page: '99999999999999999999999999' });
    expect(request.page).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => assertPageExists(1_000_000, request)).toThrow(NotFound);
  });
});

describe('assertPageExists', () => {
  it('lets page 1 of an empty list exist', () => {
    expect(() => assertPageExists(0, { page: 1, pageSize: 10 })).not.toThrow();
  });

  it('lets every page up to the last exist', () => {
    expect(() => assertPageExists(21, { page: 3, pageSize: 10 })).not.toThrow();
    expect(() => assertPageExists(20, { page: 2, pageSize: 10 })).not.toThrow();
  });

  it('answers 404 (type warning) for a page past the last', () => {
    let thrown: unknown;
    try {
      assertPageExists(20, { page: 3, pageSize: 10 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NotFound);
    const error = thrown as NotFound;
    expect(statusOf(error)).toBe(404);
    expect(answerOf(error, 'en')?.body).toEqual({
      code: 404,
      title: 'Invalid page',
      content: 'Page 3 does not exist; the last page is 2.',
      type: 'warning',
    });
    expect(() => assertPageExists(0, { page: 2, pageSize: 10 })).toThrow(NotFound);
  });

  it('agrees with total_pages for any count, size and page', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 20_000 }),
        (count, pageSize, page) => {
          const exists = page === 1 || (page - 1) * pageSize < count;
          if (exists) expect(() => assertPageExists(count, { page, pageSize })).not.toThrow();
          else expect(() => assertPageExists(count, { page, pageSize })).toThrow(NotFound);
        },
      ),
    );
  });
});

describe('numberedPage', () => {
  it('builds Envelope A', () => {
    expect(numberedPage(21, { page: 2, pageSize: 10 }, ['k', 'l'])).toEqual({
      count: 21,
      current_page: 2,
      total_pages: 3,
      results: ['k', 'l'],
    });
    expect(numberedPage(0, { page: 1, pageSize: 10 }, [])).toEqual({
      count: 0,
      current_page: 1,
      total_pages: 0,
      results: [],
    });
  });

  it('has total_pages = ceil(count / page_size), enough pages for every item and no empty last page', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100_000 }),
        (count, pageSize, page) => {
          const envelope = numberedPage(count, { page, pageSize }, []);
          expect(envelope.count).toBe(count);
          expect(envelope.current_page).toBe(page);
          expect(envelope.total_pages).toBe(totalPages(count, pageSize));
          expect(Number.isInteger(envelope.total_pages)).toBe(true);
          expect(envelope.total_pages * pageSize).toBeGreaterThanOrEqual(count);
          if (count > 0) expect((envelope.total_pages - 1) * pageSize).toBeLessThan(count);
          else expect(envelope.total_pages).toBe(0);
        },
      ),
    );
  });
});

describe('pageParameters', () => {
  it('describe the limits they apply', () => {
    const parameters = pageParameters({ defaultSize: 100, maxSize: 1000 });
    expect(Object.keys(parameters)).toEqual(['page', 'page_size']);
    expect(v.getDescription(parameters.page_size)).toBe('Default 100; above 1000 is taken as 1000.');
  });

  it('take a blank value as malformed, unlike a filter', () => {
    expect(invalid({ page: ' ' }).problems).toEqual([{ field: 'page', rule: rules.positive_integer }]);
  });
});
