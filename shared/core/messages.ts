/**
 * Messages: the human texts of the contract's message envelopes, in English and Spanish. Each folder
 * keeps its own in its `messages.ts` (`defineMessages`), and an error or an answer carries the
 * message itself rather than a name to look up, so a function bundles the texts of the code it runs
 * and nothing else. Here: the mechanism, and the messages the base itself answers with. The
 * language is chosen per request from Accept-Language.
 */
/** The languages cobro answers in, and writes e-mails and accounts' profiles in. */
export const langs = ['en', 'es'] as const;
export type Lang = (typeof langs)[number];

/** Whether `value` names one of cobro's languages. */
export const isLang = (value: unknown): value is Lang => langs.includes(value as Lang);

export type EnvelopeType = 'success' | 'info' | 'warning' | 'danger' | 'error';

export interface Text {
  readonly title: string;
  readonly content: string;
}

/** A message's texts, and how its envelope shows it when it answers a failure. */
export interface MessageTexts extends Readonly<Record<Lang, Text>> {
  /**
   * The envelope's `type` when the message answers a failure. @default 'error'
   *
   * One rule (test/architecture/envelope-types.test.ts holds it): a failure is `error`, except
   * - `warning` when the request was well formed but its answer is empty: a search or filters that
   *   match nothing, a range that can hold nothing (minimum above maximum), a page past the last,
   *   an account without keys. Nothing named in the request is wrong or missing; asking otherwise
   *   finds something.
   * - `danger` for exactly two answers existing clients branch on: an amount with more decimals than
   *   its currency takes, and an absent payment (`GET /v1/payments/{id}`). No other message may use it.
   * Successes are `success`, a write that changed nothing is `info`; those are set where answered.
   */
  readonly type?: EnvelopeType;
  /** The envelope sits in a top-level `message` field, as the contract answers this failure. @default false */
  readonly wrapped?: boolean;
}

/** One message: its id (for logs and tests), texts and presentation. */
export interface Message extends MessageTexts {
  readonly id: string;
}

/** The messages defineMessages makes of their texts: each is its texts with its key as id. */
export type Messages<T extends Record<string, MessageTexts>> = {
  readonly [K in keyof T & string]: T[K] & { readonly id: K };
};

/**
 * A folder's messages, each given its key as id. Mark the call pure with a `@__PURE__` comment
 * before it: esbuild does not see across files that the call has no side effects, and unmarked,
 * every bundle that imports anything of the module would keep the messages whether its code reads
 * them or not (test/architecture/bundles.test.ts checks every folder's).
 */
export function defineMessages<const T extends Record<string, MessageTexts>>(texts: T): Messages<T> {
  const messages: Record<string, Message> = {};
  for (const [id, entry] of Object.entries(texts)) messages[id] = { ...entry, id };
  return messages as Messages<T>;
}

/** The title and content of a message, with `{name}` placeholders filled. */
export function text(message: Message, lang: Lang, params: Record<string, string> = {}): Text {
  const entry = message[lang];
  const fill = (value: string) => value.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
  return { title: fill(entry.title), content: fill(entry.content) };
}

/** The best supported language of an Accept-Language header (RFC 9110 q-values); English by default. */
export function negotiateLang(header: string | undefined): Lang {
  if (!header) return 'en';
  let best: { lang: Lang; q: number } = { lang: 'en', q: 0 };
  for (const part of header.split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    const primary = tag.split('-')[0];
    if (isLang(primary) && q > best.q) best = { lang: primary, q };
  }
  return best.lang;
}

/**
 * The messages of the base: a resource or page that does not exist, invalid data, an unexpected
 * error, the mode of a request, money fields, and a request still running under its Idempotency-Key
 * (the HTTP adapter's claim and a money movement's attempt both answer it).
 */
export const coreMessages = /* @__PURE__ */ defineMessages({
  not_found: {
    en: { title: 'Not found', content: 'The requested resource does not exist.' },
    es: { title: 'No encontrado', content: 'El recurso solicitado no existe.' },
  },
  validation: {
    en: { title: 'Invalid data', content: '{detail}' },
    es: { title: 'Datos inválidos', content: '{detail}' },
  },
  internal_error: {
    en: { title: 'Internal server error', content: 'An unexpected error occurred.' },
    es: { title: 'Error interno del servidor', content: 'Ocurrió un error inesperado.' },
  },
  invalid_test_param: {
    en: { title: 'Invalid parameter', content: 'The test parameter must be true or false.' },
    es: { title: 'Parámetro inválido', content: 'El parámetro test debe ser true o false.' },
  },
  mode_conflict: {
    en: {
      title: 'Mode mismatch',
      content: 'The test parameter contradicts the mode of the API key ({mode}).',
    },
    es: {
      title: 'Modo incompatible',
      content: 'El parámetro test contradice el modo de la llave de API ({mode}).',
    },
  },
  mode_mismatch: {
    en: {
      title: 'Mode cannot change',
      content: '{field} does not match the mode of this request ({mode}); records never change mode.',
    },
    es: {
      title: 'El modo no puede cambiar',
      content:
        '{field} no coincide con el modo de esta solicitud ({mode}); los registros nunca cambian de modo.',
    },
  },
  page_not_found: {
    type: 'warning',
    en: { title: 'Invalid page', content: 'Page {page} does not exist; the last page is {last}.' },
    es: { title: 'Página inválida', content: 'La página {page} no existe; la última página es la {last}.' },
  },
  price_precision: {
    type: 'danger',
    en: {
      title: 'Price validation error',
      content: '{field}: {currency} amounts take at most {precision} decimals.',
    },
    es: {
      title: 'Error de validación del precio',
      content: '{field}: los montos en {currency} admiten como máximo {precision} decimales.',
    },
  },
  amount_below_minimum: {
    en: {
      title: 'Amount too small',
      content: 'The amount is below the minimum of 1.00 USD ({minimum} {currency}).',
    },
    es: {
      title: 'Monto muy pequeño',
      content: 'El monto es menor que el mínimo de 1.00 USD ({minimum} {currency}).',
    },
  },
  idempotency_in_progress: {
    en: {
      title: 'Request in progress',
      content: 'A request with this Idempotency-Key is still running; retry when it has finished.',
    },
    es: {
      title: 'Solicitud en curso',
      content: 'Una solicitud con esta Idempotency-Key aún se está procesando; reintente cuando termine.',
    },
  },
});
