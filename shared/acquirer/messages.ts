/** The messages of connections: what an account's mode not connected to an acquirer answers. */
import { defineMessages } from '../core/messages.ts';

export const acquirerMessages = /* @__PURE__ */ defineMessages({
  live_not_connected: {
    en: {
      title: 'Live mode not connected',
      content:
        'Live mode of this account is not connected to an acquirer, so no live payment can be taken: nothing was created. An operator connects it (npm run -s cli -- accounts connect); test mode works meanwhile.',
    },
    es: {
      title: 'Modo live no conectado',
      content:
        'El modo live de esta cuenta no está conectado a un adquirente, así que no se puede cobrar ningún pago live: no se creó nada. Un operador lo conecta (npm run -s cli -- accounts connect); el modo test funciona mientras tanto.',
    },
  },
  card_numbers_not_taken: {
    en: {
      title: 'Card numbers not taken',
      content:
        'This mode of the account is connected to Stripe, which takes cards on its own page: cobro accepts no card number. Create a payment (POST /v1/payments/) and send the cardholder to its checkout.',
    },
    es: {
      title: 'No se aceptan números de tarjeta',
      content:
        'Este modo de la cuenta está conectado a Stripe, que recibe las tarjetas en su propia página: cobro no acepta números de tarjeta. Cree un pago (POST /v1/payments/) y envíe al tarjetahabiente a su checkout.',
    },
  },
});
