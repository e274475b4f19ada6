/**
 * The team's e-mail (docs/design.md#team-sign-in): the invitation an admin sends from the dashboard's
 * users page, in English and Spanish, with the one-time link (./links.ts) that sets the new user's
 * password. shared/mail renders and sends it.
 */
import { defineMail } from '../mail/layout.ts';
import { accountFooter, greeting } from '../mail/words.ts';
import { linkLifetimeMs } from './links.ts';
import type { Role } from './roles.ts';

/** The invitation link's lifetime, in whole days, as the e-mail says it. */
const days = Math.round(linkLifetimeMs.invitation / 86_400_000);

const roleNames = {
  en: { admin: 'an admin', developer: 'a developer', support: 'support', viewer: 'a viewer' },
  es: { admin: 'administrador', developer: 'desarrollador', support: 'soporte', viewer: 'lector' },
} as const satisfies Record<'en' | 'es', Record<Role, string>>;

const roleScopes = {
  en: {
    admin: 'everything, users and connectors included',
    developer: 'reads, webhooks, the catalog and the API keys (masked)',
    support: 'reads, refunds, subscription cancels and customers’ portal links',
    viewer: 'reads only',
  },
  es: {
    admin: 'todo, incluidos los usuarios y los conectores',
    developer: 'lectura, webhooks, el catálogo y las claves API (enmascaradas)',
    support: 'lectura, reembolsos, cancelaciones de suscripciones y enlaces al portal de los clientes',
    viewer: 'solo lectura',
  },
} as const satisfies Record<'en' | 'es', Record<Role, string>>;

/**
 * To the invited address: who invited them to which account's dashboard, with which role, and the
 * link to set their password (it works once, until `expiresAt`). The account is the merchant the
 * layout names above the heading.
 */
export const invitationMail = /* @__PURE__ */ defineMail<{
  /** The admin who sent it, by e-mail. */
  inviterEmail: string;
  role: Role;
  /** The one-time link, `<base>/dashboard/access/<token>`. */
  url: string;
  expiresAt: string;
}>({
  en: (input, w) => ({
    subject: `You are invited to the cobro dashboard of ${input.merchant.name}`,
    heading: `Join ${input.merchant.name} on cobro`,
    blocks: [
      { paragraph: greeting.en() },
      {
        paragraph: `${input.inviterEmail} invited you to the cobro dashboard of ${input.merchant.name} as ${roleNames.en[input.role]}: ${roleScopes.en[input.role]}.`,
      },
      {
        details: [
          ['Account', input.merchant.name],
          ['Invited by', input.inviterEmail],
          ['Link expires', w.dateTime(input.expiresAt)],
        ],
      },
      { link: { label: 'Set your password', url: input.url } },
      {
        paragraph: `The link works once and expires in ${days} days. If you did not expect this invitation, ignore this e-mail: nothing happens until the link is used.`,
      },
    ],
    footer: accountFooter.en,
  }),
  es: (input, w) => ({
    subject: `Te invitaron al panel de cobro de ${input.merchant.name}`,
    heading: `Únete a ${input.merchant.name} en cobro`,
    blocks: [
      { paragraph: greeting.es() },
      {
        paragraph: `${input.inviterEmail} te invitó al panel de cobro de ${input.merchant.name} con el rol ${roleNames.es[input.role]}: ${roleScopes.es[input.role]}.`,
      },
      {
        details: [
          ['Cuenta', input.merchant.name],
          ['Invitación de', input.inviterEmail],
          ['El enlace vence', w.dateTime(input.expiresAt)],
        ],
      },
      { link: { label: 'Elige tu contraseña', url: input.url } },
      {
        paragraph: `El enlace sirve una vez y vence en ${days} días. Si no esperabas esta invitación, ignora este correo: no pasa nada hasta que se use el enlace.`,
      },
    ],
    footer: accountFooter.es,
  }),
});
