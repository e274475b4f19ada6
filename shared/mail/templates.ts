/**
 * The e-mails cobro sends, in English and Spanish (the account's language), as a typed catalogue:
 * each template takes the language, the merchant (name and logo) and its own fields, and answers the
 * subject, a plain-text part and an HTML part built from the same blocks. Every value that reaches
 * the HTML is escaped here; callers pass raw values. Money, dates and cards are written by the
 * display functions every customer text shares (shared/core/display.ts, displayAmount), in the
 * e-mail's language: "1.234,56 USD" in Spanish, "26 Nov 2026, 14:05 UTC", "Visa •••• 4242".
 */
import type { Mode } from '../core/account.ts';
import {
  displayCard,
  displayDate,
  displayDateTime,
  displayEvery,
  displayItem,
  displayPeriod,
  displayPrice,
} from '../core/display.ts';
import { escapeHtml } from '../core/html.ts';
import { isLang, type Lang } from '../core/messages.ts';
import { displayAmount, parseScaledDecimal } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';

/**
 * The language an account's `language` field names (set with `accounts update`): English when unset
 * or unknown.
 */
export function mailLanguage(value: unknown): Lang {
  return isLang(value) ? value : 'en';
}

/** Whose e-mail it is: the name shown in the header and the logo above it. */
export interface MailMerchant {
  name: string;
  /** Shown only when it is an http(s) URL. @default none */
  logoUrl?: string | null;
}

