/**
 * The accounts' e-mail (docs/design.md#e-mail): the notice to an account's owner that one of its API
 * keys was replaced, in English and Spanish. shared/mail renders and sends it.
 */
import type { Mode } from '../core/account.ts';
import { defineMail } from '../mail/layout.ts';
import { accountFooter, greeting } from '../mail/words.ts';

/** To the merchant: one of its API keys was replaced (`api_key.rotated`). */
export const apiKeyRotatedMail = /* @__PURE__ */ defineMail<{
  /** The account owner's name, for the greeting. */
  ownerName: string;
  developerId: number;
  keyType: Mode;
  /** The new key's last characters (never the key). */
  keyEnding: string;
  rotatedAt: string;
}>({
  en: (input, w) => ({
    subject: `Your cobro ${input.keyType} API key was rotated`,
    heading: `Your ${input.keyType} API key was rotated`,
    blocks: [
      { paragraph: greeting.en(input.ownerName) },
      {
        paragraph: [
          `The ${input.keyType} API key of your cobro account ${input.developerId} was replaced at ${w.dateTime(input.rotatedAt)}.`,
          `The new key ends in ${input.keyEnding}. The previous key stops working within 60 seconds.`,
        ].join('\n'),
      },
      {
        paragraph: 'If you did not do this, rotate both keys now and review who has access to your account.',
      },
    ],
    footer: accountFooter.en,
  }),
  es: (input, w) => ({
    subject: `Se rotó la clave API ${w.mode(input.keyType)} de tu cuenta de cobro`,
    heading: `Se rotó tu clave API ${w.mode(input.keyType)}`,
    blocks: [
      { paragraph: greeting.es(input.ownerName) },
      {
        paragraph: [
          `La clave API ${w.mode(input.keyType)} de tu cuenta de cobro ${input.developerId} se reemplazó el ${w.dateTime(input.rotatedAt)}.`,
          `La nueva clave termina en ${input.keyEnding}. La clave anterior deja de funcionar en 60 segundos como máximo.`,
        ].join('\n'),
      },
      {
        paragraph: 'Si no fuiste tú, rota ahora ambas claves y revisa quién tiene acceso a tu cuenta.',
      },
    ],
    footer: accountFooter.es,
  }),
});
