/**
 * The portal's bodies: the link the API answers, and the page's form (a browser posts it, so a
 * missing or non-text field reads as '' and the page says what is wrong).
 */
import * as v from 'valibot';

export const PortalLinkViewSchema = v.strictObject({
  /** The portal page of the customer, valid until `expires_at`. */
  url: v.string(),
  expires_at: v.string(),
});

const posted = v.optional(
  v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === 'string' ? value : '')),
  ),
  '',
);

/** What the page's forms post: the CSRF token, the action and the subscription or charge it acts on. */
export const PortalFormSchema = v.object({
  csrf_token: posted,
  action: posted,
  subscription_id: posted,
  charge_id: posted,
});
export type PostedPortalForm = v.InferOutput<typeof PortalFormSchema>;

/** No form of the page comes near this. */
export const portalFormBytes = 4 * 1024;

export const portalFormOf = (body: unknown): PostedPortalForm =>
  v.parse(PortalFormSchema, body && typeof body === 'object' ? body : {});