/** What every template takes besides its own fields. */
export interface MailContext {
  language: Lang;
  merchant: MailMerchant;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A piece of an e-mail's body, rendered once as text and once as HTML. */
type Block =
  | { paragraph: string }
  | { details: ReadonlyArray<readonly [label: string, value: string]> }
  /** A link to one of cobro's own pages: the label as a link in HTML, the address on its own line in text. */
  | { link: { label: string; url: string } };

interface Content {
  subject: string;
  heading: string;
  blocks: Block[];
  footer: string;
}

/** The logo's URL when it is an absolute http(s) URL; anything else (javascript:, data:, junk) is dropped. */
export function safeLogoUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A subject is one header line: no line breaks or other control characters from a merchant's name. */
const oneLine = (value: string) =>
  Array.from(value, (char) => (char < ' ' || char === '\u007f' ? ' ' : char))
    .join('')
    .trim();

/** How one language writes dates, money, cards, periods and modes. */
interface Words {
  dateTime(iso: string): string;
  date(iso: string): string;
  /** An amount given as the API's decimal ("1234.5") in `currency`: "1,234.50 USD" / "1.234,50 USD". */
  money(amount: string, currency: string): string;
  card(card: { brand?: string | null; last4?: string | null }): string;
  /** "every month", "every 3 months" ("cada mes", "cada 3 meses"), for a sentence. */
  every(interval: string, count: number): string;
  mode(mode: Mode): string;
}

/**
 * An amount a caller gives as the API's decimal, written for `language` from its exact digits (never
 * through a float); one in a currency cobro does not know is shown as given.
 */
function money(amount: string, code: string, language: Lang): string {
  const currency = findCurrency(code);
  const minor = currency ? parseScaledDecimal(amount, currency.precision) : undefined;
  return currency && minor !== undefined ? displayAmount(minor, currency, language) : `${amount} ${code}`;
}

const intervalNames: Record<Lang, Record<string, readonly [one: string, many: string]>> = {
  en: { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'], year: ['year', 'years'] },
  es: { day: ['día', 'días'], week: ['semana', 'semanas'], month: ['mes', 'meses'], year: ['año', 'años'] },
};

const wordsIn = (language: Lang) => ({
  dateTime: (iso: string) => displayDateTime(iso, language),
  date: (iso: string) => displayDate(iso, language),
  money: (amount: string, currency: string) => money(amount, currency, language),
  card: (card: { brand?: string | null; last4?: string | null }) => displayCard(card, language),
});

const words: Record<Lang, Words> = {
  en: {
    ...wordsIn('en'),
    every(interval, count) {
      const [one, many] = intervalNames.en[interval] ?? [interval, `${interval}s`];
      return count === 1 ? `every ${one}` : `every ${count} ${many}`;
    },
    mode: (mode) => mode,
  },
  es: {
    ...wordsIn('es'),
    every(interval, count) {
      const [one, many] = intervalNames.es[interval] ?? [interval, interval];
      return count === 1 ? `cada ${one}` : `cada ${count} ${many}`;
    },
    mode: (mode) => (mode === 'test' ? 'de prueba' : 'de producción'),
  },
};

const colors = { text: '#1f2328', muted: '#6e7781', page: '#f4f5f7', card: '#ffffff', rule: '#d0d7de' };

function textOf(content: Content): string {
  const blocks = content.blocks.map((block) =>
    'paragraph' in block
      ? block.paragraph
      : 'link' in block
        ? `${block.link.label}:\n${block.link.url}`
        : block.details.map(([label, value]) => `${label}: ${value}`).join('\n'),
  );
  // `-- ` on its own line is the signature separator mail clients recognize.
  return `${blocks.join('\n\n')}\n\n-- \n${content.footer}`;
}

function htmlOf(content: Content, language: Lang, merchant: MailMerchant): string {
  const logo = safeLogoUrl(merchant.logoUrl);
  const name = escapeHtml(merchant.name);
  const header = [
    logo
      ? `<img src="${escapeHtml(logo)}" alt="${name}" height="40" style="display:block;max-height:40px;border:0;margin:0 0 8px">`
      : '',
    `<div style="font-size:16px;font-weight:bold">${name}</div>`,
  ].join('');
  const blocks = content.blocks.map((block) => {
    if ('paragraph' in block) {
      const lines = block.paragraph.split('\n').map(escapeHtml).join('<br>');
      return `<p style="margin:0 0 16px">${lines}</p>`;
    }
    if ('link' in block) {
      // Only an http(s) address becomes a link; anything else is shown as text.
      const href = safeLogoUrl(block.link.url);
      const label = escapeHtml(block.link.label);
      return href
        ? `<p style="margin:0 0 16px"><a href="${escapeHtml(href)}" style="color:#1f5eff;font-weight:bold">${label}</a><br><span style="font-size:12px;color:${colors.muted};word-break:break-all">${escapeHtml(href)}</span></p>`
        : `<p style="margin:0 0 16px">${label}: ${escapeHtml(block.link.url)}</p>`;
    }
    const rows = block.details
      .map(
        ([label, value]) =>
          `<tr><td style="padding:4px 16px 4px 0;color:${colors.muted};vertical-align:top">${escapeHtml(label)}</td>` +
          `<td style="padding:4px 0;font-weight:bold">${escapeHtml(value)}</td></tr>`,
      )
      .join('');
    return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${rows}</table>`;
  });
  return [
    '<!DOCTYPE html>',
    `<html lang="${language}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(content.subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:${colors.page}">`,
    `<div style="max-width:560px;margin:0 auto;padding:24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:${colors.text}">`,
    `<div style="background:${colors.card};border:1px solid ${colors.rule};border-radius:8px;padding:24px">`,
    `<div style="margin:0 0 16px">${header}</div>`,
    `<h1 style="font-size:20px;line-height:1.3;margin:0 0 16px">${escapeHtml(content.heading)}</h1>`,
    ...blocks,
    '</div>',
    `<p style="margin:16px 0 0;font-size:12px;color:${colors.muted};text-align:center">${escapeHtml(content.footer)}</p>`,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** A template: one function per language writing the content; rendering and escaping are shared. */
function defineTemplate<Fields>(
  copy: Record<Lang, (input: Fields & MailContext, words: Words) => Content>,
): (input: Fields & MailContext) => RenderedMail {
  return (input) => {
    const language = mailLanguage(input.language);
    const written = copy[language](input, words[language]);
    // A details block left with no rows (every row optional and absent) is not shown at all.
    const blocks = written.blocks.filter((block) => !('details' in block) || block.details.length > 0);
    const content = { ...written, blocks };
    const subject = oneLine(content.subject);
    return {
      subject,
      text: textOf(content),
      html: htmlOf({ ...content, subject }, language, input.merchant),
    };
  };
}

const greeting = {
  en: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
  es: (name?: string | null) => (name ? `Hola ${name}:` : 'Hola:'),
};

const accountFooter = { en: 'cobro · a notice about your account', es: 'cobro · un aviso sobre tu cuenta' };
const customerFooter = {
  en: (merchant: string) => `${merchant} sends you this e-mail through cobro.`,
  es: (merchant: string) => `${merchant} te envía este correo a través de cobro.`,
};

/** To the merchant: one of its API keys was replaced (`api_key.rotated`). */
export const apiKeyRotated = defineTemplate<{
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

/** A plan as the plan e-mails show it; money is the API's decimal string. */
export interface MailPlan {
  id: string;
  name: string;
  amount: string;
  currency: string;
  interval: string;
  intervalCount: number;
}

/** To the merchant: it deleted a plan, and how many active subscriptions that canceled (`plan.deleted`). */
export const planDeletedMerchant = defineTemplate<{
  ownerName: string;
  mode: Mode;
  plan: MailPlan;
  activeSubscriptions: number;
  deletedAt: string;
}>({
  en: ({ plan, ...input }, w) => ({
    subject: `Your cobro plan "${plan.name}" was deleted`,
    heading: `Plan "${plan.name}" deleted`,
    blocks: [
      { paragraph: greeting.en(input.ownerName) },
      {
        paragraph: [
          `The ${w.mode(input.mode)} plan "${plan.name}" (${plan.id}), ${w.money(plan.amount, plan.currency)} ${w.every(plan.interval, plan.intervalCount)}, was deleted at ${w.dateTime(input.deletedAt)}.`,
          input.activeSubscriptions === 0
            ? 'It had no active subscriptions.'
            : input.activeSubscriptions === 1
              ? 'Its 1 active subscription is canceled and its customer is told by e-mail.'
              : `Its ${input.activeSubscriptions} active subscriptions are canceled and their customers are told by e-mail.`,
        ].join('\n'),
      },
      {
        paragraph:
          'A deleted plan cannot be restored. To stop new sign-ups but keep a plan, archive it instead (PUT with "active": false).',
      },
    ],
    footer: accountFooter.en,
  }),
  es: ({ plan, ...input }, w) => ({
    subject: `Se eliminó tu plan "${plan.name}" de cobro`,
    heading: `Plan "${plan.name}" eliminado`,
    blocks: [
      { paragraph: greeting.es(input.ownerName) },
      {
        paragraph: [
          `El plan ${w.mode(input.mode)} "${plan.name}" (${plan.id}), ${w.money(plan.amount, plan.currency)} ${w.every(plan.interval, plan.intervalCount)}, se eliminó el ${w.dateTime(input.deletedAt)}.`,
          input.activeSubscriptions === 0
            ? 'No tenía suscripciones activas.'
            : input.activeSubscriptions === 1
              ? 'Su única suscripción activa queda cancelada y se avisa a su cliente por correo.'
              : `Sus ${input.activeSubscriptions} suscripciones activas quedan canceladas y se avisa a sus clientes por correo.`,
        ].join('\n'),
      },
      {
        paragraph:
          'Un plan eliminado no se puede restaurar. Para dejar de aceptar suscripciones nuevas y conservar el plan, archívalo (PUT con "active": false).',
      },
    ],
    footer: accountFooter.es,
  }),
});

/** To a customer with an active subscription to a deleted plan: it is canceled, nothing more is charged. */
export const planDeletedCustomer = defineTemplate<{
  customerName?: string | null;
  planName: string;
  canceledAt: string;
}>({
  en: (input, w) => ({
    subject: `${input.merchant.name}: the plan "${input.planName}" was discontinued`,
    heading: 'Your subscription was canceled',
    blocks: [
      { paragraph: greeting.en(input.customerName) },
      {
        paragraph: `${input.merchant.name} no longer offers the plan "${input.planName}", so your subscription to it was canceled on ${w.date(input.canceledAt)}.`,
      },
      {
        paragraph: `You will not be charged for it again. If you have questions, contact ${input.merchant.name}.`,
      },
    ],
    footer: customerFooter.en(input.merchant.name),
  }),
  es: (input, w) => ({
    subject: `${input.merchant.name}: el plan "${input.planName}" ya no está disponible`,
    heading: 'Tu suscripción se canceló',
    blocks: [
      { paragraph: greeting.es(input.customerName) },
      {
        paragraph: `${input.merchant.name} dejó de ofrecer el plan "${input.planName}", por lo que tu suscripción se canceló el ${w.date(input.canceledAt)}.`,
      },
      {
        paragraph: `No se te volverá a cobrar por ella. Si tienes preguntas, contacta a ${input.merchant.name}.`,
      },
    ],
    footer: customerFooter.es(input.merchant.name),
  }),
});

/**
 * What a subscription sells, as its e-mails list it: the plan, how many, the price of one (the API's
 * decimal) and how often it is charged.
 */
export interface MailItem {
  name: string;
  quantity: number;
  unitAmount: string;
  currency: string;
  interval: string;
  intervalCount: number;
}

/** "Silver × 2" and "9.90 USD × 2 = 19.80 USD / month", in `language`. */
function itemLines(item: MailItem, language: Lang): { name: string; price: string } {
  const name = displayItem(item);
  const currency = findCurrency(item.currency);
  const unit = currency ? parseScaledDecimal(item.unitAmount, currency.precision) : undefined;
  if (!currency || unit === undefined) {
    // A currency cobro does not know: the figures as given, never a wrong total.
    const each = `${item.unitAmount} ${item.currency}`;
    const every = displayEvery(item.interval, item.intervalCount, language);
    return { name, price: item.quantity === 1 ? `${each} ${every}` : `${each} × ${item.quantity} ${every}` };
  }
  return { name, price: displayPrice({ ...item, unitAmount: unit, currency }, language) };
}

/**
 * To the customer: the receipt of an activated subscription (`subscription.activated`): what was
 * subscribed to and how many, the price per interval, and a link to the customer portal (made when
 * the e-mail is sent, open until `linkExpiresAt`) to cancel it, change it or replace the card.
 */
export const subscriptionActivated = defineTemplate<{
  customerName?: string | null;
  /** The subscription's id, listed for reference. @default not shown */
  subscriptionId?: string | null;
  item: MailItem;
  /** When the next charge is due. @default not shown */
  nextBillingAt?: string | null;
  /** When the trial ends, for a trialing subscription. @default no trial */
  trialEndsAt?: string | null;
  /** The customer portal's address, and when it stops opening. */
  portalUrl: string;
  linkExpiresAt: string;
}>({
  en: (input, w) => {
    const { name, price } = itemLines(input.item, 'en');
    return {
      subject: input.trialEndsAt
        ? `${input.merchant.name}: your free trial of "${input.item.name}" has started`
        : `${input.merchant.name}: your subscription to "${input.item.name}" is active`,
      heading: input.trialEndsAt ? 'Your free trial has started' : 'Your subscription is active',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        {
          paragraph: input.trialEndsAt
            ? `Your free trial of "${name}" has started: nothing is charged until it ends on ${w.date(input.trialEndsAt)}, then ${price}.`
            : `Your subscription to "${name}" is active. Thank you!`,
        },
        {
          details: [
            ['Plan', name],
            ['Price', price],
            ...(input.trialEndsAt ? [['Trial ends', w.date(input.trialEndsAt)] as const] : []),
            ...(input.nextBillingAt ? [['Next billing date', w.date(input.nextBillingAt)] as const] : []),
            ...(input.subscriptionId ? [['Subscription', input.subscriptionId] as const] : []),
          ],
        },
        {
          paragraph: `To cancel your subscription or to replace your card, open your customer portal. This link works until ${w.dateTime(input.linkExpiresAt)}; ask ${input.merchant.name} for a new one after.`,
        },
        { link: { label: 'Manage your subscription', url: input.portalUrl } },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const { name, price } = itemLines(input.item, 'es');
    return {
      subject: input.trialEndsAt
        ? `${input.merchant.name}: tu prueba gratuita de "${input.item.name}" ha comenzado`
        : `${input.merchant.name}: tu suscripción a "${input.item.name}" está activa`,
      heading: input.trialEndsAt ? 'Tu prueba gratuita ha comenzado' : 'Tu suscripción está activa',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        {
          paragraph: input.trialEndsAt
            ? `Tu prueba gratuita de "${name}" ha comenzado: no se cobra nada hasta que termine, el ${w.date(input.trialEndsAt)}; después, ${price}.`
            : `Tu suscripción a "${name}" está activa. ¡Gracias!`,
        },
        {
          details: [
            ['Plan', name],
            ['Precio', price],
            ...(input.trialEndsAt ? [['Fin del periodo de prueba', w.date(input.trialEndsAt)] as const] : []),
            ...(input.nextBillingAt ? [['Próximo cobro', w.date(input.nextBillingAt)] as const] : []),
            ...(input.subscriptionId ? [['Suscripción', input.subscriptionId] as const] : []),
          ],
        },
        {
          paragraph: `Para cancelar tu suscripción o reemplazar tu tarjeta, abre tu portal de cliente. Este enlace funciona hasta el ${w.dateTime(input.linkExpiresAt)}; después, pide uno nuevo a ${input.merchant.name}.`,
        },
        { link: { label: 'Gestionar tu suscripción', url: input.portalUrl } },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});

/**
 * Why a subscription ended, as the cancellation notice tells its subscriber: its merchant canceled
 * it (through the API), the subscriber asked for it (from the customer portal), its payments kept failing until the retries ran out, or its plan was
 * deleted. Unknown (an event from before reasons were carried): the notice says only that it ended.
 */
export type CancellationReason = 'requested' | 'customer_requested' | 'payment_failed' | 'plan_deleted';

const cancellationWhy: Record<
  Lang,
  Record<CancellationReason, (merchant: string, plan: string, on: string) => { why: string; label: string }>
> = {
  en: {
    requested: (merchant, plan, on) => ({
      why: `${merchant} canceled your subscription to "${plan}" on ${on}.`,
      label: `Canceled by ${merchant}`,
    }),
    customer_requested: (_, plan, on) => ({
      why: `As you asked, your subscription to "${plan}" was canceled on ${on}.`,
      label: 'Canceled at your request',
    }),
    payment_failed: (_, plan, on) => ({
      why: `Your subscription to "${plan}" was canceled on ${on} because its payment failed: your card was declined on every retry.`,
      label: 'Payment failed',
    }),
    plan_deleted: (merchant, plan, on) => ({
      why: `${merchant} no longer offers the plan "${plan}", so your subscription to it was canceled on ${on}.`,
      label: 'Plan discontinued',
    }),
  },
  es: {
    requested: (merchant, plan, on) => ({
      why: `${merchant} canceló tu suscripción a "${plan}" el ${on}.`,
      label: `Cancelada por ${merchant}`,
    }),
    customer_requested: (_, plan, on) => ({
      why: `Como pediste, tu suscripción a "${plan}" se canceló el ${on}.`,
      label: 'Cancelada a tu pedido',
    }),
    payment_failed: (_, plan, on) => ({
      why: `Tu suscripción a "${plan}" se canceló el ${on} porque su pago falló: tu tarjeta se rechazó en cada reintento.`,
      label: 'Pago fallido',
    }),
    plan_deleted: (merchant, plan, on) => ({
      why: `${merchant} dejó de ofrecer el plan "${plan}", por lo que tu suscripción se canceló el ${on}.`,
      label: 'Plan descontinuado',
    }),
  },
};

/** To the customer: the notice of a canceled subscription, saying why (`subscription.canceled`). */
export const subscriptionCanceled = defineTemplate<{
  customerName?: string | null;
  subscriptionId?: string | null;
  planName: string;
  canceledAt: string;
  /** Why it ended. @default not said */
  reason?: CancellationReason | null;
}>({
  en: (input, w) => {
    const on = w.date(input.canceledAt);
    const because = input.reason
      ? cancellationWhy.en[input.reason](input.merchant.name, input.planName, on)
      : null;
    return {
      subject: `${input.merchant.name}: your subscription to "${input.planName}" was canceled`,
      heading: 'Your subscription was canceled',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        {
          paragraph: `${because?.why ?? `Your subscription to "${input.planName}" was canceled on ${on}.`} You will not be charged for it again.`,
        },
        {
          details: [
            ...(because ? [['Reason', because.label] as const] : []),
            ...(input.subscriptionId ? [['Subscription', input.subscriptionId] as const] : []),
          ],
        },
        {
          paragraph:
            input.reason === 'payment_failed'
              ? `To subscribe again with another card, contact ${input.merchant.name}.`
              : `If you did not expect this, contact ${input.merchant.name}.`,
        },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const on = w.date(input.canceledAt);
    const because = input.reason
      ? cancellationWhy.es[input.reason](input.merchant.name, input.planName, on)
      : null;
    return {
      subject: `${input.merchant.name}: se canceló tu suscripción a "${input.planName}"`,
      heading: 'Tu suscripción se canceló',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        {
          paragraph: `${because?.why ?? `Tu suscripción a "${input.planName}" se canceló el ${on}.`} No se te volverá a cobrar por ella.`,
        },
        {
          details: [
            ...(because ? [['Motivo', because.label] as const] : []),
            ...(input.subscriptionId ? [['Suscripción', input.subscriptionId] as const] : []),
          ],
        },
        {
          paragraph:
            input.reason === 'payment_failed'
              ? `Para suscribirte de nuevo con otra tarjeta, contacta a ${input.merchant.name}.`
              : `Si no esperabas este cambio, contacta a ${input.merchant.name}.`,
        },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});

/**
 * To the customer: a renewal of their subscription was declined (`subscription.payment_failed` with a
 * retry ahead), with a link to the customer portal, valid for `linkExpiresAt`, to replace the card.
 */
export const renewalFailed = defineTemplate<{
  customerName?: string | null;
  planName: string;
  /** The amount that could not be charged, in the API's decimal, and its currency. */
  amount: string;
  currency: string;
  /** When the card is tried again. */
  nextRetryAt: string;
  /** The customer portal's address, and when it stops opening. */
  portalUrl: string;
  linkExpiresAt: string;
  /**
   * The bank asked for the cardholder to confirm the payment (`authentication_required`: a charge
   * made without them cannot pass it): the customer confirms the card in the portal instead of
   * replacing it. @default a decline
   */
  needsConfirmation?: boolean;
}>({
  en: (input, w) => ({
    subject: input.needsConfirmation
      ? `${input.merchant.name}: confirm your payment for "${input.planName}"`
      : `${input.merchant.name}: your payment for "${input.planName}" failed`,
    heading: input.needsConfirmation ? 'Your bank asks you to confirm your payment' : 'Your payment failed',
    blocks: [
      { paragraph: greeting.en(input.customerName) },
      {
        paragraph: input.needsConfirmation
          ? `We could not charge ${w.money(input.amount, input.currency)} for your subscription to "${input.planName}": your bank asks you to confirm the payment yourself. We will try again on ${w.date(input.nextRetryAt)}.`
          : `We could not charge ${w.money(input.amount, input.currency)} for your subscription to "${input.planName}": your card was declined. We will try again on ${w.date(input.nextRetryAt)}.`,
      },
      {
        paragraph: input.needsConfirmation
          ? `Open your customer portal and confirm your card with your bank (the link works until ${w.dateTime(input.linkExpiresAt)}); the amount due is then charged at once.`
          : `To keep your subscription, update your card (the link works until ${w.dateTime(input.linkExpiresAt)}); the amount due is then charged to the new card at once.`,
      },
      {
        link: {
          label: input.needsConfirmation ? 'Confirm your card' : 'Replace your card',
          url: input.portalUrl,
        },
      },
      {
        details: [
          ['Plan', input.planName],
          ['Amount due', w.money(input.amount, input.currency)],
          ['Next attempt', w.date(input.nextRetryAt)],
        ],
      },
    ],
    footer: customerFooter.en(input.merchant.name),
  }),
  es: (input, w) => ({
    subject: input.needsConfirmation
      ? `${input.merchant.name}: confirma tu pago de "${input.planName}"`
      : `${input.merchant.name}: falló tu pago de "${input.planName}"`,
    heading: input.needsConfirmation ? 'Tu banco te pide confirmar tu pago' : 'Tu pago falló',
    blocks: [
      { paragraph: greeting.es(input.customerName) },
      {
        paragraph: input.needsConfirmation
          ? `No pudimos cobrar ${w.money(input.amount, input.currency)} por tu suscripción a "${input.planName}": tu banco te pide confirmar el pago tú mismo. Lo intentaremos de nuevo el ${w.date(input.nextRetryAt)}.`
          : `No pudimos cobrar ${w.money(input.amount, input.currency)} por tu suscripción a "${input.planName}": tu tarjeta fue rechazada. Lo intentaremos de nuevo el ${w.date(input.nextRetryAt)}.`,
      },
      {
        paragraph: input.needsConfirmation
          ? `Abre tu portal de cliente y confirma tu tarjeta con tu banco (el enlace funciona hasta el ${w.dateTime(input.linkExpiresAt)}); el importe pendiente se cobra entonces de inmediato.`
          : `Para conservar tu suscripción, actualiza tu tarjeta (el enlace funciona hasta el ${w.dateTime(input.linkExpiresAt)}); el importe pendiente se cobra entonces a la nueva tarjeta de inmediato.`,
      },
      {
        link: {
          label: input.needsConfirmation ? 'Confirmar tu tarjeta' : 'Cambiar tu tarjeta',
          url: input.portalUrl,
        },
      },
      {
        details: [
          ['Plan', input.planName],
          ['Importe pendiente', w.money(input.amount, input.currency)],
          ['Próximo intento', w.date(input.nextRetryAt)],
        ],
      },
    ],
    footer: customerFooter.es(input.merchant.name),
  }),
});

/** To the payer: a refund of one of their charges (`refund.created`). */
export const refundIssued = defineTemplate<{
  customerName?: string | null;
  /** What was refunded, in the API's decimal (`12.50`), and the charge's currency. */
  amount: string;
  currency: string;
  /** The charge refunded: its reference, amount, what it paid for and the card it was made on. */
  chargeId: string;
  chargeAmount: string;
  chargeDescription?: string | null;
  chargedAt: string;
  card?: { brand: string; last4: string } | null;
  /** The refund's reference (`re_…`). */
  refundId: string;
  refundedAt: string;
}>({
  en: (input, w) => {
    const partial = input.amount !== input.chargeAmount;
    const card = input.card?.last4 ? `your card ${w.card(input.card)}` : 'your card';
    return {
      subject: `${input.merchant.name}: refund of ${w.money(input.amount, input.currency)}`,
      heading: 'Your refund is on its way',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        {
          paragraph: [
            `${input.merchant.name} refunded ${w.money(input.amount, input.currency)} to ${card} on ${w.date(input.refundedAt)}.`,
            partial
              ? `It refunds part of your payment of ${w.money(input.chargeAmount, input.currency)} made on ${w.date(input.chargedAt)}.`
              : `It refunds in full your payment of ${w.money(input.chargeAmount, input.currency)} made on ${w.date(input.chargedAt)}.`,
          ].join('\n'),
        },
        {
          details: [
            ['Refunded', w.money(input.amount, input.currency)],
            ['Original payment', w.money(input.chargeAmount, input.currency)],
            ...(input.chargeDescription ? [['For', input.chargeDescription] as const] : []),
            ['Payment reference', input.chargeId],
            ['Refund reference', input.refundId],
            ['Date', w.date(input.refundedAt)],
          ],
        },
        {
          paragraph: `Depending on your bank, the money shows on your statement within a few business days. If you have questions, contact ${input.merchant.name}.`,
        },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const partial = input.amount !== input.chargeAmount;
    const card = input.card?.last4 ? `tu tarjeta ${w.card(input.card)}` : 'tu tarjeta';
    return {
      subject: `${input.merchant.name}: reembolso de ${w.money(input.amount, input.currency)}`,
      heading: 'Tu reembolso está en camino',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        {
          paragraph: [
            `${input.merchant.name} te reembolsó ${w.money(input.amount, input.currency)} a ${card} el ${w.date(input.refundedAt)}.`,
            partial
              ? `Reembolsa una parte de tu pago de ${w.money(input.chargeAmount, input.currency)} del ${w.date(input.chargedAt)}.`
              : `Reembolsa el total de tu pago de ${w.money(input.chargeAmount, input.currency)} del ${w.date(input.chargedAt)}.`,
          ].join('\n'),
        },
        {
          details: [
            ['Reembolsado', w.money(input.amount, input.currency)],
            ['Pago original', w.money(input.chargeAmount, input.currency)],
            ...(input.chargeDescription ? [['Concepto', input.chargeDescription] as const] : []),
            ['Referencia del pago', input.chargeId],
            ['Referencia del reembolso', input.refundId],
            ['Fecha', w.date(input.refundedAt)],
          ],
        },
        {
          paragraph: `Según tu banco, el dinero aparece en tu estado de cuenta en unos días hábiles. Si tienes preguntas, contacta a ${input.merchant.name}.`,
        },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});

// ---- Receipts: one per approved charge, to whoever paid it -------------------------------------

/** What a receipt e-mail says of one approved charge. */
export interface MailReceipt {
  /** The charge's id (`ch_…`): the reference a payer quotes to the merchant. */
  reference: string;
  /** The amount in major units as the API writes it (`19.99`); the e-mail writes it in its language. */
  amount: string;
  currency: string;
  /** What was paid for; none when the charge has no description. */
  description?: string | null;
  /** What a subscription's charge bought: the plan, how many, the price per interval. @default not shown */
  item?: MailItem | null;
  /** The period a subscription's charge pays for. @default not shown */
  period?: { start: string; end: string } | null;
  /** When the charge was approved (ISO 8601). */
  paidAt: string;
  cardBrand: string;
  cardLast4: string;
  /** The hosted receipt page (no login), which also serves the PDF. */
  receiptUrl: string;
}

/** The description, unless it only repeats the item's name (a subscription's charge is described by its plan's). */
const shownDescription = (r: MailReceipt) =>
  r.description && r.description !== r.item?.name ? r.description : null;

/** The rows of what a subscription's charge bought, in `language`; none for any other charge. */
function boughtRows(r: MailReceipt, language: Lang, labels: { item: string; price: string; period: string }) {
  const rows: (readonly [string, string])[] = [];
  if (r.item) {
    const { name, price } = itemLines(r.item, language);
    rows.push([labels.item, name], [labels.price, price]);
  }
  if (r.period) rows.push([labels.period, displayPeriod(r.period.start, r.period.end, language)]);
  return rows;
}

/** To the payer: the receipt of an approved charge, with a link to its page and PDF (`charge.succeeded`). */
export const receipt = defineTemplate<{ customerName?: string | null; receipt: MailReceipt }>({
  en: ({ receipt: r, ...input }, w) => ({
    subject: r.description
      ? `${input.merchant.name}: your receipt for "${r.description}"`
      : `${input.merchant.name}: your receipt`,
    heading: `Receipt for ${w.money(r.amount, r.currency)}`,
    blocks: [
      { paragraph: greeting.en(input.customerName) },
      { paragraph: `${input.merchant.name} received your payment. Thank you!` },
      {
        details: [
          ['Merchant', input.merchant.name],
          ['Amount', w.money(r.amount, r.currency)],
          ...(shownDescription(r) ? [['Description', shownDescription(r) ?? ''] as const] : []),
          ...boughtRows(r, 'en', { item: 'Item', price: 'Price', period: 'Period' }),
          ['Date', w.dateTime(r.paidAt)],
          ['Card', w.card({ brand: r.cardBrand, last4: r.cardLast4 })],
          ['Reference', r.reference],
        ],
      },
      { link: { label: 'View or download this receipt (PDF)', url: r.receiptUrl } },
      { paragraph: `If you do not recognize this payment, contact ${input.merchant.name}.` },
    ],
    footer: customerFooter.en(input.merchant.name),
  }),
  es: ({ receipt: r, ...input }, w) => ({
    subject: r.description
      ? `${input.merchant.name}: tu recibo de "${r.description}"`
      : `${input.merchant.name}: tu recibo`,
    heading: `Recibo de ${w.money(r.amount, r.currency)}`,
    blocks: [
      { paragraph: greeting.es(input.customerName) },
      { paragraph: `${input.merchant.name} recibió tu pago. ¡Gracias!` },
      {
        details: [
          ['Comercio', input.merchant.name],
          ['Importe', w.money(r.amount, r.currency)],
          ...(shownDescription(r) ? [['Descripción', shownDescription(r) ?? ''] as const] : []),
          ...boughtRows(r, 'es', { item: 'Concepto', price: 'Precio', period: 'Periodo' }),
          ['Fecha', w.dateTime(r.paidAt)],
          ['Tarjeta', w.card({ brand: r.cardBrand, last4: r.cardLast4 })],
          ['Referencia', r.reference],
        ],
      },
      { link: { label: 'Consulta o descarga este recibo (PDF)', url: r.receiptUrl } },
      { paragraph: `Si no reconoces este pago, contacta a ${input.merchant.name}.` },
    ],
    footer: customerFooter.es(input.merchant.name),
  }),
});

// ---- End of receipts -----------------------------------------------------------------------------

/** Every template by name. */
export const mailTemplates = {
  apiKeyRotated,
  planDeletedMerchant,
  planDeletedCustomer,
  subscriptionActivated,
  subscriptionCanceled,
  renewalFailed,
  refundIssued,
  receipt,
} as const;

export type MailTemplateName = keyof typeof mailTemplates;
export type MailTemplateInput<N extends MailTemplateName> = Parameters<(typeof mailTemplates)[N]>[0];
