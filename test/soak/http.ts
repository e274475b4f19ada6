/**
 * The soak's requests to its stack, each counted by kind and answer. The rule (README "Ledger
 * soak"): 2xx, 3xx and 4xx answers, 502 (the acquirer refused) and 504 (no answer in time) are
 * outcomes the contract allows; any other 5xx, or no answer at all, is a finding, unless the request
 * overlapped a deliberate kill (then it is counted apart, as "(kill)").
 */
import type { Tally } from './tally.ts';

export interface Answer {
  status: number;
  text: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  location: string | null;
}

export interface RequestOptions {
  /** A full Authorization header value. */
  auth?: string;
  json?: unknown;
  /** Sent application/x-www-form-urlencoded, as the hosted checkout's forms and the legacy charge are. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Refines the counted label of an answer (`200` → `200 challenge`). */
  label?: (answer: Answer) => string | undefined;
  /** What else a reproduction needs to know (a race, say), asked when a finding is made. */
  note?: () => string | undefined;
}

/** Allowed 5xx answers: the acquirer refused (502), or did not answer in time (504). */
const allowed5xx = new Set([502, 504]);

/** Each request waits this long for its answer: a handler runs 10 s at most (infra/local/lambda.ts). */
const requestTimeoutMs = 30_000;

const excerpt = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}…` : text);

/** The body of a request as a reproduction shows it (a form's CSRF token is of no use there). */
function bodyOf(options: RequestOptions): string {
  if (options.json !== undefined) return ` ${JSON.stringify(options.json)}`;
  if (options.form) {
    const { csrf_token: _csrf, ...fields } = options.form;
    return ` form ${new URLSearchParams(fields).toString()}`;
  }
  return '';
}

/** A JSON answer's status, and for a 4xx what it says went wrong (its title, or its error code). */
function statusLabel(answer: Answer): string {
  if (answer.status < 400 || answer.status >= 500 || typeof answer.json !== 'object' || !answer.json)
    return String(answer.status);
  const json = answer.json as { title?: unknown; error?: { code?: unknown }; detail?: unknown };
  const why = json.title ?? json.error?.code ?? json.detail;
  return typeof why === 'string' ? `${answer.status} ${why}` : String(answer.status);
}

export class Http {
  readonly #tally: Tally;
  constructor(tally: Tally) {
    this.#tally = tally;
  }

  /** Sends one request, counts its answer under `kind`; undefined when no answer came. */
  async send(
    kind: string,
    method: string,
    url: string,
    options: RequestOptions = {},
  ): Promise<Answer | undefined> {
    const headers: Record<string, string> = { Accept: 'application/json, text/html', ...options.headers };
    if (options.auth) headers.Authorization = options.auth;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
    } else if (options.form) {
      body = new URLSearchParams(options.form).toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    const start = Date.now();
    let answer: Answer | undefined;
    let failure: string | undefined;
    try {
      const response = await fetch(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      answer = { status: response.status, text, json, location: response.headers.get('location') };
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      failure = cause?.code ?? cause?.message ?? (error as Error).message;
    }
    const end = Date.now();
    const killedBy = this.#tally.disruptedBy(start, end);
    const unexpected = !answer || (answer.status >= 500 && !allowed5xx.has(answer.status));
    const label = answer ? (options.label?.(answer) ?? statusLabel(answer)) : 'network error';
    if (!unexpected) {
      this.#tally.count(kind, label);
      return answer;
    }
    if (killedBy) {
      this.#tally.count(kind, `${label} (kill)`);
      return answer;
    }
    this.#tally.count(kind, label);
    const note = options.note?.();
    this.#tally.find({
      title: `${answer ? answer.status : `no answer (${failure})`} on ${kind}`,
      detail: [
        `${method} ${url}${bodyOf(options)}`,
        `sent at ${this.#tally.at(start)}, answered at ${this.#tally.at(end)}${answer ? `: ${answer.status} ${excerpt(answer.text)}` : `: ${failure}`}`,
        ...(note ? [note] : []),
        `faults armed around it: ${this.#tally.faultsAround(start, end).join('; ') || 'none'}`,
      ],
    });
    return answer;
  }
}
