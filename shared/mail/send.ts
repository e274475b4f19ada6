/** Plain-text e-mail through SES. */
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { envNames, requireEnv } from '../core/config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
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
            Body: { Text: { Data: mail.text, Charset: 'UTF-8' } },
          },
        }),
      );
      return result.MessageId ?? '';
    },
  };
}
