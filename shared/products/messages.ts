/** The messages of products, and the rules of their taxes, recurrence and images. */
import { defineMessages } from '../core/messages.ts';
import { defineRules } from '../core/rule.ts';

export const productMessages = /* @__PURE__ */ defineMessages({
  product_created: {
    en: { title: 'Product created', content: 'The product was created.' },
    es: { title: 'Producto creado', content: 'El producto fue creado.' },
  },
  product_updated: {
    en: { title: 'Product updated', content: 'The product was updated.' },
    es: { title: 'Producto actualizado', content: 'El producto fue actualizado.' },
  },
  product_deleted: {
    en: {
      title: 'Product deleted',
      content: 'The product was removed and deactivated; payment links that name it keep working.',
    },
    es: {
      title: 'Producto eliminado',
      content:
        'El producto fue eliminado y desactivado; los enlaces de pago que lo nombran siguen funcionando.',
    },
  },
  product_not_found: {
    en: { title: 'Product not found', content: 'The id does not correspond to any product.' },
    es: { title: 'Producto no encontrado', content: 'El id no corresponde a ningún producto.' },
  },
  recurrence_not_object: {
    en: { title: 'Invalid recurrence', content: 'recurrence must be a JSON object.' },
    es: { title: 'Recurrencia inválida', content: 'recurrence debe ser un objeto JSON.' },
  },
});

export const productRules = /* @__PURE__ */ defineRules({
  unknown_tax: {
    en: '{field} names a tax this account does not have: {ids}.',
    es: '{field} nombra un impuesto que esta cuenta no tiene: {ids}.',
  },
  tax_ids: {
    en: '{field} must be tax ids separated by commas, such as "1,2".',
    es: '{field} debe ser ids de impuestos separados por comas, como "1,2".',
  },
  duration_period: {
    en: '{field}: only 1, 2, 3, 4, 6, 12 allowed.',
    es: '{field}: solo se permiten 1, 2, 3, 4, 6, 12.',
  },
  payday: {
    en: '{field} must be greater than 0 and at most 28.',
    es: '{field} debe ser mayor que 0 y como máximo 28.',
  },
  recurrence_kind: {
    en: '{field} must be "period" (with duration_period) or "specific_billing_day" (with payday).',
    es: '{field} debe ser "period" (con duration_period) o "specific_billing_day" (con payday).',
  },
  too_many_images: {
    en: '{field} takes at most 4 images.',
    es: '{field} admite como máximo 4 imágenes.',
  },
  image_flag: {
    en: '{field} must be -1 (keep), -remove- (remove) or image files.',
    es: '{field} debe ser -1 (conservar), -remove- (eliminar) o archivos de imagen.',
  },
});
