/** The keys of the merchant dashboard's sign-in sessions. */
import type { ItemKey } from '../db/keys.ts';

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
   * A dashboard form that creates something, claimed by its idempotency key before it acts, so a
   * form submitted twice acts once (scoped to the account, the mode and the form's action).
   */
  form: (developerId: number, mode: string, action: string, key: string): ItemKey => ({
    pk: `DASHBOARD_FORM#${developerId}#${mode}#${action}#${key}`,
    sk: 'DASHBOARD_FORM',
  }),
};
