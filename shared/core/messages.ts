/**
 * Human texts of every message envelope, in English and Spanish. Errors and answers name a message
 * by id; the language is chosen per request from Accept-Language.
 */
/** The languages cobro answers in, and writes e-mails and accounts' profiles in. */
export const langs = ['en', 'es'] as const;
export type Lang = (typeof langs)[number];

/** Whether `value` names one of cobro's languages. */
export const isLang = (value: unknown): value is Lang => langs.includes(value as Lang);

interface Text {
  title: string;
  content: string;
}

const catalog = {
  not_found: {
    en: { title: 'Not found', content: 'The requested resource does not exist.' },
    es: { title: 'No encontrado', content: 'El recurso solicitado no existe.' },
  },
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
  body_too_large: {
    en: { title: 'Request too large', content: 'The request body is larger than {limit}.' },
    es: { title: 'Solicitud demasiado grande', content: 'El cuerpo de la solicitud supera {limit}.' },
  },
  internal_error: {
    en: { title: 'Internal server error', content: 'An unexpected error occurred.' },
    es: { title: 'Error interno del servidor', content: 'Ocurrió un error inesperado.' },
  },
  validation: {
    en: { title: 'Invalid data', content: '{detail}' },
    es: { title: 'Datos inválidos', content: '{detail}' },
  },
  invalid_test_param: {
    en: { title: 'Invalid parameter', content: 'The test parameter must be true or false.' },
    es: { title: 'Parámetro inválido', content: 'El parámetro test debe ser true o false.' },
  },
  mode_conflict: {
    en: {
      title: 'Mode mismatch',
      content: 'The test parameter contradicts the mode of the API key ({mode}).',
    },
    es: {
      title: 'Modo incompatible',
      content: 'El parámetro test contradice el modo de la llave de API ({mode}).',
    },
  },
  api_key_type_invalid: {
    en: { title: 'Invalid key type', content: 'The field type must be "test" or "live".' },
    es: { title: 'Tipo de llave inválido', content: 'El campo type debe ser "test" o "live".' },
  },
  api_keys_missing: {
    en: { title: 'No API keys', content: 'This account has no API keys.' },
    es: { title: 'Sin llaves de API', content: 'Esta cuenta no tiene llaves de API.' },
  },
  api_key_rotated: {
    en: {
      title: 'Key rotated',
      content: 'The {type} key was rotated. The previous key stops working within 60 seconds.',
    },
    es: {
      title: 'Llave rotada',
      content: 'La llave {type} fue rotada. La llave anterior deja de funcionar en 60 segundos.',
    },
  },
  api_key_rotation_forbidden: {
    en: {
      title: 'Not allowed',
      content:
        'A test key may rotate only the test key. Use the live key or a bearer token to rotate the live key.',
    },
    es: {
      title: 'No permitido',
      content:
        'Una llave de prueba solo puede rotar la llave de prueba. Use la llave live o un token bearer para rotar la llave live.',
    },
  },
  api_key_rotation_conflict: {
    en: { title: 'Rotation in progress', content: 'The key was rotated by another request; retry.' },
    es: { title: 'Rotación en curso', content: 'Otra solicitud rotó la llave; reintente.' },
  },
  concurrent_update: {
    en: {
      title: 'Conflicting changes',
      content: 'Other requests changed this record at the same time; send the request again.',
    },
    es: {
      title: 'Cambios en conflicto',
      content: 'Otras solicitudes cambiaron este registro al mismo tiempo; envíe la solicitud de nuevo.',
    },
  },
  account_email_taken: {
    en: { title: 'Account exists', content: 'An account with this e-mail already exists.' },
    es: { title: 'La cuenta existe', content: 'Ya existe una cuenta con este correo.' },
  },
  account_not_found: {
    en: { title: 'No such account', content: 'There is no account with this id.' },
    es: { title: 'La cuenta no existe', content: 'No hay una cuenta con este id.' },
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
  idempotency_in_progress: {
    en: {
      title: 'Request in progress',
      content: 'A request with this Idempotency-Key is still running; retry when it has finished.',
    },
    es: {
      title: 'Solicitud en curso',
      content: 'Una solicitud con esta Idempotency-Key aún se está procesando; reintente cuando termine.',
    },
  },
  page_not_found: {
    en: { title: 'Invalid page', content: 'Page {page} does not exist; the last page is {last}.' },
    es: { title: 'Página inválida', content: 'La página {page} no existe; la última página es la {last}.' },
  },
  price_precision: {
    en: {
      title: 'Price validation error',
      content: '{field}: {currency} amounts take at most {precision} decimals.',
    },
    es: {
      title: 'Error de validación del precio',
      content: '{field}: los montos en {currency} admiten como máximo {precision} decimales.',
    },
  },
  mode_mismatch: {
    en: {
      title: 'Mode cannot change',
      content: '{field} does not match the mode of this request ({mode}); records never change mode.',
    },
    es: {
      title: 'El modo no puede cambiar',
      content:
        '{field} no coincide con el modo de esta solicitud ({mode}); los registros nunca cambian de modo.',
    },
  },
  amount_below_minimum: {
    en: {
      title: 'Amount too small',
      content: 'The amount is below the minimum of 1.00 USD ({minimum} {currency}).',
    },
    es: {
      title: 'Monto muy pequeño',
      content: 'El monto es menor que el mínimo de 1.00 USD ({minimum} {currency}).',
    },
  },
  payment_created: {
    en: { title: 'Payment created', content: 'Send the cardholder to the redirect URL to pay.' },
    es: { title: 'Pago creado', content: 'Envíe al tarjetahabiente a la URL de redirección para pagar.' },
  },
  payment_not_found: {
    en: { title: 'Payments not found', content: 'The payment does not exist.' },
    es: { title: 'Pagos no encontrados', content: 'El pago no existe.' },
  },
  refund_charge_absent: {
    en: { title: 'Charge not found', content: 'The charge object does not exist.' },
    es: { title: 'Cargo no encontrado', content: 'El objeto de cargo no existe.' },
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
  acquirer_unconfirmed_charge: {
    en: {
      title: 'Charge not confirmed',
      content:
        'The payment processor did not answer in time, so the charge could not be confirmed. It is being confirmed now: send the same request with the same Idempotency-Key to get its outcome; a new key could charge the card twice.',
    },
    es: {
      title: 'Cargo sin confirmar',
      content:
        'El procesador de pagos no respondió a tiempo, así que no se pudo confirmar el cargo. Se está confirmando: envíe la misma solicitud con la misma Idempotency-Key para conocer el resultado; una clave nueva podría cobrar dos veces a la tarjeta.',
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
  plan_created: {
    en: { title: 'Plan created', content: 'The plan was created.' },
    es: { title: 'Plan creado', content: 'El plan fue creado.' },
  },
  plan_updated: {
    en: { title: 'Plan updated', content: 'The plan was updated.' },
    es: { title: 'Plan actualizado', content: 'El plan fue actualizado.' },
  },
  plan_unchanged: {
    en: { title: 'No changes', content: 'The request changes nothing in the plan.' },
    es: { title: 'Sin cambios', content: 'La solicitud no cambia nada del plan.' },
  },
  plan_deleted: {
    en: {
      title: 'Plan deleted',
      content: 'The plan was deleted; its active subscriptions are being canceled.',
    },
    es: {
      title: 'Plan eliminado',
      content: 'El plan fue eliminado; sus suscripciones activas se están cancelando.',
    },
  },
  plan_not_found: {
    en: { title: 'Plan not found', content: 'The plan does not exist.' },
    es: { title: 'Plan no encontrado', content: 'El plan no existe.' },
  },
  plan_immutable: {
    en: {
      title: 'Field cannot change',
      content: '{fields} cannot change after a plan is created; create a new plan instead.',
    },
    es: {
      title: 'Campo no modificable',
      content: '{fields} no se puede cambiar después de crear un plan; cree un plan nuevo.',
    },
  },
  plan_price_range: {
    en: { title: 'Invalid price range', content: 'The minimum price is greater than the maximum price.' },
    es: { title: 'Rango de precios inválido', content: 'El precio mínimo es mayor que el precio máximo.' },
  },
  plan_subscriber_range: {
    en: {
      title: 'Invalid subscriber range',
      content: 'The minimum number of subscribers is greater than the maximum.',
    },
    es: {
      title: 'Rango de suscriptores inválido',
      content: 'El mínimo de suscriptores es mayor que el máximo.',
    },
  },
  plan_filters_no_match: {
    en: { title: 'No plans found', content: 'The queried plan does not exist.' },
    es: { title: 'No se encontraron planes', content: 'El plan consultado no existe.' },
  },
  // Customers
  customer_created: {
    en: { title: 'Customer created', content: 'The customer was created.' },
    es: { title: 'Cliente creado', content: 'El cliente fue creado.' },
  },
  customer_updated: {
    en: { title: 'Customer updated', content: 'The customer was updated.' },
    es: { title: 'Cliente actualizado', content: 'El cliente fue actualizado.' },
  },
  customer_deleted: {
    en: { title: 'Customer deleted', content: 'The customer was deleted.' },
    es: { title: 'Cliente eliminado', content: 'El cliente fue eliminado.' },
  },
  customer_photo_updated: {
    en: { title: 'Photo updated', content: 'The customer photo was updated.' },
    es: { title: 'Foto actualizada', content: 'La foto del cliente fue actualizada.' },
  },
  customer_not_found: {
    en: { title: 'Customer not found', content: 'The customer could not be found.' },
    es: { title: 'Cliente no encontrado', content: 'No se pudo encontrar el cliente.' },
  },
  customer_email_taken: {
    en: {
      title: 'E-mail in use',
      content: 'Another customer of this account already has the e-mail {email}.',
    },
    es: { title: 'Correo en uso', content: 'Otro cliente de esta cuenta ya tiene el correo {email}.' },
  },
  customer_search_empty: {
    en: { title: 'Empty search', content: 'The search query cannot be empty.' },
    es: { title: 'Búsqueda vacía', content: 'La búsqueda no puede estar vacía.' },
  },
  customer_search_no_match: {
    en: { title: 'No customers found', content: 'No customer matches the search query.' },
    es: { title: 'No se encontraron clientes', content: 'Ningún cliente coincide con la búsqueda.' },
  },
  customer_address_limit: {
    en: { title: 'Address limit reached', content: 'The customer already has 3 addresses.' },
    es: { title: 'Límite de direcciones', content: 'El cliente ya tiene 3 direcciones.' },
  },
  address_added: {
    en: { title: 'Address added', content: 'The address was added to the customer.' },
    es: { title: 'Dirección agregada', content: 'La dirección fue agregada al cliente.' },
  },
  address_deleted: {
    en: { title: 'Address deleted', content: 'The address was deleted.' },
    es: { title: 'Dirección eliminada', content: 'La dirección fue eliminada.' },
  },
  address_not_found: {
    en: { title: 'Address not found', content: 'The customer has no address with this id.' },
    es: { title: 'Dirección no encontrada', content: 'El cliente no tiene una dirección con este id.' },
  },
  // Taxes and products
  tax_created: {
    en: { title: 'Tax created', content: 'The tax was created.' },
    es: { title: 'Impuesto creado', content: 'El impuesto fue creado.' },
  },
  product_created: {
    en: { title: 'Product created', content: 'The product was created.' },
    es: { title: 'Producto creado', content: 'El producto fue creado.' },
  },
  product_updated: {
    en: { title: 'Product updated', content: 'The product was updated.' },
    es: { title: 'Producto actualizado', content: 'El producto fue actualizado.' },
  },
  product_deleted: {
    en: {
      title: 'Product deleted',
      content: 'The product was removed and deactivated; payment links that name it keep working.',
    },
    es: {
      title: 'Producto eliminado',
      content:
        'El producto fue eliminado y desactivado; los enlaces de pago que lo nombran siguen funcionando.',
    },
  },
  product_not_found: {
    en: { title: 'Product not found', content: 'The id does not correspond to any product.' },
    es: { title: 'Producto no encontrado', content: 'El id no corresponde a ningún producto.' },
  },
  recurrence_not_object: {
    en: { title: 'Invalid recurrence', content: 'recurrence must be a JSON object.' },
    es: { title: 'Recurrencia inválida', content: 'recurrence debe ser un objeto JSON.' },
  },
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
  subscription_created: {
    en: {
      title: 'Subscription created',
      content: 'Send the customer to checkout_url to start the subscription.',
    },
    es: {
      title: 'Suscripción creada',
      content: 'Envíe al cliente a checkout_url para iniciar la suscripción.',
    },
  },
  subscription_canceled: {
    en: {
      title: 'Subscription canceled',
      content: 'The subscription was canceled; it will not be charged again.',
    },
    es: { title: 'Suscripción cancelada', content: 'La suscripción fue cancelada; no se volverá a cobrar.' },
  },
  subscription_not_found: {
    en: { title: 'Subscription not found', content: 'The id matches no subscription.' },
    es: { title: 'Suscripción no encontrada', content: 'El id no corresponde a ninguna suscripción.' },
  },
  subscription_already_canceled: {
    en: { title: 'Subscription already canceled', content: 'The subscription was canceled before.' },
    es: { title: 'Suscripción ya cancelada', content: 'La suscripción ya había sido cancelada.' },
  },
  subscription_plan_absent: {
    en: { title: 'Invalid plan', content: 'plan_id matches no active plan of this account and mode.' },
    es: {
      title: 'Plan inválido',
      content: 'plan_id no corresponde a ningún plan activo de esta cuenta y modo.',
    },
  },
  subscription_customer_absent: {
    en: { title: 'Invalid customer', content: 'customer_id matches no customer of this account and mode.' },
    es: {
      title: 'Cliente inválido',
      content: 'customer_id no corresponde a ningún cliente de esta cuenta y modo.',
    },
  },
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
} satisfies Record<string, Record<Lang, Text>>;

export type MessageId = keyof typeof catalog;

/** The title and content of a message, with `{name}` placeholders filled. */
export function text(id: MessageId, lang: Lang, params: Record<string, string> = {}): Text {
  const entry: Text = catalog[id][lang];
  const fill = (value: string) => value.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
  return { title: fill(entry.title), content: fill(entry.content) };
}

/** The best supported language of an Accept-Language header (RFC 9110 q-values); English by default. */
export function negotiateLang(header: string | undefined): Lang {
  if (!header) return 'en';
  let best: { lang: Lang; q: number } = { lang: 'en', q: 0 };
  for (const part of header.split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    const primary = tag.split('-')[0];
    if (isLang(primary) && q > best.q) best = { lang: primary, q };
  }
  return best.lang;
}
