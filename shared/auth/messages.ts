/** The messages of API keys: rotating one, and what may not be rotated. */
import { defineMessages } from '../core/messages.ts';

export const authMessages = /* @__PURE__ */ defineMessages({
  api_key_type_invalid: {
    wrapped: true,
    en: { title: 'Invalid key type', content: 'The field type must be "test" or "live".' },
    es: { title: 'Tipo de llave inválido', content: 'El campo type debe ser "test" o "live".' },
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
});
