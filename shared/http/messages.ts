/**
 * Human texts of every message envelope, in English and Spanish. Errors and answers name a message
 * by id; the language is chosen per request from Accept-Language.
 */
export type Lang = 'en' | 'es';

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
  body_too_large: {
    en: { title: 'Request too large', content: 'The request body is larger than 6 MB.' },
    es: { title: 'Solicitud demasiado grande', content: 'El cuerpo de la solicitud supera los 6 MB.' },
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
  api_key_rotation_conflict: {
    en: { title: 'Rotation in progress', content: 'The key was rotated by another request; retry.' },
    es: { title: 'Rotación en curso', content: 'Otra solicitud rotó la llave; reintente.' },
  },
  account_email_taken: {
    en: { title: 'Account exists', content: 'An account with this e-mail already exists.' },
    es: { title: 'La cuenta existe', content: 'Ya existe una cuenta con este correo.' },
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
    if ((primary === 'es' || primary === 'en') && q > best.q) best = { lang: primary, q };
  }
  return best.lang;
}
