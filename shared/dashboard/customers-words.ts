/**
 * What the dashboard's customers and subscriptions pages say, in English and Spanish (the shell's
 * own words are in words.ts). Both languages are one type, so a page cannot forget a word in one.
 */
import type { Lang } from '../core/messages.ts';
import type { SubscriptionStatus } from '../subscriptions/subscription.ts';

export interface CustomerWords {
  customersTitle: string;
  searchLabel: string;
  searchHelp: string;
  search: string;
  clearSearch: string;
  noCustomers: string;
  noMatch(search: string): string;
  found(count: number): string;
  nextPage: string;
  previousPage: string;
  pageOf(page: number, pages: number): string;
  customerColumns: { name: string; email: string; country: string; created: string };
  customerTitle(name: string): string;
  customerFields: {
    id: string;
    name: string;
    email: string;
    phone: string;
    country: string;
    created: string;
  };
  customerSubscriptions: string;
  customerCharges: string;
  noCustomerSubscriptions: string;
  noCustomerCharges: string;
  newer: string;
  older: string;
  portalHeading: string;
  portalIntro: string;
  makePortal: string;
  portalTitle: string;
  portalMade(name: string): string;
  portalUrl: string;
  portalExpires: string;
  portalCopy: string;
  openPortal: string;
  backToCustomer: string;
  formBusy: string;
  portalAlready(until: string): string;
  subscriptionsTitle: string;
  statusFilter: string;
  anyStatus: string;
  planFilter: string;
  planFilterHelp: string;
  filter: string;
  noSubscriptions: string;
  statuses: Record<SubscriptionStatus, string>;
  subscriptionColumns: {
    subscription: string;
    plan: string;
    customer: string;
    status: string;
    amount: string;
    nextBilling: string;
    created: string;
  };
  subscriptionTitle(id: string): string;
  subscriptionFields: {
    plan: string;
    quantity: string;
    amount: string;
    status: string;
    period: string;
    lastPeriod: string;
    nextBilling: string;
    trialEnd: string;
    card: string;
    customer: string;
    created: string;
    canceled: string;
  };
  noCard: string;
  noCustomer: string;
  cancelHeading: string;
  cancelIntro: string;
  cancelStart: string;
  confirmTitle(id: string): string;
  confirmText(plan: string, who: string): string;
  confirmCancel: string;
  keep: string;
  canceledNotice: string;
  notCancelable: string;
  overdue(amount: string, since: string, next: string | null): string;
  backToSubscriptions: string;
}

