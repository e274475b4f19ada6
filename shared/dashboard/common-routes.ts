/**
 * What every dashboard route row shares (shared/dashboard/routes.ts and each section's routes): the
 * HTML answers, the 303 to sign-in, the errors of a page and of a form, and the access of a
 * signed-in page (the session and the account read in one BatchGetItem, the fingerprint secret).
 */
import { sizeText } from '../core/limits.ts';
import type { Access, Answer, ErrorAnswer } from '../http/route.ts';

export const html = ['text/html'] as const;

/** The most a dashboard form's body may be: no form of it comes near. */
export const dashboardFormBytes = 4 * 1024;

export const toSignIn: Answer = {
  description: 'No session in force (none, expired, signed out, or its key rotated): to the sign-in form',
  headers: { Location: 'The sign-in form, `/dashboard/sign-in`.' },
};

export const pageErrors = {
  500: { description: 'Unexpected failure, with a request id', body: 'MessageEnvelope' },
} as const satisfies Record<number, ErrorAnswer>;

export const formErrors = {
  ...pageErrors,
  403: {
    description: 'The form expired (its CSRF token is not the session’s): nothing changed',
    body: 'html',
  },
  413: { description: `A form body over ${sizeText(dashboardFormBytes)}`, body: 'MessageEnvelope' },
} as const satisfies Record<number, ErrorAnswer>;

export const form = ['application/x-www-form-urlencoded'] as const;

/** What every signed-in page reads: the session and the account, in one BatchGetItem. */
const session = ['BatchGetItem'] as const;
export const signedIn = (access: Access['table'] = { actions: [] }): Access => ({
  table: { ...access, actions: [...session, ...access.actions] },
  fingerprintSecret: true,
});
