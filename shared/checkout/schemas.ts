/**
 * The hosted checkout's forms (docs/design.md#checkout). A browser posts them, so nothing here fails:
 * a missing or non-text field reads as '' and the page explains what is wrong. Every field has a
 * length limit, checked before anything is stored, sent to the acquirer or shown again
 * (overLongFields), and a form's whole body is bounded (checkoutFormBytes).
 */
import * as v from 'valibot';
import { maxEmailLength, plainText } from '../core/validation.ts';
import { csrfTokenLength } from './session.ts';

const posted = v.optional(
  v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === 'string' ? value : '')),
  ),
  '',
);
const postedTrimmed = v.pipe(
  posted,
  v.transform((value) => value.trim()),
);

export const PayFormSchema = v.object({
  cardholder_name: postedTrimmed,
  email: postedTrimmed,
  csrf_token: posted,
  card_number: posted,
  exp_month: posted,
  exp_year: posted,
  cvc: posted,
});
export type PostedPayForm = v.InferOutput<typeof PayFormSchema>;

/** The 3-D Secure challenge page's form: its CSRF token and the cardholder's answer. */
export const ChallengeFormSchema = v.object({ csrf_token: posted, outcome: posted });
export type PostedChallengeForm = v.InferOutput<typeof ChallengeFormSchema>;

/** The fields of the pay form a person types; the CSRF token is the page's own (see csrfLooksRight). */
export type TypedField = Exclude<keyof PostedPayForm, 'csrf_token'>;

/**
 * The most characters each typed field of the pay form takes (its value trimmed). A name of 200 is
 * longer than any card carries (26 embossed); an e-mail is at most 254 (RFC 5321); a card number 19
 * digits, 23 with a separator between groups of four; a month 2 digits, a year 4, a CVC 4. The
 * challenge form has only exact values: its CSRF token, and `pass` or `fail`.
 */
export const payFormLimits = {
  cardholder_name: 200,
  email: maxEmailLength,
  card_number: 23,
  exp_month: 2,
  exp_year: 4,
  cvc: 4,
} as const satisfies Record<TypedField, number>;

/**
 * The forms as the OpenAPI document shows them: the fields the pages post and the form a field must
 * have to be taken. What no schema states (a card number's check digit, an expiry already past, the
 * acquirer's answer, the page's own CSRF token) is in the answers' descriptions.
 */
const csrfField = v.pipe(
  plainText(),
  v.metadata({ minLength: csrfTokenLength, maxLength: csrfTokenLength }),
  v.description("The hidden `csrf_token` of the page's form."),
);
export const PayFormDocument = v.object({
  csrf_token: csrfField,
  cardholder_name: v.pipe(
    plainText(),
    v.metadata({ maxLength: payFormLimits.cardholder_name, pattern: '\\S' }),
  ),
  email: v.pipe(plainText(), v.metadata({ maxLength: payFormLimits.email, format: 'email' })),
  card_number: v.pipe(
    plainText(),
    v.metadata({ pattern: '^[0-9]{12,19}$' }),
    v.description(
      '12 to 19 digits (spaces or dashes between groups allowed); the last is the Luhn check digit.',
    ),
  ),
  exp_month: v.pipe(plainText(), v.metadata({ pattern: '^(?:0?[1-9]|1[0-2])$' })),
  exp_year: v.pipe(
    plainText(),
    v.metadata({ pattern: '^(?:[0-9]{2}|20[0-9]{2})$' }),
    v.description('2 or 4 digits; with exp_month, a month not yet over.'),
  ),
  cvc: v.pipe(plainText(), v.metadata({ pattern: '^[0-9]{3,4}$' })),
});
export const ChallengeFormDocument = v.object({
  csrf_token: csrfField,
  outcome: v.picklist(['pass', 'fail']),
});

/**
 * Whether a posted CSRF token has the length every session's token has: one of another length is
 * a wrong token (403), refused before the session is claimed or anything stored.
 */
export const csrfLooksRight = (posted: string) => posted.length === csrfTokenLength;

/**
 * The largest body a checkout form post may have: the pay form at its limits, every character
 * percent-encoded as 4 UTF-8 bytes, takes under 6 KB.
 */
export const checkoutFormBytes = 16 * 1024;

/** Whether `value` (trimmed) has more than `limit` characters (code points), without reading it all. */
function longerThan(value: string, limit: number): boolean {
  const text = value.trim();
  if (text.length <= limit) return false;
  if (text.length > limit * 2) return true;
  let count = 0;
  for (const _ of text) if (++count > limit) return true;
  return false;
}

/** The typed fields of a posted pay form over their limits, in the form's order. */
export function overLongFields(form: PostedPayForm): TypedField[] {
  return (Object.keys(payFormLimits) as TypedField[]).filter((name) =>
    longerThan(form[name], payFormLimits[name]),
  );
}

/** A posted form read by its schema: an absent or non-object body is an empty form. */
export const formOf = <S extends typeof PayFormSchema | typeof ChallengeFormSchema>(
  schema: S,
  body: unknown,
): v.InferOutput<S> => v.parse(schema, body && typeof body === 'object' ? body : {});
