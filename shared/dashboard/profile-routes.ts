/**
 * The signed-in user's own profile (shared/dashboard/profile-http.ts): the page, the password form,
 * and the TOTP second factor's set-up (start, then confirm with a code) and removal. Every role has
 * them (`self`); each acts on the session's own user. The forms write the user (UpdateItem) and,
 * for a password change or a removal, the session (UpdateItem); the second factor's secret is
 * sealed and opened with the stage's key (`webhookKey`).
 */
import {
  type DashboardRoute,
  dashboardHandler,
  form,
  formErrors,
  html,
  pageErrors,
  signedIn,
  toSignIn,
} from './common-routes.ts';
import { withNotices } from './notice-query.ts';

const toProfile = (description: string, location: string) => ({
  303: {
    description: `${description} (or no session in force: to the sign-in form)`,
    headers: { Location: location },
  },
});

export const profileRoutes: readonly DashboardRoute[] = [
  {
    method: 'GET',
    path: '/dashboard/profile',
    handler: dashboardHandler,
    page: 'profile#showProfile',
    permission: 'self',
    operationId: 'showDashboardProfile',
    auth: false,
    access: signedIn(),
    summary:
      'Your profile (HTML): your e-mail, role and second factor, the password form, and the two-factor set-up or removal',
    description:
      'Shows the signed-in user’s e-mail address, role and whether TOTP two-factor sign-in is on, with the form to change the password and the button that sets up two-factor sign-in (or the form that turns it off). Live mode needs two-factor sign-in.',
    query: withNotices(undefined, {
      password: 'Set after the password was changed',
      two_factor: '`on` after two-factor sign-in was turned on, `off` after it was turned off',
    }),
    answers: { 200: { description: 'The page', media: html }, 303: toSignIn },
    errors: pageErrors,
  },
  {
    method: 'POST',
    path: '/dashboard/profile/password',
    handler: dashboardHandler,
    page: 'profile#submitPassword',
    permission: 'self',
    audit: 'user.password_change',
    operationId: 'changePasswordFromDashboard',
    auth: false,
    access: signedIn({ actions: ['UpdateItem'] }),
    summary:
      'The password form (form-encoded `current_password`, `password`, `confirm`, `csrf_token`): a new password; 303 to the profile',
    description:
      'Checks the current password (a user who has none yet, signed in by a one-time link, sends none), then stores the new one (at least 12 characters, as an Argon2id hash). Every other session of the user ends; the session it was changed in goes on. A wrong current password counts nothing towards the sign-in limits.',
    bodyTypes: form,
    answers: toProfile('Changed', 'The profile, `/dashboard/profile?password=1`, saying so.'),
    errors: {
      ...formErrors,
      400: {
        description:
          'The current password is wrong, or the new one is refused (shorter than 12 characters, longer than 256, the two differ): the profile again, saying so; nothing changed',
        body: 'html',
      },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/profile/two-factor/start',
    handler: dashboardHandler,
    page: 'profile#submitTwoFactorStart',
    permission: 'self',
    // The pending secret signs nobody in: the log's entry is the confirmation's (user.two_factor_on).
    audit: false,
    operationId: 'startTwoFactorFromDashboard',
    auth: false,
    access: { ...signedIn({ actions: ['UpdateItem'] }), webhookKey: true },
    summary:
      'Starts setting up two-factor sign-in (form-encoded `csrf_token`): the page with the QR code for an authenticator app',
    description:
      'Makes a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 seconds), keeps it sealed as pending, and answers the page that shows it once, as a QR code (an otpauth:// URI drawn as inline SVG) and as text, with the form for a code from it. Nothing changes for signing in until that code is sent (POST /dashboard/profile/two-factor); starting again replaces the pending secret.',
    bodyTypes: form,
    answers: {
      200: { description: 'The set-up page: the QR code, the key as text, the code form', media: html },
      303: toSignIn,
    },
    errors: {
      ...formErrors,
      409: {
        description:
          'Two-factor sign-in is on already: the profile, saying to turn it off first (which asks for the password)',
        body: 'html',
      },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/profile/two-factor',
    handler: dashboardHandler,
    page: 'profile#submitTwoFactor',
    permission: 'self',
    audit: 'user.two_factor_on',
    operationId: 'confirmTwoFactorFromDashboard',
    auth: false,
    access: { ...signedIn({ actions: ['UpdateItem'] }), webhookKey: true },
    summary:
      'Turns two-factor sign-in on (form-encoded `code`, `csrf_token`): a code from the secret being set up; 303 to the profile',
    description:
      'Checks the 6-digit code against the pending secret (its step or one either side); the secret becomes the user’s second factor, and the code’s step is taken, so the same code cannot sign in. From then on signing in asks for a code, and the user may switch to live mode.',
    bodyTypes: form,
    answers: toProfile(
      'Turned on (or on already: the same form sent twice)',
      'The profile, `/dashboard/profile?two_factor=on`, saying so.',
    ),
    errors: {
      ...formErrors,
      400: {
        description:
          'A wrong code (the set-up page again, with the same QR code), or no set-up under way (the profile, saying so)',
        body: 'html',
      },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/profile/two-factor/remove',
    handler: dashboardHandler,
    page: 'profile#submitTwoFactorRemove',
    permission: 'self',
    audit: 'user.two_factor_off',
    operationId: 'removeTwoFactorFromDashboard',
    auth: false,
    access: signedIn({ actions: ['UpdateItem'] }),
    summary:
      'Turns two-factor sign-in off (form-encoded `password`, `csrf_token`): with the user’s password; 303 to the profile',
    description:
      'Removes the user’s second factor when the password is right. A session in live mode goes back to test mode: live mode needs two-factor sign-in.',
    bodyTypes: form,
    answers: toProfile(
      'Turned off (or off already)',
      'The profile, `/dashboard/profile?two_factor=off`, saying so.',
    ),
    errors: {
      ...formErrors,
      400: {
        description:
          'A wrong password (or the user has none yet): the profile again, saying so; nothing changed',
        body: 'html',
      },
    },
  },
];
