/** The messages of HTTP itself: a method a path does not take, a body that cannot be read, a reused Idempotency-Key. */
import { defineMessages } from '../core/messages.ts';

export const httpMessages = /* @__PURE__ */ defineMessages({
  method_not_allowed: {
    en: { title: 'Method not allowed', content: 'Method {method} is not allowed here. Allowed: {allow}.' },
    es: {
      title: 'Método no permitido',
      content: 'El método {method} no se permite aquí. Permitidos: {allow}.',
    },
  },
  malformed_json: {
    en: { title: 'Malformed JSON', content: 'The request body is not valid JSON.' },
    es: { title: 'JSON mal formado', content: 'El cuerpo de la solicitud no es JSON válido.' },
  },
  malformed_form: {
    en: { title: 'Malformed form', content: 'The request body is not valid multipart/form-data.' },
    es: {
      title: 'Formulario mal formado',
      content: 'El cuerpo de la solicitud no es multipart/form-data válido.',
    },
  },
  body_too_deep: {
    en: { title: 'Body nested too deeply', content: 'The request body nests more than {limit} levels deep.' },
    es: {
      title: 'Cuerpo anidado en exceso',
      content: 'El cuerpo de la solicitud anida más de {limit} niveles.',
    },
  },
  busy: {
    en: {
      title: 'Service busy',
      content:
        'Too many requests reach the service right now. Send the request again after Retry-After seconds.',
    },
    es: {
      title: 'Servicio ocupado',
      content:
        'El servicio recibe demasiadas solicitudes en este momento. Envíe la solicitud de nuevo después de los segundos de Retry-After.',
    },
  },
  body_too_large: {
    en: { title: 'Request too large', content: 'The request body is larger than {limit}.' },
    es: { title: 'Solicitud demasiado grande', content: 'El cuerpo de la solicitud supera {limit}.' },
  },
  idempotency_key_reused: {
    en: {
      title: 'Idempotency key reused',
      content: 'This Idempotency-Key was used with a different request in the last 24 hours.',
    },
    es: {
      title: 'Llave de idempotencia reutilizada',
      content: 'Esta Idempotency-Key se usó con otra solicitud en las últimas 24 horas.',
    },
  },
});
