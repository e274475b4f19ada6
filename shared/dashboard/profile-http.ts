/**
 * The signed-in user's own profile (docs/design.md#team-sign-in): the page, the password change,
 * and the TOTP second factor's set-up (two steps: a pending secret shown as a QR code, then a code
 * from it) and removal. Every role has it (permission `self`); each form acts on the session's own
 * user, never on a user the request names.
 *
 * - A password change asks for the current password (a user who has none yet, signed in by a
 *   one-time link, is not asked) and ends every other session of the user: the sessions keep the
 *   password version they were opened under, and only this one is moved to the new version.
 * - Turning the second factor off asks for the password too, and puts this session back in test
 *   mode: live mode needs the factor.
 * - A wrong password here counts nothing towards the sign-in limits: the session already proved who
 *   it is, and the form changes nothing until the password is right.
 */

import { getItems } from '../db/get-items.ts';
import type { ApiAnswer } from '../http/render.ts';
import { countUserFailure, emailHash, lockedFor, lockKey } from '../team/lock.ts';
import { hashPassword, passwordMatches, passwordProblem } from '../team/password.ts';
import { totpUri } from '../team/totp.ts';
import { confirmEnrolment, pendingSecret, removeSecondFactor, startEnrolment } from '../team/two-factor.ts';
import { setPassword, type TeamUser } from '../team/users.ts';
import {
  type DashboardDeps,
  field,
  pageAnswer,
  type SignedIn,
  seeOther,
  signedInForm,
  signedInPage,
  toSignIn,
} from './http.ts';
import { enrolmentPage, type PasswordProblem, type ProfileState, profilePage } from './profile-views.ts';
import { profileWords } from './profile-words.ts';
import { updateSession } from './session.ts';

/** A user as stored, with the sealed secret of an enrolment under way. */
type Enrolling = TeamUser & { totp_pending_sealed?: string };

/** The profile's page, `state` saying what was done or refused. */
const profileAnswer = (signed: SignedIn, state: Omit<ProfileState, 'hasPassword'>, status = 200) =>
  pageAnswer(profilePage(signed.view, { hasPassword: !!signed.user.password_hash, ...state }, status));

/** The profile's path, with what it is to say. */
const profileUrl = (signed: SignedIn, notice: Record<string, string>) =>
  `${signed.view.root}/profile?${new URLSearchParams(notice)}`;

/**
 * GET /dashboard/profile: the user's e-mail, role and second factor, the password form and the
 * second factor's. A notice of its query (`password`, `two_factor`) says only what holds: "on" when
 * the factor is on.
 */

/**
 * Whether `given` is the user's password. A wrong one counts against the user's sign-in lock
 * (shared/team/lock.ts), as a wrong password at sign-in does, so a session left open guesses no
 * faster than the sign-in form; while the lock holds, no password is even checked.
 */
async function passwordProven(deps: DashboardDeps, user: TeamUser, given: string): Promise<boolean> {
  const hash = emailHash(user.email, await deps.keys.sign());
  const [lock] = await getItems(deps, [lockKey(hash)]);
  if (lockedFor(lock, deps.clock()) !== undefined) return false;
  if (await passwordMatches(given, user.password_hash)) return true;
  await countUserFailure(deps, hash, deps.clock());
  return false;
}

export const showProfile = signedInPage('profile', 'profile', async (_deps: DashboardDeps, signed) => {
  const { query } = signed.request;
  const w = profileWords[signed.view.lang];
  const on = signed.view.twoFactor;
  const said =
    query.password !== undefined
      ? w.passwordChanged
      : query.two_factor === 'on' && on
        ? w.twoFactorTurnedOn
        : query.two_factor === 'off' && !on
          ? w.twoFactorTurnedOff
          : undefined;
  return profileAnswer(signed, { notice: said });
});

/** Why a new password is refused (the field and the words), or undefined. */
function newPasswordProblem(
  signed: SignedIn,
  password: string,
  confirm: string,
): PasswordProblem | undefined {
  const w = profileWords[signed.view.lang];
  const problem = passwordProblem(password);
  if (problem)
    return { field: 'password', message: problem === 'too_short' ? w.passwordTooShort : w.passwordTooLong };
  return password === confirm ? undefined : { field: 'confirm', message: w.passwordsDiffer };
}

/**
 * POST /dashboard/profile/password (`current_password`, `password`, `confirm`): the new password
 * stored (its version raised, which ends every session of the user), then this session moved to
 * the new version so it goes on; 303 to the profile. A wrong current password, or a new one
 * refused, is the profile again, 400, nothing changed.
 */
