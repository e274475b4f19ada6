/** The messages of taxes, and the rule of a percentage. */
import { defineMessages } from '../core/messages.ts';
import { defineRules } from '../core/rule.ts';

export const taxMessages = /* @__PURE__ */ defineMessages({
  tax_created: {
    en: { title: 'Tax created', content: 'The tax was created.' },
    es: { title: 'Impuesto creado', content: 'El impuesto fue creado.' },
  },
});

export const taxRules = /* @__PURE__ */ defineRules({
  percent: {
    en: '{field} must be a percentage from 0 to 100 with at most 4 decimals.',
    es: '{field} debe ser un porcentaje de 0 a 100 con 4 decimales como máximo.',
  },
});
