/** The messages of plans. */
import { defineMessages } from '../core/messages.ts';

export const planMessages = /* @__PURE__ */ defineMessages({
  plan_created: {
    en: { title: 'Plan created', content: 'The plan was created.' },
    es: { title: 'Plan creado', content: 'El plan fue creado.' },
  },
  plan_updated: {
    en: { title: 'Plan updated', content: 'The plan was updated.' },
    es: { title: 'Plan actualizado', content: 'El plan fue actualizado.' },
  },
  plan_unchanged: {
    en: { title: 'No changes', content: 'The request changes nothing in the plan.' },
    es: { title: 'Sin cambios', content: 'La solicitud no cambia nada del plan.' },
  },
  plan_deleted: {
    en: {
      title: 'Plan deleted',
      content: 'The plan was deleted; its active subscriptions are being canceled.',
    },
    es: {
      title: 'Plan eliminado',
      content: 'El plan fue eliminado; sus suscripciones activas se están cancelando.',
    },
  },
  plan_not_found: {
    en: { title: 'Plan not found', content: 'The plan does not exist.' },
    es: { title: 'Plan no encontrado', content: 'El plan no existe.' },
  },
  plan_immutable: {
    en: {
      title: 'Field cannot change',
      content: '{fields} cannot change after a plan is created; create a new plan instead.',
    },
    es: {
      title: 'Campo no modificable',
      content: '{fields} no se puede cambiar después de crear un plan; cree un plan nuevo.',
    },
  },
  plan_price_range: {
    type: 'warning',
    en: { title: 'Invalid price range', content: 'The minimum price is greater than the maximum price.' },
    es: { title: 'Rango de precios inválido', content: 'El precio mínimo es mayor que el precio máximo.' },
  },
  plan_subscriber_range: {
    type: 'warning',
    en: {
      title: 'Invalid subscriber range',
      content: 'The minimum number of subscribers is greater than the maximum.',
    },
    es: {
      title: 'Rango de suscriptores inválido',
      content: 'El mínimo de suscriptores es mayor que el máximo.',
    },
  },
  plan_filters_no_match: {
    type: 'warning',
    en: { title: 'No plans found', content: 'The queried plan does not exist.' },
    es: { title: 'No se encontraron planes', content: 'El plan consultado no existe.' },
  },
});
