/** The messages of payments, and the rules of their return URL and list filters. */
import { defineMessages } from '../core/messages.ts';
import { defineRules } from '../core/rule.ts';

export const paymentMessages = /* @__PURE__ */ defineMessages({
  payment_created: {
    en: { title: 'Payment created', content: 'Send the cardholder to the redirect URL to pay.' },
    es: { title: 'Pago creado', content: 'Envíe al tarjetahabiente a la URL de redirección para pagar.' },
  },
  payment_not_found: {
    type: 'danger',
    en: { title: 'Payments not found', content: 'The payment does not exist.' },
    es: { title: 'Pagos no encontrados', content: 'El pago no existe.' },
  },
});

export const paymentRules = /* @__PURE__ */ defineRules({
  return_url: {
    en: '{field} must be an absolute http(s) URL of at most 2048 characters, without spaces, quotes or control characters.',
    es: '{field} debe ser una URL http(s) absoluta de como máximo 2048 caracteres, sin espacios, comillas ni caracteres de control.',
  },
  return_url_https: {
    en: '{field} must be an absolute https URL in live mode.',
    es: '{field} debe ser una URL https absoluta en modo live.',
  },
  return_url_host: {
    en: '{field} must name its host as a domain name or an IP address, without user name or password.',
    es: '{field} debe indicar su host como nombre de dominio o dirección IP, sin usuario ni contraseña.',
  },
  timestamp: { en: '{field} must be an ISO 8601 time.', es: '{field} debe ser una fecha ISO 8601.' },
});
