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
  /** A subscription set to end (decision D19): its day's label, in place of the next billing date. */
  endsOn: string;
  /** A change of plan or quantity the renewal applies: its label, and what it is. */
  pendingChange: string;
  changesTo(plan: string, quantity: number, date: string): string;
  /** The plan of a pending change was deleted since: said with its id (the change still applies). */
  pendingPlanDeleted(id: string): string;
  cancelHeading: string;
  /** The end at the period's (or trial's) end on `date`: what it does, and its button. */
  endEffect(date: string): string;
  endEffectTrial(date: string): string;
  endAtPeriodEnd: string;
  endAtTrialEnd: string;
  /** Set to end on `date`: what that means, and the button that undoes it. */
  endingText(date: string): string;
  resume: string;
  /** Set to end, and that moment has passed (the billing step has not ended it yet): no resume. */
  endCome: string;
  /** Cancel now, stated as such: it ends at once. */
  cancelIntro: string;
  cancelStart: string;
  confirmTitle(id: string): string;
  confirmText(plan: string, who: string): string;
  confirmCancel: string;
  keep: string;
  canceledNotice: string;
  endingNotice(date: string): string;
  resumedNotice: string;
  /** Why an end at the period's end, or a resume, was refused (409): past due, not started, canceled. */
  notEndable: string;
  notStarted: string;
  alreadyCanceled: string;
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
    endsOn: 'Ends on',
    pendingChange: 'Pending change',
    changesTo: (plan, quantity, date) => `Changes to ${plan} × ${quantity} on ${date}`,
    pendingPlanDeleted: (id) =>
      `Plan ${id} has been deleted since; the change still applies, as it was asked for.`,
    cancelHeading: 'Cancel',
    endEffect: (date) =>
      `At the end of the period: it stays active until ${date}, the end of the period already paid for, and then ends. Nothing more is charged, and it can be resumed until then. The customer is told by e-mail.`,
    endEffectTrial: (date) =>
      `At the end of the trial: the trial goes on until ${date} and then the subscription ends. Nothing is charged, and it can be resumed until then. The customer is told by e-mail.`,
    endAtPeriodEnd: 'Cancel at end of period',
    endAtTrialEnd: 'Cancel at end of trial',
    endingText: (date) =>
      `It ends on ${date}: it will not renew, and nothing more is charged. Resume it to keep it renewing as before.`,
    resume: 'Resume',
    endCome:
      'Its end has come: it can no longer be resumed. It is canceled shortly, and nothing more is charged.',
    cancelIntro:
      'Cancel now: it ends at once and is never charged again; nothing already paid is refunded. The customer is told by e-mail.',
    cancelStart: 'Cancel now…',
    confirmTitle: (id) => `Cancel subscription ${id}?`,
    confirmText: (plan, who) =>
      `The subscription of ${who} to ${plan} will be canceled now and never charged again. This cannot be undone.`,
    confirmCancel: 'Yes, cancel the subscription',
    keep: 'No, keep it',
    canceledNotice: 'The subscription was canceled. It will not be charged again.',
    endingNotice: (date) =>
      `The subscription ends on ${date}. It will not be charged again; the customer is told by e-mail.`,
    resumedNotice:
      'The subscription renews as before: it is no longer set to end. The customer is told by e-mail.',
    notEndable:
      'While a payment is overdue, this subscription cannot be set to end at the end of its period, nor resumed: its period is not paid. It can only be canceled now.',
    notStarted:
      'This subscription has not started yet: its first payment has not been made. Until then it can only be canceled.',
    alreadyCanceled: 'This subscription is canceled: it can no longer be set to end or resumed.',
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
    endsOn: 'Termina el',
    pendingChange: 'Cambio pendiente',
    changesTo: (plan, quantity, date) => `Cambia a ${plan} × ${quantity} el ${date}`,
    pendingPlanDeleted: (id) =>
      `El plan ${id} se eliminó después; el cambio se aplica igualmente, tal como se pidió.`,
    cancelHeading: 'Cancelar',
    endEffect: (date) =>
      `Al final del periodo: sigue activa hasta el ${date}, fin del periodo ya pagado, y entonces termina. No se cobra nada más y se puede reanudar hasta entonces. Se avisa al cliente por correo.`,
    endEffectTrial: (date) =>
      `Al final de la prueba: el periodo de prueba sigue hasta el ${date} y entonces la suscripción termina. No se cobra nada y se puede reanudar hasta entonces. Se avisa al cliente por correo.`,
    endAtPeriodEnd: 'Cancelar al final del periodo',
    endAtTrialEnd: 'Cancelar al final de la prueba',
    endingText: (date) =>
      `Termina el ${date}: no se renovará y no se cobra nada más. Reanúdala para que siga renovándose como antes.`,
    resume: 'Reanudar',
    endCome: 'Ya llegó su fin: ya no se puede reanudar. Se cancelará en breve y no se cobra nada más.',
    cancelIntro:
      'Cancelar ahora: termina de inmediato y no se vuelve a cobrar; no se reembolsa nada de lo ya pagado. Se avisa al cliente por correo.',
    cancelStart: 'Cancelar ahora…',
    confirmTitle: (id) => `¿Cancelar la suscripción ${id}?`,
    confirmText: (plan, who) =>
      `La suscripción de ${who} a ${plan} se cancelará ahora y no se volverá a cobrar. No se puede deshacer.`,
    confirmCancel: 'Sí, cancelar la suscripción',
    keep: 'No, mantenerla',
    canceledNotice: 'La suscripción se canceló. No se volverá a cobrar.',
    endingNotice: (date) =>
      `La suscripción termina el ${date}. No se volverá a cobrar; se avisa al cliente por correo.`,
    resumedNotice:
      'La suscripción se renueva como antes: ya no está previsto que termine. Se avisa al cliente por correo.',
    notEndable:
      'Mientras tenga un pago vencido, esta suscripción no se puede programar para terminar al final de su periodo ni reanudar: su periodo no está pagado. Solo se puede cancelar ahora.',
    notStarted:
      'Esta suscripción aún no ha empezado: falta su primer pago. Hasta entonces solo se puede cancelar.',
    alreadyCanceled: 'Esta suscripción está cancelada: ya no se puede programar su fin ni reanudar.',
    notCancelable: 'Esta suscripción está cancelada.',
    overdue: (amount, since, next) =>
      `Falló la renovación: se deben ${amount} desde el ${since}. ${
        next ? `La tarjeta se intentará de nuevo el ${next}.` : 'No quedan reintentos.'
      } El cliente puede reemplazar la tarjeta desde su portal (crea un enlace en la página del cliente); el importe debido se cobra en ese momento.`,
    backToSubscriptions: 'Volver a las suscripciones',
  },
};
