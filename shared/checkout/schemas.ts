/**
 * The hosted checkout's forms (docs/design.md#checkout). A browser posts them, so nothing here fails:
 * a missing or non-text field reads as '' and the page explains what is wrong. Every field has a
 * length limit, checked before anything is stored, sent to the acquirer or shown again
 * (overLongFields), and a form's whole body is bounded (checkoutFormBytes).
 */
import * as v from 'valibot';
import { maxEmailLength } from '../core/validation.ts';
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
