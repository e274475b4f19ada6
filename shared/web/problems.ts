/**
 * What a page shows when the domain refuses (docs/design.md#pages): one shape for the problem of
 * every page and form, and one error boundary that turns a failure the domain states into that
 * problem. A page never tells failures apart by their classes: this module does, once, and hands
 * the page a status, a message and what a form needs beside its fields.
 *
 * The web base knows no HTTP (it imports core only): the adapter that serves the pages hands in
 * the status each failure answers with (shared/http/errors.ts `statusOf`), so a page shows the
 * status the API answers the same failure with.
 */
import { DomainError, Failure, TooOften } from '../core/errors.ts';
import { type Lang, text } from '../core/messages.ts';
import { InvalidInput } from '../core/validation.ts';

/** A failure as a page shows it. */
export interface Problem {
  /** The status the API answers the failure with. */
  status: number;
  /** What the page says: the failure's text (its details' text where it has one). */
  message: string;
  /**
   * The failure's title, where it says more than a form's fields do (a list's "No plans found"):
   * a page that shows it writes it as a sentence of its own. @default none
   */
  title?: string;
  /** The message of each refused form field, by the field's name (the API's `data.errors`). @default none */
  fields?: Record<string, string>;
  /** Seconds until a limit reached lets the request be made again (the API's Retry-After). @default none */
  retryAfterSeconds?: number;
}

/** What a page's boundary shows: the problem of a failure of a given status, or of any. */
export interface Boundary {
  /** Only failures of this status are shown; the others go on to the function's boundary. @default every status */
  only?: number;
}

/** The problem of a failure, in the reader's language, with the status `statusOf` gives it. */
function problemOf(error: DomainError, lang: Lang, statusOf: (error: DomainError) => number): Problem {
  const status = statusOf(error);
  if (!(error instanceof Failure)) return { status, message: error.message };
  const said = text(error.msg, lang, error.params);
  const details = error.details(lang).content;
  const message = typeof details === 'string' ? details : said.content;
  // A form's fields each get the message of their own refusal: every field the schema refused, or
  // the one field a rule past the schema names (an amount's decimals in its currency).
  const fields =
    error instanceof InvalidInput
      ? Object.fromEntries(
          (error.details(lang) as { data: { errors: { field: string; message: string }[] } }).data.errors.map(
            ({ field, message: said }) => [field, said],
          ),
        )
      : error.params.field
        ? { [error.params.field]: message }
        : {};
  return {
    status,
    message,
    // A refusal of the fields has no title worth a sentence ("Invalid input"); every other has.
    ...(error instanceof InvalidInput ? {} : { title: said.title }),
    fields,
    ...(error instanceof TooOften ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}

/**
 * The problems and the page error boundary of a set of pages, their statuses those `statusOf`
 * gives: `problemOf` for a failure in hand, and `orProblem`, the one boundary. `orProblem(lang,
 * act, shown)` runs `act`; a failure the domain states becomes `shown(problem)`, the page that says
 * it; any other error is no failure the code meant and goes on to the function's own boundary
 * (a 500 with a request id), as does a failure of another status than `only`.
 */
export function pageProblems(statusOf: (error: DomainError) => number) {
  return {
    problemOf: (error: DomainError, lang: Lang): Problem => problemOf(error, lang, statusOf),
    async orProblem<T>(
      lang: Lang,
      act: () => Promise<T>,
      shown: (problem: Problem) => T | Promise<T>,
      boundary: Boundary = {},
    ): Promise<T> {
      try {
        return await act();
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const problem = problemOf(error, lang, statusOf);
        if (boundary.only !== undefined && problem.status !== boundary.only) throw error;
        return shown(problem);
      }
    },
  };
}
