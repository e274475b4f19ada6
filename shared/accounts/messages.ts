/** The messages of accounts: an e-mail already taken, an account or its keys that do not exist, a rotation that lost a race. */
import { defineMessages } from '../core/messages.ts';

export const accountMessages = /* @__PURE__ */ defineMessages({
  account_email_taken: {
    en: { title: 'Account exists', content: 'An account with this e-mail already exists.' },
    es: { title: 'La cuenta existe', content: 'Ya existe una cuenta con este correo.' },
  },
  account_not_found: {
    en: { title: 'No such account', content: 'There is no account with this id.' },
    es: { title: 'La cuenta no existe', content: 'No hay una cuenta con este id.' },
  },
  api_keys_missing: {
    type: 'warning',
    en: { title: 'No API keys', content: 'This account has no API keys.' },
    es: { title: 'Sin llaves de API', content: 'Esta cuenta no tiene llaves de API.' },
  },
  api_key_rotation_conflict: {
    en: { title: 'Rotation in progress', content: 'The key was rotated by another request; retry.' },
    es: { title: 'Rotación en curso', content: 'Otra solicitud rotó la llave; reintente.' },
  },
});
