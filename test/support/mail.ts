/** The e-mail the stack sent, as the SES emulator stored it (`GET /store`). */
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
 * Polls the SES emulator (for up to 10 s) for an e-mail to `to`, with `subject` when given; answers
 * undefined when none came.
 */
export async function waitForMail(to: string, subject?: string): Promise<StoredMail | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const mail = (await sentMail()).find(
      (email) => email.destination.to.includes(to) && (subject === undefined || email.subject === subject),
    );
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}
