/** The messages of webhook endpoints and of the events API (redelivery included). */
import { defineMessages } from '../core/messages.ts';

export const webhookMessages = /* @__PURE__ */ defineMessages({
  webhook_endpoint_created: {
    en: {
      title: 'Webhook endpoint created',
      content: 'The endpoint was created. Keep its secret: it is not shown again.',
    },
    es: {
      title: 'Endpoint de webhook creado',
      content: 'El endpoint fue creado. Guarde su secreto: no se vuelve a mostrar.',
    },
  },
  webhook_endpoint_updated: {
    en: { title: 'Webhook endpoint updated', content: 'The endpoint was updated.' },
    es: { title: 'Endpoint de webhook actualizado', content: 'El endpoint fue actualizado.' },
  },
  webhook_endpoint_deleted: {
    en: { title: 'Webhook endpoint deleted', content: 'The endpoint was deleted; it receives nothing more.' },
    es: {
      title: 'Endpoint de webhook eliminado',
      content: 'El endpoint fue eliminado; no recibirá nada más.',
    },
  },
  webhook_endpoint_not_found: {
    en: { title: 'Webhook endpoint not found', content: 'The id matches no webhook endpoint.' },
    es: {
      title: 'Endpoint de webhook no encontrado',
      content: 'El id no corresponde a ningún endpoint de webhook.',
    },
  },
  webhook_endpoint_limit: {
    en: {
      title: 'Too many webhook endpoints',
      content: 'An account has at most {max} webhook endpoints in each mode.',
    },
    es: {
      title: 'Demasiados endpoints de webhook',
      content: 'Una cuenta tiene como máximo {max} endpoints de webhook en cada modo.',
    },
  },
  webhook_url_unsafe: {
    en: { title: 'Webhook URL refused', content: '{reason}' },
    es: { title: 'URL de webhook rechazada', content: '{reason}' },
  },
  webhook_secret_rotated: {
    en: {
      title: 'Webhook secret rotated',
      content:
        'Deliveries carry signatures with the new and the old secret for 24 hours, then with the new one only.',
    },
    es: {
      title: 'Secreto de webhook rotado',
      content:
        'Los envíos llevan firmas con el secreto nuevo y el anterior durante 24 horas; después, solo con el nuevo.',
    },
  },
  event_not_found: {
    en: { title: 'Event not found', content: 'The id matches no event of the last 30 days.' },
    es: {
      title: 'Evento no encontrado',
      content: 'El id no corresponde a ningún evento de los últimos 30 días.',
    },
  },
  event_redelivery_queued: {
    en: {
      title: 'Event redelivery queued',
      content: 'The event is being sent again to {count} endpoint(s).',
    },
    es: {
      title: 'Reenvío de evento en cola',
      content: 'El evento se está enviando de nuevo a {count} endpoint(s).',
    },
  },
  redelivery_limit_event: {
    en: {
      title: 'Too many redeliveries',
      content:
        'An event may be sent again at most {limit} times an hour; this one may be sent again in {seconds} seconds.',
    },
    es: {
      title: 'Demasiados reenvíos',
      content:
        'Un evento se puede reenviar como máximo {limit} veces por hora; este se podrá reenviar dentro de {seconds} segundos.',
    },
  },
  redelivery_limit_account: {
    en: {
      title: 'Too many redeliveries',
      content:
        'An account may send events again at most {limit} times an hour in each mode; it may again in {seconds} seconds.',
    },
    es: {
      title: 'Demasiados reenvíos',
      content:
        'Una cuenta puede reenviar eventos como máximo {limit} veces por hora en cada modo; podrá hacerlo de nuevo dentro de {seconds} segundos.',
    },
  },
  redeliver_endpoint_absent: {
    en: {
      title: 'Webhook endpoint not found',
      content: 'endpoint_id matches no webhook endpoint of this account and mode.',
    },
    es: {
      title: 'Endpoint de webhook no encontrado',
      content: 'endpoint_id no corresponde a ningún endpoint de webhook de esta cuenta y modo.',
    },
  },
  redeliver_endpoint_disabled: {
    en: {
      title: 'Webhook endpoint disabled',
      content: 'The endpoint is disabled: enable it (PUT with "enabled": true) before sending to it.',
    },
    es: {
      title: 'Endpoint de webhook deshabilitado',
      content:
        'El endpoint está deshabilitado: habilítelo (PUT con "enabled": true) antes de enviarle eventos.',
    },
  },
});
