/**
 * What the dashboard's admin pages (users and their invitations, the audit log, connectors) say, in
 * English and Spanish; the type refuses a page that forgets a word in either language.
 */
import type { Mode } from '../core/account.ts';
import type { Lang } from '../core/messages.ts';
import type { Role } from '../team/roles.ts';

export interface TeamWords {
  usersIntro: string;
  userColumns: {
    email: string;
    role: string;
    status: string;
    twoFactor: string;
    added: string;
    changeRole: string;
    remove: string;
  };
  /** Beside the signed-in user's own e-mail. */
  you: string;
  statuses: { invited: string; active: string };
  twoFactorOn: string;
  twoFactorOff: string;
  /** The accessible name of a user's role select. */
  roleOf(email: string): string;
  changeRole: string;
  remove: string;
  /** The accessible name of a user's Remove link. */
  removeLabel(email: string): string;
  /** What each role may do, in one line each. */
  roleHelp: Record<Role, string>;
  inviteTitle: string;
  inviteIntro(days: number): string;
  email: string;
  role: string;
  sendInvite: string;
  invited: string;
  roleChanged(email: string, role: string): string;
  removed: string;
  emailInvalid: string;
  roleInvalid: string;
  emailTaken: string;
  tooManyUsers(max: number): string;
  lastAdmin: string;
  changedMeanwhile: string;
  stillSubmitting: string;
  userNotFound: string;
  backToUsers: string;
  removeTitle(email: string): string;
  removeWhat(email: string, role: string): string;
  removeSelf: string;
  removeConfirm: string;
  cancel: string;
  auditIntro: string;
  auditReadOnly: string;
  auditColumns: {
    when: string;
    who: string;
    action: string;
    record: string;
    mode: string;
    address: string;
  };
  noEntries: string;
  noOlderEntries: string;
  olderEntries: string;
  newestEntries: string;
  modes: Record<Mode, string>;
  connectorsIntro: string;
  connectorColumns: {
    mode: string;
    connector: string;
    account: string;
    key: string;
    connected: string;
    action: string;
  };
  connectorNames: { simulated: string; stripe: string; none: string };
  /** Live mode on the simulated acquirer (the local stack only). */
  simulatedLive: string;
  connectTitle(mode: Mode): string;
  connectIntro(mode: Mode): string;
  stripeKey: string;
  stripeKeyHelp(prefix: string): string;
  webhookSecret: string;
  webhookSecretHelp(eventsUrl: string): string;
  connect: string;
  connected(mode: Mode): string;
  disconnected(mode: Mode): string;
  disconnect: string;
  disconnectLabel(mode: Mode): string;
  disconnectTitle(mode: Mode): string;
  disconnectWhat: Record<Mode, string>;
  disconnectConfirm: string;
  stripeKeyMissing: string;
  connectRefused(reason: string): string;
  connectionChanged: string;
  modeNotFound: string;
  backToConnectors: string;
}

/** A mode as a sentence names it. */
const enMode: Record<Mode, string> = { test: 'Test', live: 'Live' };
const esMode: Record<Mode, string> = { test: 'de prueba', live: 'de producción' };

