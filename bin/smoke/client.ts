/**
 * The smoke check's HTTP client: plain fetch against the stage's base URL with the operator's key,
 * as any merchant's integration would call cobro. Nothing of cobro's own code is loaded, so the check
 * runs the same against a deployed stage and against `npm start`.
 */

/** One request's limit: API Gateway ends an integration at 29 s, so a longer wait means a hang. */
const requestLimitMs = 30_000;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: checks read arbitrary paths of the answered JSON
  json: any;
}

export interface RequestOptions {
  /** An API key, sent as `Api-Key <key>`; none for public routes. */
  key?: string;
  /** A JSON body. */
  body?: unknown;
  /** Form fields, sent as application/x-www-form-urlencoded (the checkout page's form). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface Client {
  /** A request to a path of the API (`/v1/plans/`), relative to the base URL. */
  api(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  /**
   * A request to an absolute URL the API answered (a checkout page), redirects not followed; errors
   * name it by `label`, since such a URL may hold a token.
   */
  page(method: string, url: string, label: string, options?: RequestOptions): Promise<Answer>;
}

/**
 * A client of the API at `baseUrl` (which may carry a stage or custom-domain prefix such as
 * `https://…/prod`); every request ends when `signal` aborts (Ctrl-C) or after its own limit.
 */
export function createClient(baseUrl: string, signal: AbortSignal): Client {
  const base = baseUrl.replace(/\/+$/, '');
  async function send(
    method: string,
    url: string,
    label: string,
    options: RequestOptions = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { Accept: 'application/json, text/html', ...options.headers };
    if (options.key) headers.Authorization = `Api-Key ${options.key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] = 'application/json';
    } else if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.any([signal, AbortSignal.timeout(requestLimitMs)]),
        ...(body !== undefined ? { body } : {}),
      });
    } catch (error) {
      throw new Error(`${label}: ${reasonOf(error)}`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }
  return {
    api: (method, path, options) => send(method, `${base}${path}`, `${method} ${path}`, options),
    page: (method, url, label, options) => send(method, url, label, options),
  };
}

/**
 * Why a request or a wait failed, in a few words: fetch hides the network error (ECONNREFUSED,
 * ENOTFOUND) in its `cause`, and an abort is a Ctrl-C or a time limit.
 */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${requestLimitMs / 1000} s`;
  if (error.name === 'AbortError') return 'interrupted';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}

/** A short, single-line account of an unexpected answer: its status and the start of its body. */
export function describe(answer: Answer): string {
  const body = answer.text.replace(/\s+/g, ' ').trim();
  return `${answer.status}${body ? ` ${body.length > 160 ? `${body.slice(0, 160)}…` : body}` : ''}`;
}
