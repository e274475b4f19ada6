/** The messages of refunds: what may be refunded, and what the acquirer answered. */
import { defineMessages } from '../core/messages.ts';

export const refundMessages = /* @__PURE__ */ defineMessages({
  refund_charge_absent: {
    en: { title: 'Charge not found', content: 'The charge object does not exist.' },
    es: { title: 'Cargo no encontrado', content: 'El objeto de cargo no existe.' },
  },
  refund_charge_is_payment: {
    en: {
      title: 'Charge not found',
      content:
        "{id} is a payment id; refunds take the charge id (ch_…) shown in the payment's charge_id and in the payments list.",
    },
    es: {
      title: 'Cargo no encontrado',
      content:
        '{id} es un id de pago; los reembolsos usan el id del cargo (ch_…) que muestran el charge_id del pago y la lista de pagos.',
    },
  },
  refund_above_charge: {
    en: { title: 'Invalid amount', content: 'The refund amount is greater than the payment.' },
    es: { title: 'Monto inválido', content: 'El monto del reembolso es mayor que el pago.' },
  },
  refund_above_remaining: {
    en: {
      title: 'Invalid amount',
      content:
        'The refund amount is greater than what remains to refund of the payment ({remaining} {currency}).',
    },
    es: {
      title: 'Monto inválido',
      content:
        'El monto del reembolso es mayor que lo que queda por reembolsar del pago ({remaining} {currency}).',
    },
  },
  charge_already_refunded: {
    en: { title: 'Charge refunded', content: 'The charge has already been refunded.' },
    es: { title: 'Cargo reembolsado', content: 'El cargo ya fue reembolsado.' },
  },
  acquirer_refused_refund: {
    en: {
      title: 'Refund refused',
      content: 'The payment processor refused the refund; nothing was refunded.',
    },
    es: {
      title: 'Reembolso rechazado',
      content: 'El procesador de pagos rechazó el reembolso; no se reembolsó nada.',
    },
  },
  refund_connector_gone: {
    en: {
      title: 'Acquirer not connected',
      content:
        'The acquirer that made this charge is no longer connected to this mode of the account, so it cannot be asked to refund it: nothing was refunded. An operator connects it again (npm run -s cli -- accounts connect).',
    },
    es: {
      title: 'Adquirente no conectado',
      content:
        'El adquirente que hizo este cargo ya no está conectado a este modo de la cuenta, así que no se le puede pedir el reembolso: no se reembolsó nada. Un operador lo vuelve a conectar (npm run -s cli -- accounts connect).',
    },
  },
  acquirer_unconfirmed_refund: {
    en: {
      title: 'Refund not confirmed',
      content:
        'The payment processor did not answer in time, so the refund could not be confirmed. It is being confirmed now: send the same request with the same Idempotency-Key to get its outcome; never a new key, which could refund twice.',
    },
    es: {
      title: 'Reembolso sin confirmar',
      content:
        'El procesador de pagos no respondió a tiempo, así que no se pudo confirmar el reembolso. Se está confirmando: envíe la misma solicitud con la misma Idempotency-Key para conocer el resultado; nunca con una clave nueva, que podría reembolsar dos veces.',
    },
  },
  charge_paid_out: {
    en: {
      title: 'Charge status error',
      content: 'The charge has already been paid to the account; it cannot be refunded.',
    },
    es: {
      title: 'Error de estado del cargo',
      content: 'El cargo ya fue pagado a la cuenta; no se puede reembolsar.',
    },
  },
});
