/**
 * What the dashboard's pages say, in English and Spanish. A page takes the words of the reader's
 * language (the switch's cookie, else the browser's Accept-Language); a new page adds its words
 * here, in both languages, so the type refuses a page that forgets one.
 */
import { displayDateTime } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import type { PaymentStatus } from '../payments/schemas.ts';
import type { Role } from '../team/roles.ts';

export interface DashboardWords {
  product: string;
  sections: {
    overview: string;
    charges: string;
    customers: string;
    subscriptions: string;
    plans: string;
    products: string;
    links: string;
    webhooks: string;
    events: string;
    keys: string;
    users: string;
    audit: string;
    connectors: string;
    profile: string;
  };
  navLabel: string;
  /** The roles, as the bar and the users page name them. */
  roles: Record<Role, string>;
  /** A page or form the signed-in user's role may not use. */
  roleRefused: string;
  /** The bar's mode switch. */
  switchToLive: string;
  switchToTest: string;
  /** Why the live switch is not offered: live mode needs a second factor. */
  liveNeedsTwoFactor: string;
  /** The link to one's own profile from the bar: the user's e-mail and role. */
  signedInAs(email: string, role: string): string;
  notYet: string;
  modeLabel: string;
  testMode: string;
  liveMode: string;
  testNote: string;
  /** Live mode connected to the simulated acquirer (the local stack). */
  simulatedLiveNote: string;
  /** Live mode connected to nothing: why live payments are refused, and how an operator connects it. */
  notConnectedNote(developerId: number): string;
  /** The mode connected to a Stripe account: which one. */
  stripeNote(account: string): string;
  otherLanguage: string;
  signOut: string;
  formExpired: string;
  newestCharges: string;
  allCharges: string;
  chargesTitle: string;
  noCharges: string;
  /** The charges list filtered by its created_before and nothing left: `when` is a day, or a moment. */
  noChargesBefore(when: string): string;
  olderCharges: string;
  newestFirst: string;
  findLabel: string;
  findHelp: string;
  find: string;
  nothingFound(text: string): string;
  /** A payment found with no charge: its status, in words (a payment keeps no decline reason). */
  paymentNotPaid(id: string, status: string): string;
  paymentStatuses: Record<PaymentStatus, string>;
  createdBefore: string;
  perPage: string;
  filter: string;
  columns: {
    date: string;
    id: string;
    description: string;
    amount: string;
    refunded: string;
    card: string;
    customer: string;
    reason: string;
  };
  chargeTitle(id: string): string;
  chargeFields: {
    status: string;
    amount: string;
    fee: string;
    net: string;
    refunded: string;
    refundable: string;
    card: string;
    description: string;
    customer: string;
    created: string;
    paidOut: string;
    payment: string;
    subscription: string;
  };
  succeeded: string;
  refunds: string;
  noRefunds: string;
  refundTitle: string;
  refundAmount(whole: string): string;
  refundReason: string;
  reasons: Record<string, string>;
  refund: string;
  refunded(amount: string): string;
  notRefundable: string;
  paidOutNote: string;
  notFoundTitle: string;
  notFound: string;
  backToCharges: string;
  errorTitle: string;
  date(iso: string): string;
}

/** A moment as every page of cobro writes it: to the minute, in UTC, saying so. */
const dateIn = (lang: Lang) => (iso: string) => displayDateTime(iso, lang);

