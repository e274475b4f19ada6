/**
 * What the dashboard's plans, products and payment links pages say, in English and Spanish; the
 * type refuses a page that forgets a word in one of them.
 */
import type { Lang } from '../core/messages.ts';

export interface CatalogWords {
  plansTitle: string;
  productsTitle: string;
  linksTitle: string;
  newPlan: string;
  newProduct: string;
  newLink: string;
  noPlans: string;
  noProducts: string;
  noLinks: string;
  filters: string;
  filter: string;
  clearFilters: string;
  any: string;
  previousPage: string;
  nextPage: string;
  pageOf(page: number, pages: number, count: number): string;
  columns: {
    name: string;
    price: string;
    trial: string;
    subscribers: string;
    status: string;
    created: string;
    actions: string;
    description: string;
    amount: string;
    sku: string;
    stock: string;
    link: string;
  };
  fields: {
    name: string;
    description: string;
    amount: string;
    currency: string;
    interval: string;
    intervalCount: string;
    trialDays: string;
    shortDescription: string;
    sku: string;
    stock: string;
    price: string;
    status: string;
  };
  amountHelp: string;
  intervalCountHelp: string;
  trialHelp: string;
  intervals: { month: string; year: string };
  active: string;
  inactive: string;
  trialDays(days: number): string;
  noTrial: string;
  /** The name of a plan's subscriber count, a link to its subscriptions: it starts with the count shown. */
  subscribersLink(count: number, plan: string): string;
  create: string;
  delete: string;
  cancel: string;
  created(name: string): string;
  deletedPlan: string;
  deletedProduct: string;
  deletedLink: string;
  archive: string;
  restore: string;
  archived(name: string): string;
  restored(name: string): string;
  archiveHelp: string;
  deletePlanTitle(name: string): string;
  deletePlanWarning(subscribers: number): string;
  deletePlanConfirm: string;
  productImagesNote: string;
  deleteProductTitle(name: string): string;
  deleteProductWarning: string;
  deleteProductConfirm: string;
  linkNote: string;
  linkUrl: string;
  copyHelp: string;
  linkStatus: Record<string, string>;
  deleteLinkTitle(description: string): string;
  deleteLinkWarning: string;
  deleteLinkConfirm: string;
  notFound: string;
  back: string;
}

