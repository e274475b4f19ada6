/** E-mail through SES: every message has a plain-text and an HTML part, both UTF-8. */
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { envNames, requireEnv } from '../core/config.ts';

export interface Mail {
  to: string;
  subject: string;
  /** The plain-text part, for clients that do not show HTML. */
  text: string;
  /** The HTML part; every value in it is already escaped (shared/mail/layout.ts). */
  html: string;
}

export interface Mailer {
  /** Sends one e-mail; answers the provider's message id. */
  send(mail: Mail): Promise<string>;
}

/** A mailer sending from the stage's configured address; the client is made once per process. */
export function sesMailer(): Mailer {
  const client = new SESClient({});
  const from = requireEnv(envNames.mailFrom);
  return {
    async send(mail) {
      const result = await client.send(
        new SendEmailCommand({
          Source: from,
          Destination: { ToAddresses: [mail.to] },
          Message: {
            Subject: { Data: mail.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: mail.text, Charset: 'UTF-8' },
              Html: { Data: mail.html, Charset: 'UTF-8' },
            },
          },
        }),
      );
      return result.MessageId ?? '';
    },
  };
}
