/**
 * An account as the operator CLI creates and updates it (docs/design.md#operator-cli): its name and
 * e-mail, and the profile plans and checkout pages show. The messages name the CLI's options, which
 * carry these fields.
 */
import * as v from 'valibot';
import { langs } from '../core/messages.ts';
import { textRuleOf } from '../core/validation.ts';
import { isWebUrl } from '../core/web-url.ts';
import { statementDescriptorLimit } from './account.ts';

/** One line of clean text (shared/core/validation.ts), as every text an account shows is. */
const oneLine = (name: string) =>
  v.check(
    (text: string) => textRuleOf(text, 'one') === undefined,
    `${name}: one line of text, no control characters`,
  );

/** An http(s) URL as the API takes one (shared/core/web-url.ts); empty unsets it. */
const webUrl = (name: string) =>
  v.optional(
    v.union(
      [v.literal(''), v.pipe(v.string(), v.check(isWebUrl, `${name}: not an http(s) URL`))],
      `${name}: not an http(s) URL`,
    ),
  );

const profileFields = {
  company_name: v.optional(
    v.pipe(v.string(), oneLine('company-name'), v.maxLength(100, 'company-name: at most 100 characters')),
  ),
  page: webUrl('page'),
  logo: webUrl('logo'),
  statement_descriptor: v.optional(
    v.pipe(
      v.string(),
      oneLine('statement-descriptor'),
      v.maxLength(
        statementDescriptorLimit,
        `statement-descriptor: at most ${statementDescriptorLimit} characters (card networks limit)`,
      ),
    ),
  ),
  language: v.optional(v.picklist(langs, `language: ${langs.join(' or ')}`)),
};

/** An account id as typed: a positive integer. */
export const AccountIdSchema = v.pipe(
  v.string('id is required'),
  v.regex(/^[1-9]\d*$/, 'id: an account id is a positive integer'),
  v.transform(Number),
);

export const CreateAccountSchema = v.object({
  name: v.pipe(
    v.string('name is required'),
    v.trim(),
    oneLine('name'),
    v.minLength(1, 'name is required'),
    v.maxLength(100, 'name: at most 100 characters'),
  ),
  email: v.pipe(
    v.string('email is required'),
    v.trim(),
    v.minLength(1, 'email is required'),
    v.toLowerCase(),
    v.email('email: not a valid e-mail address'),
  ),
  ...profileFields,
});

export const UpdateAccountSchema = v.object({ id: AccountIdSchema, ...profileFields });
