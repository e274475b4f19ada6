/** The keys of the merchant dashboard's sign-in sessions. */
import type { Mode } from '../core/account.ts';
import { type ItemKey, scopePrefix } from '../db/keys.ts';

export const dashboardKeys = {
  /**
   * A dashboard session, found by the keyed hash of the token in its cookie (never the token
   * itself), so a copy of the table opens no session.
   */
  session: (tokenHash: string): ItemKey => ({
    pk: `DASHBOARD_SESSION#${tokenHash}`,
    sk: 'DASHBOARD_SESSION',
  }),
  /**
   * A dashboard form that makes or does something, by the key its page was made with (scoped to the
   * account and mode): claimed by its first submit, then holding that submit's answer, so the form
   * acts once (shared/dashboard/form-once.ts).
   */
  form: (developerId: number, mode: Mode, formKey: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#DASHBOARD_FORM#${formKey}`,
    sk: 'DASHBOARD_FORM',
  }),
  /**
   * The failed sign-ins of one client address in one fixed window, by the keyed hash of the address
   * (an address is personal data: the table never holds it in clear) and the window's start.
   */
  signInFailures: (addressHash: string, windowStartMs: number): ItemKey => ({
    pk: `DASHBOARD_SIGN_IN#${addressHash}`,
    sk: `WINDOW#${windowStartMs}`,
  }),
};
