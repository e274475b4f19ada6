/**
 * What the dashboard's webhooks, events and API keys pages say, in English and Spanish; the type
 * refuses a page that forgets a word in either language.
 */
import type { Lang } from '../core/messages.ts';

export interface WebhookWords {
  endpointsTitle: string;
  noEndpoints: string;
  columns: {
    url: string;
    events: string;
    status: string;
    created: string;
    date: string;
    type: string;
    event: string;
    attempt: string;
    answer: string;
    error: string;
    duration: string;
    nextRetry: string;
    action: string;
    key: string;
    mode: string;
  };
  allEvents: string;
  enabled: string;
  disabled: string;
  previousPage: string;
  nextPage: string;
  pageOf(page: number, last: number, count: number): string;
  addEndpoint: string;
  url: string;
  urlHelp: string;
  description: string;
  eventsLegend: string;
  eventsHelp: string;
  create: string;
  endpointLimit(max: number): string;
  createdTitle: string;
  rotatedTitle: string;
  secret: string;
  secretOnce: string;
  alreadyCreated: string;
  toEndpoint: string;
  toEndpoints: string;
  endpointTitle(url: string): string;
  endpointFields: {
    id: string;
    url: string;
    events: string;
    description: string;
    status: string;
    created: string;
  };
  rotateSecret: string;
  deleteEndpoint: string;
  deliveries: string;
  noDeliveries: string;
  noAnswer: string;
  redeliver: string;
  redeliverLimits(perEvent: number, perAccount: number): string;
  redelivered(event: string, count: number): string;
  redeliveredAlready: string;
  rotateConfirmTitle: string;
  rotateConfirm(url: string, hours: number): string;
  rotateConfirmButton: string;
  deleteConfirmTitle: string;
  deleteConfirm(url: string): string;
  deleteConfirmButton: string;
  deleted(id: string): string;
  cancel: string;
  endpointNotFound: string;
  eventsTitle: string;
  noEvents: string;
  typeFilter: string;
  anyType: string;
  filter: string;
  retention(days: number): string;
  eventTitle(id: string): string;
  eventNotFound: string;
  toEvents: string;
  keysTitle: string;
  keysIntro: string;
  keyModes: Record<'test' | 'live', string>;
  rotateKey: string;
  rotateKeyTestOnly: string;
  keyConfirmTitle(mode: string): string;
  keyConfirm(mode: string): string;
  keyConfirmOwn: string;
  keyConfirmButton: string;
  keyRotatedTitle: string;
  newKey(mode: string): string;
  keyOnce: string;
  toKeys: string;
}

