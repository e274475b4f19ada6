/**
 * `createCobro`: openapi-fetch's client of the generated `paths`, with the account's key on every
 * request and an Idempotency-Key on every POST and PUT; calls that answer the success body or throw a
 * `CobroError`, and a paging helper over the numbered lists.
 */
import createClient, {
  type Client,
  type FetchResponse,
  type MaybeOptionalInit,
  type Middleware,
} from 'openapi-fetch';
import type { PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { CobroError } from './errors.ts';
import type { paths } from './generated/openapi.ts';

/** cobro answers JSON; the hosted checkout's HTML is for browsers, not for this client. */
type Media = 'application/json';
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths that take `method`. */
export type PathOf<TMethod extends Method> = PathsWithMethod<paths, TMethod>;

/** The options of a call: required when the operation has a required parameter or body. */
type InitArgs<TInit> =
  RequiredKeysOf<TInit> extends never
    ? [(TInit & { [key: string]: unknown })?]
    : [TInit & { [key: string]: unknown }];

/** The success body of `method` on `path`. */
export type AnswerOf<
  TPath extends PathOf<TMethod>,
  TMethod extends Method,
  TInit = unknown,
> = paths[TPath][TMethod] extends infer Operation extends Record<string | number, unknown>
  ? NonNullable<FetchResponse<Operation, TInit, Media>['data']>
  : never;

/** What a request's body may be (JSON), for `method` on `path`. */
export type BodyOf<TPath extends PathOf<TMethod>, TMethod extends Method> = NonNullable<
  MaybeOptionalInit<paths[TPath], TMethod>
>['body'];

/** A call that answers the success body, or throws `CobroError` for any other status. */
type Call<TMethod extends Method> = <
  TPath extends PathOf<TMethod>,
  TInit extends MaybeOptionalInit<paths[TPath], TMethod>,
>(
  path: TPath,
  ...init: InitArgs<TInit>
) => Promise<AnswerOf<TPath, TMethod, TInit>>;

/** A numbered page: Envelope A (`current_page`, `total_pages`) or B (`next`, `previous`). */
type NumberedPage = { count: number; results: readonly unknown[] } & (
  | { current_page: number; total_pages: number }
  | { next: string | null }
);

type GetParameters<TPath extends PathOf<'get'>> = paths[TPath]['get'] extends { parameters: infer P }
  ? P
  : never;

/**
 * The answer of a list asked for a page: its numbered page (the customer list answers its search
 * view, a bare array, only when asked for no page).
 */
type PageOf<TPath extends PathOf<'get'>> = Extract<AnswerOf<TPath, 'get'>, NumberedPage>;

/** The lists read a page at a time: a `page` query parameter, and a numbered page as the answer. */
export type PagedPath = {
  [P in PathOf<'get'>]: GetParameters<P> extends { query?: { page?: number } }
    ? [PageOf<P>] extends [never]
      ? never
      : P
    : never;
}[PathOf<'get'>];

/** The item of a paged list. */
export type ItemOf<TPath extends PagedPath> =
  PageOf<TPath> extends { results: readonly (infer Item)[] } ? Item : never;

/** A paged list's parameters but `page`, which the helper sets: its filters, `page_size`, path parameters. */
export type ListParams<TPath extends PagedPath> = Pick<
  GetParameters<TPath>,
  'path' & keyof GetParameters<TPath>
> & {
  query?: GetParameters<TPath> extends { query?: infer Query } ? Omit<NonNullable<Query>, 'page'> : never;
};

type ListArgs<TPath extends PagedPath> =
  RequiredKeysOf<ListParams<TPath>> extends never ? [ListParams<TPath>?] : [ListParams<TPath>];

export interface CobroOptions {
  /** The API's base URL: `http://127.0.0.1:3000` for `npm start`, the stage's URL when deployed. */
  baseUrl: string;
  /** An API key, `sk_test_…` (test mode) or `sk_live_…`; sent as `Authorization: Api-Key <key>`. */
  apiKey: string;
  /** A fetch of your own (a proxy, a test double); the global fetch by default. */
  fetch?: (request: Request) => Promise<Response>;
}

export interface Cobro {
  GET: Call<'get'>;
  POST: Call<'post'>;
  PUT: Call<'put'>;
  PATCH: Call<'patch'>;
  DELETE: Call<'delete'>;
  /**
   * Every item of a numbered list, page after page, in the list's order (newest first). Records
   * created while it runs push older ones onto later pages, so an item may come twice: key by id.
   * Throws `CobroError` as the calls do (the plan list with filters that match nothing answers 400).
   */
  paginate<TPath extends PagedPath>(path: TPath, ...params: ListArgs<TPath>): AsyncGenerator<ItemOf<TPath>>;
  /** The openapi-fetch client underneath: same auth and keys, answers `{ data, error, response }`, never throws on a status. */
  client: Client<paths, Media>;
}

/**
 * Every POST and PUT carries an `Idempotency-Key`: the caller's when it passes one
 * (`params: { header: { 'Idempotency-Key': … } }`), a fresh UUID otherwise. cobro keeps a key 24
 * hours and answers the same request under it with its first answer, so a request retried after a
 * time-out with its key never moves money twice (a PUT may: a subscription's upgrade charges).
 */
const idempotency: Middleware = {
  onRequest({ request }) {
    if ((request.method === 'POST' || request.method === 'PUT') && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    }
    return request;
  },
};

type LooseRequest = (
  method: string,
  path: string,
  init?: unknown,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** A client of the API at `baseUrl`, acting with `apiKey`. */
export function createCobro(options: CobroOptions): Cobro {
  const client = createClient<paths, Media>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Api-Key ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(idempotency);
  // The typed signatures are the Call types above; one untyped path underneath serves them all.
  const request = client.request as unknown as LooseRequest;
  const call =
    (method: Method) =>
    async (path: string, init?: unknown): Promise<unknown> => {
      const { data, error, response } = await request(method, path, init);
      if (!response.ok) throw new CobroError(response, error, method.toUpperCase());
      return data;
    };
  const get = call('get');

  async function* paginate(path: string, params: { query?: object; path?: object } = {}) {
    for (let page = 1; ; page += 1) {
      const answer = (await get(path, {
        params: { ...params, query: { ...params.query, page } },
      })) as NumberedPage;
      yield* answer.results;
      const last = 'total_pages' in answer ? page >= answer.total_pages : answer.next === null;
      if (last || answer.results.length === 0) return;
    }
  }

  return {
    GET: get as Call<'get'>,
    POST: call('post') as Call<'post'>,
    PUT: call('put') as Call<'put'>,
    PATCH: call('patch') as Call<'patch'>,
    DELETE: call('delete') as Call<'delete'>,
    paginate: paginate as Cobro['paginate'],
    client,
  };
}
