/** The messages of payment links. */
import { defineMessages } from '../core/messages.ts';

export const paymentLinkMessages = /* @__PURE__ */ defineMessages({
  payment_link_created: {
    en: {
      title: 'Payment link created',
      content: 'Share the link with the customer to collect the payment.',
    },
    es: { title: 'Enlace de pago creado', content: 'Comparta el enlace con el cliente para cobrar el pago.' },
  },
  payment_link_updated: {
    en: { title: 'Payment link updated', content: 'The payment link was updated.' },
    es: { title: 'Enlace de pago actualizado', content: 'El enlace de pago fue actualizado.' },
  },
  payment_link_deleted: {
    en: {
      title: 'Payment link deleted',
      content: 'The payment link was deleted; its page no longer takes payments.',
    },
    es: {
      title: 'Enlace de pago eliminado',
      content: 'El enlace de pago fue eliminado; su página ya no acepta pagos.',
    },
  },
  payment_link_not_found: {
    en: { title: 'Payment link not found', content: 'The payment link could not be found.' },
    es: { title: 'Enlace de pago no encontrado', content: 'No se pudo encontrar el enlace de pago.' },
  },
  payment_link_description_missing: {
    en: { title: 'Missing Data', content: 'There is no description for the payment.' },
    es: { title: 'Faltan datos', content: 'No hay una descripción para el pago.' },
  },
  payment_link_amount_missing: {
    en: { title: 'Missing amount', content: 'There is no price for the payment.' },
    es: { title: 'Falta el monto', content: 'No hay un precio para el pago.' },
  },
  payment_link_customer_incomplete: {
    en: {
      title: 'Incomplete customer data',
      content: 'Each customer needs first_name, last_name and email, or a customer id.',
    },
    es: {
      title: 'Datos del cliente incompletos',
      content: 'Cada cliente necesita first_name, last_name y email, o un id de cliente.',
    },
  },
  payment_link_customer_absent: {
    en: {
      title: 'Invalid customer',
      content: 'Customer {customer} matches no customer of this account and mode.',
    },
    es: {
      title: 'Cliente inválido',
      content: 'El cliente {customer} no corresponde a ningún cliente de esta cuenta y modo.',
    },
  },
  payment_link_product_absent: {
    en: { title: 'Invalid product', content: 'product matches no product of this account and mode.' },
    es: {
      title: 'Producto inválido',
      content: 'product no corresponde a ningún producto de esta cuenta y modo.',
    },
  },
  payment_link_date_format: {
    en: { title: 'Invalid date', content: 'The date must be YYYY-MM-DD HH:MM:SS.' },
    es: { title: 'Fecha inválida', content: 'La fecha debe tener el formato YYYY-MM-DD HH:MM:SS.' },
  },
  payment_link_status_invalid: {
    en: {
      title: 'Invalid status',
      content: 'The specified state is invalid. Allowed: {allowed}.',
    },
    es: { title: 'Estado inválido', content: 'El estado indicado no es válido. Permitidos: {allowed}.' },
  },
  payment_link_paid: {
    en: { title: 'Payment link paid', content: 'A paid payment link cannot be modified.' },
    es: { title: 'Enlace de pago pagado', content: 'Un enlace de pago pagado no se puede modificar.' },
  },
  payment_link_busy: {
    en: {
      title: 'Payment in progress',
      content: 'A payment of this link is being processed. Try again in a minute.',
    },
    es: {
      title: 'Pago en curso',
      content: 'Se está procesando un pago de este enlace. Inténtelo de nuevo en un minuto.',
    },
  },
});