export const webhookWords: Record<Lang, WebhookWords> = {
  en: {
    endpointsTitle: 'Webhook endpoints',
    noEndpoints: 'No webhook endpoints yet.',
    columns: {
      url: 'URL',
      events: 'Events',
      status: 'Status',
      created: 'Created',
      date: 'Date',
      type: 'Type',
      event: 'Event',
      attempt: 'Attempt',
      answer: 'Answer code',
      error: 'Answer or error',
      duration: 'Time',
      nextRetry: 'Next retry',
      action: 'Action',
      key: 'Key',
      mode: 'Mode',
    },
    allEvents: 'All events',
    enabled: 'Enabled',
    disabled: 'Disabled',
    previousPage: 'Previous page',
    nextPage: 'Next page',
    pageOf: (page, last, count) => `Page ${page} of ${last} (${count} in all)`,
    addEndpoint: 'Add an endpoint',
    url: 'URL',
    urlHelp: 'Where events are sent, signed. In live mode: https and a public address.',
    description: 'Description (optional)',
    eventsLegend: 'Events to send',
    eventsHelp: 'None chosen: every event.',
    create: 'Add endpoint',
    endpointLimit: (max) => `At most ${max} endpoints per account and mode.`,
    createdTitle: 'Endpoint added',
    rotatedTitle: 'Signing secret rotated',
    secret: 'Signing secret',
    secretOnce:
      'Copy this secret now and configure your receiver with it: it is shown only this once, and cobro cannot show it again.',
    alreadyCreated:
      'This form was already submitted: the endpoint exists. Its secret was shown once, on the first answer.',
    toEndpoint: 'Go to the endpoint',
    toEndpoints: 'Back to the webhook endpoints',
    endpointTitle: (url) => `Endpoint ${url}`,
    endpointFields: {
      id: 'ID',
      url: 'URL',
      events: 'Events',
      description: 'Description',
      status: 'Status',
      created: 'Created',
    },
    rotateSecret: 'Rotate the signing secret',
    deleteEndpoint: 'Delete the endpoint',
    deliveries: 'Deliveries',
    noDeliveries: 'No deliveries yet.',
    noAnswer: 'no answer',
    redeliver: 'Redeliver',
    redeliverLimits: (perEvent, perAccount) =>
      `Redelivery sends the event to this endpoint again, with its original id. Each event may be redelivered ${perEvent} times an hour, and the account's events ${perAccount} times an hour.`,
    redelivered: (event, count) => `Event ${event} queued for redelivery (${count}).`,
    redeliveredAlready: 'This redelivery was already submitted; it was queued once.',
    rotateConfirmTitle: 'Rotate the signing secret?',
    rotateConfirm: (url, hours) =>
      `A new secret will sign the deliveries to ${url}. The current secret keeps signing beside it for ${hours} hours, so you can update your receiver meanwhile.`,
    rotateConfirmButton: 'Rotate the secret',
    deleteConfirmTitle: 'Delete this endpoint?',
    deleteConfirm: (url) => `${url} will receive no more events. This cannot be undone.`,
    deleteConfirmButton: 'Delete the endpoint',
    deleted: (id) => `Endpoint ${id} deleted.`,
    cancel: 'Cancel',
    endpointNotFound: 'There is no such webhook endpoint in this account and mode.',
    eventsTitle: 'Events',
    noEvents: 'No events in the last 30 days.',
    typeFilter: 'Type',
    anyType: 'Any type',
    filter: 'Show',
    retention: (days) => `Events are kept ${days} days.`,
    eventTitle: (id) => `Event ${id}`,
    eventNotFound: 'There is no such event of the last 30 days in this account and mode.',
    toEvents: 'Back to the events',
    keysTitle: 'API keys',
    keysIntro:
      'Keys are stored only as hashes: they are shown masked. Rotating a key replaces it with a new one, shown once; the old key stops working within 60 seconds.',
    keyModes: { test: 'Test key', live: 'Live key' },
    rotateKey: 'Rotate',
    rotateKeyTestOnly: 'Signed in with the test key: only the test key may be rotated.',
    keyConfirmTitle: (mode) => `Rotate the ${mode.toLowerCase()}?`,
    keyConfirm: (mode) =>
      `The ${mode.toLowerCase()} will be replaced by a new one, shown once on the next page. Every program using the current key must be given the new one: the current key stops working within 60 seconds.`,
    keyConfirmOwn:
      'This is the key of the mode you are working in; your dashboard session goes on, it does not depend on keys.',
    keyConfirmButton: 'Rotate the key',
    keyRotatedTitle: 'Key rotated',
    newKey: (mode) => `New ${mode}`,
    keyOnce: 'Copy this key now: it is shown only this once, and cobro cannot show it again.',
    toKeys: 'Back to the API keys',
  },
  es: {
    endpointsTitle: 'Endpoints de webhooks',
    noEndpoints: 'Aún no hay endpoints de webhooks.',
    columns: {
      url: 'URL',
      events: 'Eventos',
      status: 'Estado',
      created: 'Creado',
      date: 'Fecha',
      type: 'Tipo',
      event: 'Evento',
      attempt: 'Intento',
      answer: 'Código de respuesta',
      error: 'Respuesta o error',
      duration: 'Tiempo',
      nextRetry: 'Próximo reintento',
      action: 'Acción',
      key: 'Clave',
      mode: 'Modo',
    },
    allEvents: 'Todos los eventos',
    enabled: 'Activo',
    disabled: 'Desactivado',
    previousPage: 'Página anterior',
    nextPage: 'Página siguiente',
    pageOf: (page, last, count) => `Página ${page} de ${last} (${count} en total)`,
    addEndpoint: 'Agregar un endpoint',
    url: 'URL',
    urlHelp: 'Adónde se envían los eventos, firmados. En modo real: https y una dirección pública.',
    description: 'Descripción (opcional)',
    eventsLegend: 'Eventos que se envían',
    eventsHelp: 'Sin elegir ninguno: todos los eventos.',
    create: 'Agregar endpoint',
    endpointLimit: (max) => `Como máximo ${max} endpoints por cuenta y modo.`,
    createdTitle: 'Endpoint agregado',
    rotatedTitle: 'Secreto de firma rotado',
    secret: 'Secreto de firma',
    secretOnce:
      'Copia este secreto ahora y configura tu receptor con él: se muestra solo esta vez y cobro no puede volver a mostrarlo.',
    alreadyCreated:
      'Este formulario ya se envió: el endpoint existe. Su secreto se mostró una vez, en la primera respuesta.',
    toEndpoint: 'Ir al endpoint',
    toEndpoints: 'Volver a los endpoints de webhooks',
    endpointTitle: (url) => `Endpoint ${url}`,
    endpointFields: {
      id: 'ID',
      url: 'URL',
      events: 'Eventos',
      description: 'Descripción',
      status: 'Estado',
      created: 'Creado',
    },
    rotateSecret: 'Rotar el secreto de firma',
    deleteEndpoint: 'Eliminar el endpoint',
    deliveries: 'Entregas',
    noDeliveries: 'Aún no hay entregas.',
    noAnswer: 'sin respuesta',
    redeliver: 'Reenviar',
    redeliverLimits: (perEvent, perAccount) =>
      `Reenviar manda el evento a este endpoint otra vez, con su id original. Cada evento puede reenviarse ${perEvent} veces por hora, y los eventos de la cuenta ${perAccount} veces por hora.`,
    redelivered: (event, count) => `Evento ${event} en cola para reenviarse (${count}).`,
    redeliveredAlready: 'Este reenvío ya se había enviado; se puso en cola una sola vez.',
    rotateConfirmTitle: '¿Rotar el secreto de firma?',
    rotateConfirm: (url, hours) =>
      `Un secreto nuevo firmará las entregas a ${url}. El secreto actual sigue firmando junto a él durante ${hours} horas, para que actualices tu receptor mientras tanto.`,
    rotateConfirmButton: 'Rotar el secreto',
    deleteConfirmTitle: '¿Eliminar este endpoint?',
    deleteConfirm: (url) => `${url} no recibirá más eventos. No se puede deshacer.`,
    deleteConfirmButton: 'Eliminar el endpoint',
    deleted: (id) => `Endpoint ${id} eliminado.`,
    cancel: 'Cancelar',
    endpointNotFound: 'No existe ese endpoint de webhooks en esta cuenta y modo.',
    eventsTitle: 'Eventos',
    noEvents: 'No hay eventos de los últimos 30 días.',
    typeFilter: 'Tipo',
    anyType: 'Cualquier tipo',
    filter: 'Mostrar',
    retention: (days) => `Los eventos se guardan ${days} días.`,
    eventTitle: (id) => `Evento ${id}`,
    eventNotFound: 'No existe ese evento de los últimos 30 días en esta cuenta y modo.',
    toEvents: 'Volver a los eventos',
    keysTitle: 'Claves de API',
    keysIntro:
      'Las claves se guardan solo como hashes: se muestran enmascaradas. Rotar una clave la reemplaza por una nueva, que se muestra una vez; la anterior deja de funcionar en 60 segundos.',
    keyModes: { test: 'Clave de prueba', live: 'Clave real' },
    rotateKey: 'Rotar',
    rotateKeyTestOnly: 'Iniciaste sesión con la clave de prueba: solo puede rotarse la clave de prueba.',
    keyConfirmTitle: (mode) => `¿Rotar la ${mode.toLowerCase()}?`,
    keyConfirm: (mode) =>
      `La ${mode.toLowerCase()} se reemplazará por una nueva, que se muestra una vez en la página siguiente. Todo programa que use la clave actual debe recibir la nueva: la actual deja de funcionar en 60 segundos.`,
    keyConfirmOwn:
      'Es la clave del modo en el que trabajas; tu sesión del panel sigue, no depende de las claves.',
    keyConfirmButton: 'Rotar la clave',
    keyRotatedTitle: 'Clave rotada',
    newKey: (mode) => `Nueva ${mode.toLowerCase()}`,
    keyOnce: 'Copia esta clave ahora: se muestra solo esta vez y cobro no puede volver a mostrarla.',
    toKeys: 'Volver a las claves de API',
  },
};
