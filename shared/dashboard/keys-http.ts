/**
 * The dashboard's API keys pages: apiKeysOf (as GET /v1/auth/api-keys/ shows the keys, masked) and
 * rotateKeyAs (as PATCH /v1/auth/api-keys/ rotates one), acting as the key the session was opened
 * in the session's mode: a test session may rotate only the test key. Sessions belong to users, not
 * keys, so a rotation signs nobody out.
 */
import { apiKeysOf, rotateKeyAs } from '../auth/api-keys.ts';
import { authMessages } from '../auth/messages.ts';
import type { Mode } from '../core/account.ts';
import { Invalid } from '../core/errors.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import type { Problem } from '../web/problems.ts';
import {
  type DashboardDeps,
  field,
  orProblem,
  pageAnswer,
  problemOf,
  type SignedIn,
  signedInForm,
  signedInPage,
} from './http.ts';
import { keyConfirmPage, keyRotatedPage, keysPage } from './keys-views.ts';

/** The keys page, saying what a rotation refused. */
async function keysAnswer(deps: Deps, signed: SignedIn, problem?: Problem): Promise<ApiAnswer> {
  const keys = await apiKeysOf(deps, signed.scope.developerId);
  return pageAnswer(keysPage(signed.view, keys, problem));
}

const keyType = (value: string | undefined): Mode | undefined =>
  value === 'test' || value === 'live' ? value : undefined;

/** GET /dashboard/api-keys: apiKeysOf, as GET /v1/auth/api-keys/ shows them (masked). */
export const showKeys = signedInPage('keys', 'api-keys', (deps: Deps, signed) => keysAnswer(deps, signed));

/** GET /dashboard/api-keys/rotate?type=test|live: the confirmation step. */
export const showRotateKey = signedInPage(
  'keys',
  'api-keys',
  (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
    const type = keyType(signed.request.query.type);
    if (!type) return keysAnswer(deps, signed);
    return Promise.resolve(pageAnswer(keyConfirmPage(signed.view, type)));
  },
);

/**
 * POST /dashboard/api-keys/rotate: rotateKeyAs with the session's key mode, as PATCH
 * /v1/auth/api-keys/ calls it with the key's (a test session may rotate only the test key). The
 * answer shows the new key this once; the session goes on.
 */
export const submitRotateKey = signedInForm(
  'keys',
  'api-keys',
  async (deps: DashboardDeps, signed: SignedIn): Promise<ApiAnswer> => {
    const { view, request, scope, session } = signed;
    const type = keyType(field(request.body, 'type'));
    if (!type)
      return keysAnswer(deps, signed, problemOf(new Invalid(authMessages.api_key_type_invalid), view.lang));
    return orProblem(
      view.lang,
      async () => {
        const rotated = await rotateKeyAs(
          deps,
          { developerId: scope.developerId, keyMode: session.mode },
          type,
        );
        signed.auditRecord = `${type} key`;
        return pageAnswer(keyRotatedPage(view, rotated));
      },
      (problem) => keysAnswer(deps, signed, problem),
    );
  },
);