export const customerWords: Record<Lang, CustomerWords> = {
  en: {
    customersTitle: 'Customers',
    searchLabel: 'Search customers',
    searchHelp: 'Part of a first name or an e-mail address.',
    search: 'Search',
    clearSearch: 'All customers',
    noCustomers: 'No customers yet.',
    noMatch: (search) => `No customer matches “${search}”.`,
    found: (count) => (count === 1 ? '1 customer' : `${count} customers`),
    nextPage: 'Next page',
    previousPage: 'Previous page',
    pageOf: (page, pages) => `Page ${page} of ${pages}`,
    customerColumns: { name: 'Name', email: 'E-mail', country: 'Country', created: 'Created' },
    customerTitle: (name) => `Customer ${name}`,
    customerFields: {
      id: 'ID',
      name: 'Name',
      email: 'E-mail',
      phone: 'Phone',
      country: 'Country',
      created: 'Created',
    },
    customerSubscriptions: 'Subscriptions',
    customerCharges: 'Charges',
    noCustomerSubscriptions: 'No subscriptions.',
    noCustomerCharges: 'No charges.',
    newer: 'Newer',
    older: 'Older',
    portalHeading: 'Customer portal',
    portalIntro:
      'A link to this customer’s portal, where they see their subscriptions and payments, cancel a subscription and replace its card. It opens for one hour; send it to the customer only.',
    makePortal: 'Make a portal link',
    portalTitle: 'Portal link',
    portalMade: (name) => `A portal link for ${name} was made. Copy it now: it is not shown again.`,
    portalUrl: 'Portal link',
    portalExpires: 'Opens until',
    portalCopy: 'Select the field and copy the link.',
    openPortal: 'Open the portal',
    backToCustomer: 'Back to the customer',
    formBusy:
      'This form was already sent and is still being done. Reload the customer’s page to make a link.',
    portalAlready: (until) =>
      `This form already made a portal link (it opens until ${until}); a link is shown only once, on its answer. Make a new one from the customer’s page.`,
    subscriptionsTitle: 'Subscriptions',
    statusFilter: 'Status',
    anyStatus: 'Any status',
    planFilter: 'Plan key',
    planFilterHelp:
      'Only the subscriptions of this plan (its key). Under Plans, the count of each plan’s active subscriptions links here with its key filled in, listing its subscriptions of every status (choose a status to narrow it).',
    filter: 'Filter',
    noSubscriptions: 'No subscriptions.',
    statuses: {
      pending: 'Pending checkout',
      trialing: 'Trial',
      active: 'Active',
      past_due: 'Payment overdue',
      canceled: 'Canceled',
    },
    subscriptionColumns: {
      subscription: 'Subscription',
      plan: 'Plan',
      customer: 'Customer',
      status: 'Status',
      amount: 'Amount',
      nextBilling: 'Next billing',
      created: 'Created',
    },
    subscriptionTitle: (id) => `Subscription ${id}`,
    subscriptionFields: {
      plan: 'Plan',
      quantity: 'Quantity',
      amount: 'Amount',
      status: 'Status',
      period: 'Current period',
      lastPeriod: 'Last period',
      nextBilling: 'Next billing date',
      trialEnd: 'Trial ends',
      card: 'Card',
      customer: 'Customer',
      created: 'Created',
      canceled: 'Canceled',
    },
    noCard: 'Not known',
    noCustomer: 'None yet (checkout not completed)',
    cancelHeading: 'Cancel',
    cancelIntro:
      'Canceling ends the subscription: it is never charged again. The customer is told by e-mail.',
    cancelStart: 'Cancel this subscription…',
    confirmTitle: (id) => `Cancel subscription ${id}?`,
    confirmText: (plan, who) =>
      `The subscription of ${who} to ${plan} will be canceled now and never charged again. This cannot be undone.`,
    confirmCancel: 'Yes, cancel the subscription',
    keep: 'No, keep it',
    canceledNotice: 'The subscription was canceled. It will not be charged again.',
    notCancelable: 'This subscription is canceled.',
    overdue: (amount, since, next) =>
      `Renewal failed: ${amount} due since ${since}. ${
        next ? `The card is tried again on ${next}.` : 'No retry is left.'
      } The customer can replace the card from their portal (make a link on the customer's page); the amount due is then charged at once.`,
    backToSubscriptions: 'Back to the subscriptions',
  },
  es: {
    customersTitle: 'Clientes',
    searchLabel: 'Buscar clientes',
    searchHelp: 'Parte de un nombre o de una dirección de correo.',
    search: 'Buscar',
    clearSearch: 'Todos los clientes',
    noCustomers: 'Aún no hay clientes.',
    noMatch: (search) => `Ningún cliente coincide con «${search}».`,
    found: (count) => (count === 1 ? '1 cliente' : `${count} clientes`),
    nextPage: 'Página siguiente',
    previousPage: 'Página anterior',
    pageOf: (page, pages) => `Página ${page} de ${pages}`,
    customerColumns: { name: 'Nombre', email: 'Correo', country: 'País', created: 'Alta' },
    customerTitle: (name) => `Cliente ${name}`,
    customerFields: {
      id: 'ID',
      name: 'Nombre',
      email: 'Correo',
      phone: 'Teléfono',
      country: 'País',
      created: 'Alta',
    },
    customerSubscriptions: 'Suscripciones',
    customerCharges: 'Cargos',
    noCustomerSubscriptions: 'Sin suscripciones.',
    noCustomerCharges: 'Sin cargos.',
    newer: 'Más recientes',
    older: 'Anteriores',
    portalHeading: 'Portal del cliente',
    portalIntro:
      'Un enlace al portal de este cliente, donde ve sus suscripciones y pagos, cancela una suscripción y cambia su tarjeta. Abre durante una hora; envíalo solo al cliente.',
    makePortal: 'Crear un enlace al portal',
    portalTitle: 'Enlace al portal',
    portalMade: (name) => `Se creó un enlace al portal para ${name}. Cópialo ahora: no se vuelve a mostrar.`,
    portalUrl: 'Enlace al portal',
    portalExpires: 'Abre hasta',
    portalCopy: 'Selecciona el campo y copia el enlace.',
    openPortal: 'Abrir el portal',
    backToCustomer: 'Volver al cliente',
    formBusy:
      'Este formulario ya se envió y aún se está procesando. Recarga la página del cliente para crear un enlace.',
    portalAlready: (until) =>
      `Este formulario ya creó un enlace al portal (abre hasta ${until}); un enlace se muestra solo una vez, en su respuesta. Crea uno nuevo desde la página del cliente.`,
    subscriptionsTitle: 'Suscripciones',
    statusFilter: 'Estado',
    anyStatus: 'Cualquier estado',
    planFilter: 'Clave del plan',
    planFilterHelp:
      'Solo las suscripciones de este plan (su clave). En Planes, el número de suscripciones activas de cada plan enlaza aquí con su clave ya puesta y muestra sus suscripciones de todos los estados (elige un estado para acotarla).',
    filter: 'Filtrar',
    noSubscriptions: 'Sin suscripciones.',
    statuses: {
      pending: 'Pago pendiente',
      trialing: 'Prueba',
      active: 'Activa',
      past_due: 'Pago vencido',
      canceled: 'Cancelada',
    },
    subscriptionColumns: {
      subscription: 'Suscripción',
      plan: 'Plan',
      customer: 'Cliente',
      status: 'Estado',
      amount: 'Importe',
      nextBilling: 'Próximo cobro',
      created: 'Alta',
    },
    subscriptionTitle: (id) => `Suscripción ${id}`,
    subscriptionFields: {
      plan: 'Plan',
      quantity: 'Cantidad',
      amount: 'Importe',
      status: 'Estado',
      period: 'Periodo actual',
      lastPeriod: 'Último periodo',
      nextBilling: 'Próximo cobro',
      trialEnd: 'Fin de la prueba',
      card: 'Tarjeta',
      customer: 'Cliente',
      created: 'Alta',
      canceled: 'Cancelada',
    },
    noCard: 'No se conoce',
    noCustomer: 'Aún ninguno (pago no completado)',
    cancelHeading: 'Cancelar',
    cancelIntro: 'Cancelar termina la suscripción: no se vuelve a cobrar. Se avisa al cliente por correo.',
    cancelStart: 'Cancelar esta suscripción…',
    confirmTitle: (id) => `¿Cancelar la suscripción ${id}?`,
    confirmText: (plan, who) =>
      `La suscripción de ${who} a ${plan} se cancelará ahora y no se volverá a cobrar. No se puede deshacer.`,
    confirmCancel: 'Sí, cancelar la suscripción',
    keep: 'No, mantenerla',
    canceledNotice: 'La suscripción se canceló. No se volverá a cobrar.',
    notCancelable: 'Esta suscripción está cancelada.',
    overdue: (amount, since, next) =>
      `Falló la renovación: se deben ${amount} desde el ${since}. ${
        next ? `La tarjeta se intentará de nuevo el ${next}.` : 'No quedan reintentos.'
      } El cliente puede reemplazar la tarjeta desde su portal (cree un enlace en la página del cliente); el importe debido se cobra en ese momento.`,
    backToSubscriptions: 'Volver a las suscripciones',
  },
};