export const teamWords: Record<Lang, TeamWords> = {
  en: {
    usersIntro:
      'Everyone who signs in to this account’s dashboard, with their role. A role change applies at their next page; a removed user is signed out at once.',
    userColumns: {
      email: 'E-mail',
      role: 'Role',
      status: 'Status',
      twoFactor: 'Two-factor',
      added: 'Added',
      changeRole: 'Change role',
      remove: 'Remove',
    },
    you: '(you)',
    statuses: { invited: 'Invited', active: 'Active' },
    twoFactorOn: 'On',
    twoFactorOff: 'Off',
    roleOf: (email) => `Role of ${email}`,
    changeRole: 'Change',
    remove: 'Remove',
    removeLabel: (email) => `Remove ${email}`,
    roleHelp: {
      admin: 'Admin: everything, users, the audit log, API keys and connectors included.',
      developer: 'Developer: reads, plus webhooks, the catalog and the API keys (masked).',
      support: 'Support: reads, plus refunds, subscription cancels and customers’ portal links.',
      viewer: 'Viewer: reads only.',
    },
    inviteTitle: 'Invite a user',
    inviteIntro: (days) =>
      `They get an e-mail with a link to set their password. The link works once, for ${days} days.`,
    email: 'E-mail address',
    role: 'Role',
    sendInvite: 'Send the invitation',
    invited: 'Invitation sent.',
    roleChanged: (email, role) => `${email} is now ${role}.`,
    removed: 'User removed: their sessions have ended.',
    emailInvalid: 'Enter an e-mail address such as ana@example.com.',
    roleInvalid: 'Choose one of the roles.',
    emailTaken:
      'This e-mail address already signs in to cobro (as a user of this account or of another): an address is one user.',
    tooManyUsers: (max) => `An account has at most ${max} users: remove one before inviting another.`,
    lastAdmin: 'An account keeps at least one admin: nothing was changed. Make another user admin first.',
    changedMeanwhile: 'The user was changed meanwhile: nothing was done. Look at the list again.',
    stillSubmitting: 'This form is still being submitted: wait a moment, then look at the page again.',
    userNotFound: 'No such user in this account.',
    backToUsers: 'Back to the users',
    removeTitle: (email) => `Remove ${email}`,
    removeWhat: (email, role) =>
      `${email} (${role}) can no longer sign in to this account’s dashboard: every session they have open ends at once. What they did stays in the audit log.`,
    removeSelf: 'This is you: you will be signed out.',
    removeConfirm: 'Remove the user',
    cancel: 'Cancel',
    auditIntro:
      'Every change made in this account’s dashboard, newest first: who made it, what it was, on which record, in which mode and from which address.',
    auditReadOnly: 'The audit log is read-only: no one can edit or delete an entry, here or through the API.',
    auditColumns: {
      when: 'When (UTC)',
      who: 'Who',
      action: 'Action',
      record: 'Record',
      mode: 'Mode',
      address: 'Address',
    },
    noEntries: 'Nothing has been changed in the dashboard yet.',
    noOlderEntries: 'No older entries.',
    olderEntries: 'Older entries',
    newestEntries: 'Newest entries',
    modes: { test: 'Test', live: 'Live' },
    connectorsIntro:
      'What each mode moves money through. Secrets are kept sealed and never shown again: only a Stripe key’s first and last characters.',
    connectorColumns: {
      mode: 'Mode',
      connector: 'Connected to',
      account: 'Stripe account',
      key: 'Key',
      connected: 'Since',
      action: 'Action',
    },
    connectorNames: {
      simulated: 'The simulated acquirer (test cards)',
      stripe: 'Stripe',
      none: 'Nothing: payments are refused',
    },
    simulatedLive: 'The simulated acquirer: no real money moves (local stack only)',
    connectTitle: (mode) => `Connect ${mode} mode to Stripe`,
    connectIntro: (mode) =>
      `The secret (or restricted) key of the Stripe account ${mode} payments should go to. cobro checks it with Stripe before anything is kept.`,
    stripeKey: 'Stripe secret key',
    stripeKeyHelp: (prefix) => `It starts with ${prefix} (or rk_ for a restricted key).`,
    webhookSecret: 'Webhook signing secret (optional)',
    webhookSecretHelp: (eventsUrl) =>
      `The whsec_ secret of a Stripe webhook endpoint pointed at ${eventsUrl}. Left empty, cobro makes that endpoint itself.`,
    connect: 'Connect',
    connected: (mode) => `${enMode[mode]} mode is connected to Stripe.`,
    disconnected: (mode) => `${enMode[mode]} mode was disconnected.`,
    disconnect: 'Disconnect',
    disconnectLabel: (mode) => `Disconnect ${mode} mode`,
    disconnectTitle: (mode) => `Disconnect ${mode} mode`,
    disconnectWhat: {
      live: 'Live mode will be connected to nothing: every live payment, refund and renewal is refused (400) until it is connected again. Its payments and charges stay.',
      test: 'Test mode goes back to the simulated acquirer and its test cards. Its payments and charges stay.',
    },
    disconnectConfirm: 'Disconnect',
    stripeKeyMissing: 'Enter the Stripe secret key.',
    connectRefused: (reason) => `Nothing was connected: ${reason}`,
    connectionChanged:
      'The connection was changed by someone else at the same moment: nothing was done. Look at the page again.',
    modeNotFound: 'No such mode: not found. A mode is test or live.',
    backToConnectors: 'Back to the connectors',
  },
  es: {
    usersIntro:
      'Todas las personas que entran al panel de esta cuenta, con su rol. Un cambio de rol rige desde su página siguiente; un usuario eliminado sale de inmediato.',
    userColumns: {
      email: 'Correo',
      role: 'Rol',
      status: 'Estado',
      twoFactor: 'Dos pasos',
      added: 'Alta',
      changeRole: 'Cambiar rol',
      remove: 'Eliminar',
    },
    you: '(tú)',
    statuses: { invited: 'Invitado', active: 'Activo' },
    twoFactorOn: 'Sí',
    twoFactorOff: 'No',
    roleOf: (email) => `Rol de ${email}`,
    changeRole: 'Cambiar',
    remove: 'Eliminar',
    removeLabel: (email) => `Eliminar a ${email}`,
    roleHelp: {
      admin:
        'Administrador: todo, incluidos los usuarios, el registro de auditoría, las claves API y los conectores.',
      developer: 'Desarrollador: lectura, más webhooks, el catálogo y las claves API (enmascaradas).',
      support:
        'Soporte: lectura, más reembolsos, cancelaciones de suscripciones y enlaces al portal de los clientes.',
      viewer: 'Lector: solo lectura.',
    },
    inviteTitle: 'Invitar a un usuario',
    inviteIntro: (days) =>
      `Recibe un correo con un enlace para elegir su contraseña. El enlace sirve una vez, durante ${days} días.`,
    email: 'Correo electrónico',
    role: 'Rol',
    sendInvite: 'Enviar la invitación',
    invited: 'Invitación enviada.',
    roleChanged: (email, role) => `${email} ahora es ${role}.`,
    removed: 'Usuario eliminado: sus sesiones terminaron.',
    emailInvalid: 'Escribe un correo electrónico como ana@example.com.',
    roleInvalid: 'Elige uno de los roles.',
    emailTaken:
      'Este correo ya entra a cobro (como usuario de esta cuenta o de otra): cada dirección es un solo usuario.',
    tooManyUsers: (max) =>
      `Una cuenta tiene como máximo ${max} usuarios: elimina uno antes de invitar a otro.`,
    lastAdmin:
      'Una cuenta conserva al menos un administrador: no se cambió nada. Haz administrador a otro usuario primero.',
    changedMeanwhile: 'El usuario cambió mientras tanto: no se hizo nada. Vuelve a mirar la lista.',
    stillSubmitting:
      'Este formulario todavía se está enviando: espera un momento y vuelve a mirar la página.',
    userNotFound: 'No existe ese usuario en esta cuenta.',
    backToUsers: 'Volver a los usuarios',
    removeTitle: (email) => `Eliminar a ${email}`,
    removeWhat: (email, role) =>
      `${email} (${role}) ya no podrá entrar al panel de esta cuenta: todas sus sesiones abiertas terminan de inmediato. Lo que hizo queda en el registro de auditoría.`,
    removeSelf: 'Eres tú: se cerrará tu sesión.',
    removeConfirm: 'Eliminar al usuario',
    cancel: 'Cancelar',
    auditIntro:
      'Cada cambio hecho en el panel de esta cuenta, del más reciente al más antiguo: quién lo hizo, qué fue, sobre qué registro, en qué modo y desde qué dirección.',
    auditReadOnly:
      'El registro de auditoría es de solo lectura: nadie puede editar ni borrar una entrada, ni aquí ni a través de la API.',
    auditColumns: {
      when: 'Cuándo (UTC)',
      who: 'Quién',
      action: 'Acción',
      record: 'Registro',
      mode: 'Modo',
      address: 'Dirección',
    },
    noEntries: 'Todavía no se cambió nada en el panel.',
    noOlderEntries: 'No hay entradas más antiguas.',
    olderEntries: 'Entradas anteriores',
    newestEntries: 'Entradas más recientes',
    modes: { test: 'Prueba', live: 'Producción' },
    connectorsIntro:
      'Por dónde mueve el dinero cada modo. Los secretos se guardan sellados y no se vuelven a mostrar: de una clave de Stripe, solo sus primeros y últimos caracteres.',
    connectorColumns: {
      mode: 'Modo',
      connector: 'Conectado a',
      account: 'Cuenta de Stripe',
      key: 'Clave',
      connected: 'Desde',
      action: 'Acción',
    },
    connectorNames: {
      simulated: 'El adquirente simulado (tarjetas de prueba)',
      stripe: 'Stripe',
      none: 'Nada: los pagos se rechazan',
    },
    simulatedLive: 'El adquirente simulado: no se mueve dinero real (solo en el entorno local)',
    connectTitle: (mode) => `Conectar el modo ${esMode[mode]} a Stripe`,
    connectIntro: (mode) =>
      `La clave secreta (o restringida) de la cuenta de Stripe a la que deben ir los pagos del modo ${esMode[mode]}. cobro la comprueba con Stripe antes de guardar nada.`,
    stripeKey: 'Clave secreta de Stripe',
    stripeKeyHelp: (prefix) => `Empieza por ${prefix} (o por rk_ si es una clave restringida).`,
    webhookSecret: 'Secreto de firma del webhook (opcional)',
    webhookSecretHelp: (eventsUrl) =>
      `El secreto whsec_ de un endpoint de webhook de Stripe que apunte a ${eventsUrl}. Si lo dejas vacío, cobro crea ese endpoint.`,
    connect: 'Conectar',
    connected: (mode) => `El modo ${esMode[mode]} está conectado a Stripe.`,
    disconnected: (mode) => `Se desconectó el modo ${esMode[mode]}.`,
    disconnect: 'Desconectar',
    disconnectLabel: (mode) => `Desconectar el modo ${esMode[mode]}`,
    disconnectTitle: (mode) => `Desconectar el modo ${esMode[mode]}`,
    disconnectWhat: {
      live: 'El modo de producción quedará sin conexión: se rechaza (400) todo pago, reembolso y renovación de producción hasta que se vuelva a conectar. Sus pagos y cargos se conservan.',
      test: 'El modo de prueba vuelve al adquirente simulado y sus tarjetas de prueba. Sus pagos y cargos se conservan.',
    },
    disconnectConfirm: 'Desconectar',
    stripeKeyMissing: 'Escribe la clave secreta de Stripe.',
    connectRefused: (reason) => `No se conectó nada: ${reason}`,
    connectionChanged:
      'Otra persona cambió la conexión en el mismo momento: no se hizo nada. Vuelve a mirar la página.',
    modeNotFound: 'No existe ese modo (no encontrado). Un modo es test o live.',
    backToConnectors: 'Volver a los conectores',
  },
};