export const dashboardWords: Record<Lang, DashboardWords> = {
  en: {
    product: 'cobro dashboard',
    sections: {
      overview: 'Overview',
      charges: 'Payments and charges',
      customers: 'Customers',
      subscriptions: 'Subscriptions',
      plans: 'Plans',
      products: 'Products',
      links: 'Payment links',
      webhooks: 'Webhooks',
      events: 'Events',
      keys: 'API keys',
      users: 'Users',
      audit: 'Audit log',
      connectors: 'Connectors',
      profile: 'Your profile',
    },
    navLabel: 'Sections',
    roles: { admin: 'Admin', developer: 'Developer', support: 'Support', viewer: 'Viewer' },
    roleRefused:
      'Your role does not allow this page or action; nothing was changed. An admin of the account can give you another role.',
    switchToLive: 'Switch to live',
    switchToTest: 'Switch to test',
    liveNeedsTwoFactor: 'Live mode needs two-factor sign-in: set it up in your profile.',
    signedInAs: (email, role) => `${email} (${role})`,
    notYet: 'not available yet',
    modeLabel: 'Mode',
    testMode: 'TEST',
    liveMode: 'LIVE',
    testNote: 'Test mode: these are test records; no real money moves.',
    simulatedLiveNote:
      'Live mode is connected to the simulated acquirer of the local stack: no real money moves, test cards are charged.',
    stripeNote: (account) => `Payments of this mode go through the Stripe account ${account}.`,
    notConnectedNote: (id) =>
      `Live mode is not connected to an acquirer: live payments, subscriptions and payment links are refused until it is. An operator connects your Stripe account with npm run -s cli -- accounts connect --account ${id} --mode live --stripe-key sk_live_… --stripe-webhook-secret whsec_… (README, “Going live”). Records, refunds of earlier charges and test mode work meanwhile.`,
    otherLanguage: 'Español',
    signOut: 'Sign out',
    formExpired: 'This form expired. Reload the page and try again; nothing was changed.',
    newestCharges: 'Newest charges',
    allCharges: 'All charges',
    chargesTitle: 'Payments and charges',
    noCharges: 'No charges yet.',
    noChargesBefore: (when) => `No charges created before ${when}.`,
    olderCharges: 'Older charges',
    newestFirst: 'Newest charges',
    findLabel: 'Find a charge',
    findHelp:
      "A charge's id (ch_…) or its payment's id (pay_…). To see a customer's charges, find the customer under Customers.",
    find: 'Find',
    nothingFound: (text) => `No charge or payment of this mode has the id “${text}”.`,
    paymentNotPaid: (id, status) =>
      `Payment ${id} has no charge: it is not paid (status: ${status}). Each declined try of its card is a payment.failed event, with the reason: see Events.`,
    paymentStatuses: {
      pending: 'pending, checkout not completed yet',
      completed: 'completed',
    },
    createdBefore: 'Created before (UTC day)',
    perPage: 'Charges per page',
    filter: 'Show',
    columns: {
      date: 'Date',
      id: 'Charge',
      description: 'Description',
      amount: 'Amount',
      refunded: 'Refunded',
      card: 'Card',
      customer: 'Customer',
      reason: 'Reason',
    },
    chargeTitle: (id) => `Charge ${id}`,
    chargeFields: {
      status: 'Status',
      amount: 'Amount',
      fee: 'Fee',
      net: 'Net',
      refunded: 'Refunded',
      refundable: 'Left to refund',
      card: 'Card',
      description: 'Description',
      customer: 'Customer',
      created: 'Created',
      paidOut: 'Paid out',
      payment: 'Payment',
      subscription: 'Subscription',
    },
    succeeded: 'Succeeded',
    refunds: 'Refunds',
    noRefunds: 'No refunds.',
    refundTitle: 'Refund this charge',
    refundAmount: (whole) => `Amount to refund (empty: all that is left, ${whole})`,
    refundReason: 'Reason',
    reasons: {
      requested_by_customer: 'Requested by the customer',
      duplicate: 'Duplicate',
      fraudulent: 'Fraudulent',
      subscription_canceled: 'Subscription canceled',
      payment_link_deleted: 'Payment link deleted',
    },
    refund: 'Refund',
    refunded: (amount) => `Refunded ${amount}.`,
    notRefundable: 'Nothing is left to refund of this charge.',
    paidOutNote: 'This charge was paid out; it cannot be refunded.',
    notFoundTitle: 'Not found',
    notFound: 'There is no such charge in this account and mode.',
    backToCharges: 'Back to the charges',
    errorTitle: 'Not done',
    date: dateIn('en'),
  },
  es: {
    product: 'panel de cobro',
    sections: {
      overview: 'Resumen',
      charges: 'Pagos y cargos',
      customers: 'Clientes',
      subscriptions: 'Suscripciones',
      plans: 'Planes',
      products: 'Productos',
      links: 'Enlaces de pago',
      webhooks: 'Webhooks',
      events: 'Eventos',
      keys: 'Claves de API',
      users: 'Usuarios',
      audit: 'Registro de auditoría',
      connectors: 'Conectores',
      profile: 'Tu perfil',
    },
    navLabel: 'Secciones',
    roles: { admin: 'Administrador', developer: 'Desarrollador', support: 'Soporte', viewer: 'Lector' },
    roleRefused:
      'Tu rol no permite esta página o acción; no se cambió nada. Un administrador de la cuenta puede darte otro rol.',
    switchToLive: 'Pasar a real',
    switchToTest: 'Pasar a prueba',
    liveNeedsTwoFactor: 'El modo real requiere el inicio de sesión en dos pasos: actívalo en tu perfil.',
    signedInAs: (email, role) => `${email} (${role})`,
    notYet: 'aún no disponible',
    modeLabel: 'Modo',
    testMode: 'PRUEBA',
    liveMode: 'REAL',
    testNote: 'Modo de prueba: son registros de prueba; no se mueve dinero real.',
    simulatedLiveNote:
      'El modo real está conectado al adquirente simulado de la pila local: no se mueve dinero real, se cobran tarjetas de prueba.',
    stripeNote: (account) => `Los pagos de este modo pasan por la cuenta de Stripe ${account}.`,
    notConnectedNote: (id) =>
      `El modo real no está conectado a un adquirente: los pagos, suscripciones y enlaces de pago reales se rechazan hasta que lo esté. Un operador conecta tu cuenta de Stripe con npm run -s cli -- accounts connect --account ${id} --mode live --stripe-key sk_live_… --stripe-webhook-secret whsec_… (README, “Going live”). Los registros, los reembolsos de cargos anteriores y el modo de prueba funcionan mientras tanto.`,
    otherLanguage: 'English',
    signOut: 'Cerrar sesión',
    formExpired: 'Este formulario caducó. Recarga la página e inténtalo de nuevo; no se cambió nada.',
    newestCharges: 'Cargos más recientes',
    allCharges: 'Todos los cargos',
    chargesTitle: 'Pagos y cargos',
    noCharges: 'Aún no hay cargos.',
    noChargesBefore: (when) => `No hay cargos creados antes del ${when}.`,
    olderCharges: 'Cargos anteriores',
    newestFirst: 'Cargos más recientes',
    findLabel: 'Buscar un cargo',
    findHelp:
      'El id de un cargo (ch_…) o el de su pago (pay_…). Para ver los cargos de un cliente, busca al cliente en Clientes.',
    find: 'Buscar',
    nothingFound: (text) => `Ningún cargo ni pago de este modo tiene el id «${text}».`,
    paymentNotPaid: (id, status) =>
      `El pago ${id} no tiene cargo: no está pagado (estado: ${status}). Cada intento rechazado de su tarjeta es un evento payment.failed, con el motivo: consulta Eventos.`,
    paymentStatuses: {
      pending: 'pendiente, el pago aún no se completó',
      completed: 'completado',
    },
    createdBefore: 'Creados antes del (día UTC)',
    perPage: 'Cargos por página',
    filter: 'Mostrar',
    columns: {
      date: 'Fecha',
      id: 'Cargo',
      description: 'Descripción',
      amount: 'Importe',
      refunded: 'Reembolsado',
      card: 'Tarjeta',
      customer: 'Cliente',
      reason: 'Motivo',
    },
    chargeTitle: (id) => `Cargo ${id}`,
    chargeFields: {
      status: 'Estado',
      amount: 'Importe',
      fee: 'Comisión',
      net: 'Neto',
      refunded: 'Reembolsado',
      refundable: 'Queda por reembolsar',
      card: 'Tarjeta',
      description: 'Descripción',
      customer: 'Cliente',
      created: 'Creado',
      paidOut: 'Liquidado',
      payment: 'Pago',
      subscription: 'Suscripción',
    },
    succeeded: 'Cobrado',
    refunds: 'Reembolsos',
    noRefunds: 'Sin reembolsos.',
    refundTitle: 'Reembolsar este cargo',
    refundAmount: (whole) => `Importe a reembolsar (vacío: todo lo que queda, ${whole})`,
    refundReason: 'Motivo',
    reasons: {
      requested_by_customer: 'Lo pidió el cliente',
      duplicate: 'Duplicado',
      fraudulent: 'Fraudulento',
      subscription_canceled: 'Suscripción cancelada',
      payment_link_deleted: 'Enlace de pago eliminado',
    },
    refund: 'Reembolsar',
    refunded: (amount) => `Reembolsado ${amount}.`,
    notRefundable: 'No queda nada por reembolsar de este cargo.',
    paidOutNote: 'Este cargo ya se liquidó; no se puede reembolsar.',
    notFoundTitle: 'No encontrado',
    notFound: 'No existe ese cargo en esta cuenta y modo.',
    backToCharges: 'Volver a los cargos',
    errorTitle: 'No se hizo',
    date: dateIn('es'),
  },
};
