/** The e-mail the stack sent, as the SES emulator stored it (`GET /store`). */
import { eventually } from './eventually.ts';
import { localInfo } from './stack.ts';

export interface StoredMail {
  subject: string;
  destination: { to: string[] };
  /** The parts SendEmail carried (aws-ses-v2-local keeps `Body.Text` and `Body.Html` as given). */
  body: { text: string; html?: string };
}

/** Every e-mail the SES emulator has taken so far. */
export async function sentMail(): Promise<StoredMail[]> {
  const store = (await (await fetch(`${localInfo.endpoints.ses}/store`)).json()) as { emails: StoredMail[] };
  return store.emails;
}

/**
 * The e-mail to `to` (with `subject` when given), once the SES emulator has it; fails after 15 s.
 */
export async function waitForMail(to: string, subject?: string): Promise<StoredMail> {
  return eventually(
    `an e-mail to ${to}${subject === undefined ? '' : ` about ${subject}`}`,
    async () =>
      (await sentMail()).find(
        (email) => email.destination.to.includes(to) && (subject === undefined || email.subject === subject),
      ),
    15_000,
  );
}
