/** The messages of the table: a record other requests kept changing. */
import { defineMessages } from '../core/messages.ts';

export const dbMessages = /* @__PURE__ */ defineMessages({
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
});
