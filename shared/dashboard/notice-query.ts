/**
 * The query parameters a dashboard page reads only to say what was just done: a form's redirect
 * adds one (`?created=<id>`, `?deleted=1`), the page shows its notice. They are documented on the
 * page's row like any other parameter, because every route refuses a parameter it does not
 * document (shared/http/query-names.ts), the dashboard's router included.
 */
import * as v from 'valibot';
import { type QuerySchema, queryParameter } from '../core/query.ts';

/** `schema`'s parameters (the page's list query, if any) and the notices' `name: description`. */
export function withNotices(
  schema: QuerySchema | undefined,
  notices: Readonly<Record<string, string>>,
): QuerySchema {
  return v.object({
    ...schema?.entries,
    ...Object.fromEntries(
      Object.entries(notices).map(([name, description]) => [
        name,
        queryParameter('string', `${description} (a notice only: it changes nothing).`, v.string()),
      ]),
    ),
  });
}