export const catalogWords: Record<Lang, CatalogWords> = {
  en: {
    plansTitle: 'Plans',
    productsTitle: 'Products',
    linksTitle: 'Payment links',
    newPlan: 'New plan',
    newProduct: 'New product',
    newLink: 'New payment link',
    noPlans: 'No plans yet.',
    noProducts: 'No products yet.',
    noLinks: 'No payment links yet.',
    filters: 'Filters',
    filter: 'Filter',
    clearFilters: 'Clear filters',
    any: 'Any',
    previousPage: 'Previous page',
    nextPage: 'Next page',
    pageOf: (page, pages, count) => `Page ${page} of ${Math.max(1, pages)} (${count} in all)`,
    columns: {
      name: 'Name',
      price: 'Price',
      trial: 'Trial',
      subscribers: 'Active subscriptions',
      status: 'Status',
      created: 'Created',
      actions: 'Actions',
      description: 'Description',
      amount: 'Amount',
      sku: 'SKU',
      stock: 'Stock',
      link: 'Link',
    },
    fields: {
      name: 'Name',
      description: 'Description',
      amount: 'Amount',
      currency: 'Currency',
      interval: 'Billed every',
      intervalCount: 'Number of intervals between charges',
      trialDays: 'Trial days',
      shortDescription: 'Short description',
      sku: 'SKU',
      stock: 'Stock',
      price: 'Price',
      status: 'Status',
    },
    amountHelp: 'In the currency’s own decimals, with a point: 9.90 USD, 1000 JPY, 1.500 KWD.',
    intervalCountHelp: 'At most 36 months or 3 years in all.',
    trialHelp: '0 for no trial; at most 730.',
    intervals: { month: 'Month', year: 'Year' },
    active: 'Active',
    inactive: 'Archived',
    trialDays: (days) => (days === 1 ? '1 day' : `${days} days`),
    noTrial: 'None',
    subscribersLink: (count, plan) => `${count}: the subscriptions of “${plan}”`,
    create: 'Create',
    delete: 'Delete',
    cancel: 'Cancel, keep it',
    created: (name) => `Created “${name}”.`,
    deletedPlan: 'The plan was deleted.',
    deletedProduct: 'The product was deleted.',
    deletedLink: 'The payment link was deleted.',
    archive: 'Archive',
    restore: 'Restore',
    archived: (name) => `Archived “${name}”: it takes no new subscriptions; its subscriptions go on.`,
    restored: (name) => `Restored “${name}”: it takes new subscriptions again.`,
    archiveHelp:
      'Archiving a plan stops new subscriptions to it; its subscriptions go on and renew. Restore it at any time. Deleting is for good.',
    deletePlanTitle: (name) => `Delete the plan “${name}”?`,
    deletePlanWarning: (subscribers) =>
      subscribers === 0
        ? 'Deleting a plan is for good. It has no active subscriptions.'
        : `Deleting a plan is for good. ${
            subscribers === 1
              ? 'Its 1 active subscription is then canceled'
              : `Its ${subscribers} active subscriptions are then canceled, each on its own`
          }; you and every customer with an active subscription to it are e-mailed.`,
    deletePlanConfirm: 'Delete the plan',
    productImagesNote:
      'Images are added through the API (POST or PUT /v1/products/ with a multipart form); this form takes the text fields.',
    deleteProductTitle: (name) => `Delete the product “${name}”?`,
    deleteProductWarning:
      'The product leaves the list and the search, and cannot be changed any more. Payment links that name it keep working.',
    deleteProductConfirm: 'Delete the product',
    linkNote:
      'A payment link is a hosted checkout page for a description and an amount (at least the equivalent of 1.00 USD). Links for named customers, and links tied to a product, are made through the API.',
    linkUrl: 'Link',
    copyHelp: 'Read-only: select the link and copy it (Ctrl+C or ⌘C) to share it.',
    linkStatus: {
      pending: 'Pending',
      paid: 'Paid',
      defaulter: 'Overdue',
      canceled: 'Canceled',
      blocked: 'Blocked',
    },
    deleteLinkTitle: (description) => `Delete the payment link “${description}”?`,
    deleteLinkWarning:
      'Its page stops taking payments at once and is gone. Charges already made through it stay; a payment approved after the delete is recorded and refunded in full.',
    deleteLinkConfirm: 'Delete the payment link',
    notFound: 'There is no such record in this account and mode.',
    back: 'Back to the list',
  },
  es: {
    plansTitle: 'Planes',
    productsTitle: 'Productos',
    linksTitle: 'Enlaces de pago',
    newPlan: 'Nuevo plan',
    newProduct: 'Nuevo producto',
    newLink: 'Nuevo enlace de pago',
    noPlans: 'Aún no hay planes.',
    noProducts: 'Aún no hay productos.',
    noLinks: 'Aún no hay enlaces de pago.',
    filters: 'Filtros',
    filter: 'Filtrar',
    clearFilters: 'Quitar filtros',
    any: 'Cualquiera',
    previousPage: 'Página anterior',
    nextPage: 'Página siguiente',
    pageOf: (page, pages, count) => `Página ${page} de ${Math.max(1, pages)} (${count} en total)`,
    columns: {
      name: 'Nombre',
      price: 'Precio',
      trial: 'Prueba',
      subscribers: 'Suscripciones activas',
      status: 'Estado',
      created: 'Creado',
      actions: 'Acciones',
      description: 'Descripción',
      amount: 'Importe',
      sku: 'SKU',
      stock: 'Existencias',
      link: 'Enlace',
    },
    fields: {
      name: 'Nombre',
      description: 'Descripción',
      amount: 'Importe',
      currency: 'Moneda',
      interval: 'Se cobra cada',
      intervalCount: 'Número de intervalos entre cargos',
      trialDays: 'Días de prueba',
      shortDescription: 'Descripción corta',
      sku: 'SKU',
      stock: 'Existencias',
      price: 'Precio',
      status: 'Estado',
    },
    amountHelp:
      'Con los decimales propios de la moneda, tras una coma (o un punto): 9,90 USD, 1000 JPY, 1,500 KWD.',
    intervalCountHelp: 'Como mucho 36 meses o 3 años en total.',
    trialHelp: '0 si no hay prueba; como mucho 730.',
    intervals: { month: 'Mes', year: 'Año' },
    active: 'Activo',
    inactive: 'Archivado',
    trialDays: (days) => (days === 1 ? '1 día' : `${days} días`),
    noTrial: 'Sin prueba',
    subscribersLink: (count, plan) => `${count}: las suscripciones de «${plan}»`,
    create: 'Crear',
    delete: 'Eliminar',
    cancel: 'Cancelar, conservarlo',
    created: (name) => `Se creó «${name}».`,
    deletedPlan: 'Se eliminó el plan.',
    deletedProduct: 'Se eliminó el producto.',
    deletedLink: 'Se eliminó el enlace de pago.',
    archive: 'Archivar',
    restore: 'Restaurar',
    archived: (name) => `Se archivó «${name}»: no admite nuevas suscripciones; las que tiene continúan.`,
    restored: (name) => `Se restauró «${name}»: admite nuevas suscripciones otra vez.`,
    archiveHelp:
      'Archivar un plan impide nuevas suscripciones; las que tiene continúan y se renuevan. Puedes restaurarlo cuando quieras. Eliminarlo es definitivo.',
    deletePlanTitle: (name) => `¿Eliminar el plan «${name}»?`,
    deletePlanWarning: (subscribers) =>
      subscribers === 0
        ? 'Eliminar un plan es definitivo. No tiene suscripciones activas.'
        : `Eliminar un plan es definitivo. ${
            subscribers === 1
              ? 'Su suscripción activa se cancela'
              : `Sus ${subscribers} suscripciones activas se cancelan, cada una por su cuenta`
          }; tú y cada cliente con una suscripción activa a él reciben un correo.`,
    deletePlanConfirm: 'Eliminar el plan',
    productImagesNote:
      'Las imágenes se añaden por la API (POST o PUT /v1/products/ con un formulario multipart); este formulario recoge los campos de texto.',
    deleteProductTitle: (name) => `¿Eliminar el producto «${name}»?`,
    deleteProductWarning:
      'El producto sale de la lista y de la búsqueda, y ya no se puede cambiar. Los enlaces de pago que lo nombran siguen funcionando.',
    deleteProductConfirm: 'Eliminar el producto',
    linkNote:
      'Un enlace de pago es una página de pago alojada para una descripción y un importe (como mínimo el equivalente a 1.00 USD). Los enlaces para clientes concretos y los ligados a un producto se crean por la API.',
    linkUrl: 'Enlace',
    copyHelp: 'Solo lectura: selecciona el enlace y cópialo (Ctrl+C o ⌘C) para compartirlo.',
    linkStatus: {
      pending: 'Pendiente',
      paid: 'Pagado',
      defaulter: 'Vencido',
      canceled: 'Cancelado',
      blocked: 'Bloqueado',
    },
    deleteLinkTitle: (description) => `¿Eliminar el enlace de pago «${description}»?`,
    deleteLinkWarning:
      'Su página deja de aceptar pagos en el acto y desaparece. Los cargos ya hechos por él se conservan; un pago aprobado después de eliminarlo se registra y se reembolsa entero.',
    deleteLinkConfirm: 'Eliminar el enlace de pago',
    notFound: 'No existe ese registro en esta cuenta y modo.',
    back: 'Volver a la lista',
  },
};