export const submitPassword = signedInForm(
  'profile',
  'profile',
  async (deps: DashboardDeps, signed): Promise<ApiAnswer> => {
    const { request, user, session } = signed;
    const w = profileWords[signed.view.lang];
    // A user who has no password yet has none to give; anyone else proves it is still them.
    if (user.password_hash && !(await passwordProven(deps, user, field(request.body, 'current_password'))))
      return profileAnswer(
        signed,
        { password: { field: 'current_password', message: w.wrongPassword } },
        400,
      );
    const password = field(request.body, 'password');
    const problem = newPasswordProblem(signed, password, field(request.body, 'confirm'));
    if (problem) return profileAnswer(signed, { password: problem }, 400);
    const version = await setPassword(deps, user.user_id, await hashPassword(password));
    if (version === undefined) return toSignIn(deps);
    await updateSession(deps, session, { password_version: version });
    signed.auditRecord = user.user_id;
    return seeOther(profileUrl(signed, { password: '1' }));
  },
);

/** The set-up page of a pending secret. */
function enrolmentAnswer(signed: SignedIn, secret: string, problem?: string): ApiAnswer {
  const { view } = signed;
  const uri = totpUri(secret, view.email, `cobro (${view.merchant})`);
  return pageAnswer(enrolmentPage(view, { uri, secret }, problem));
}

/**
 * POST /dashboard/profile/two-factor/start: a new secret, sealed onto the user as pending (it signs
 * nobody in until a code from it comes back), answered as the set-up page (200; the page is never
 * cached). A user whose factor is on gets 409: turning it off, which asks for the password, comes
 * first, so a session alone never moves the factor to another app.
 */
export const submitTwoFactorStart = signedInForm(
  'profile',
  'profile',
  async (deps: DashboardDeps, signed): Promise<ApiAnswer> => {
    if (signed.user.totp_sealed)
      return profileAnswer(signed, { twoFactor: profileWords[signed.view.lang].alreadyOn }, 409);
    const secret = await startEnrolment(deps, deps.keys.twoFactor, signed.user);
    return enrolmentAnswer(signed, secret);
  },
);

/**
 * POST /dashboard/profile/two-factor (`code`): a code from the pending secret makes it the user's
 * second factor; 303 to the profile. A wrong code is the set-up page again (the same QR code),
 * 400; without a set-up under way, the profile, 400 (or 303, nothing done, when the factor is on
 * already: the same form sent twice).
 */
export const submitTwoFactor = signedInForm(
  'profile',
  'profile',
  async (deps: DashboardDeps, signed): Promise<ApiAnswer> => {
    const user = signed.user as Enrolling;
    const w = profileWords[signed.view.lang];
    const box = deps.keys.twoFactor;
    if (await confirmEnrolment(deps, box, user, field(signed.request.body, 'code'))) {
      signed.auditRecord = user.user_id;
      return seeOther(profileUrl(signed, { two_factor: 'on' }));
    }
    const secret = await pendingSecret(box, user);
    if (secret) return enrolmentAnswer(signed, secret, w.wrongCode);
    if (user.totp_sealed) {
      signed.auditRecord = false;
      return seeOther(profileUrl(signed, { two_factor: 'on' }));
    }
    return profileAnswer(signed, { twoFactor: w.noEnrolment }, 400);
  },
);

/**
 * POST /dashboard/profile/two-factor/remove (`password`): with the user's password, the second
 * factor (and any set-up under way) removed, and this session, if live, switched to test; 303 to
 * the profile. A wrong password is the profile again, 400, nothing changed.
 */
export const submitTwoFactorRemove = signedInForm(
  'profile',
  'profile',
  async (deps: DashboardDeps, signed): Promise<ApiAnswer> => {
    const { request, session, user } = signed;
    // A user without a password matches none: they set one first (the page says so).
    if (!(await passwordProven(deps, user, field(request.body, 'password'))))
      return profileAnswer(signed, { removePassword: profileWords[signed.view.lang].wrongPassword }, 400);
    // Nothing to turn off: the same form sent twice.
    if (!user.totp_sealed) {
      signed.auditRecord = false;
      return seeOther(profileUrl(signed, { two_factor: 'off' }));
    }
    if (!(await removeSecondFactor(deps, user.user_id))) return toSignIn(deps);
    // The stored mode too: a live session left so would be live again once a factor is set up anew.
    if (session.mode === 'live') await updateSession(deps, session, { mode: 'test' });
    signed.auditRecord = user.user_id;
    return seeOther(profileUrl(signed, { two_factor: 'off' }));
  },
);
