/**
 * The hosted checkout's pay form (D6). A browser posts it, so nothing here fails: a missing or
 * non-text field reads as '' and the page explains what is wrong.
 */
import * as v from 'valibot';

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

/** A posted form read by its schema: an absent or non-object body is an empty form. */
export const formOf = <S extends typeof PayFormSchema | typeof ChallengeFormSchema>(
  schema: S,
  body: unknown,
): v.InferOutput<S> => v.parse(schema, body && typeof body === 'object' ? body : {});
