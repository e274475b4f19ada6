/**
 * The base's validation rules, one export each: import them as a namespace (`import * as rules from
 * '…/core/rules.ts'`, then `rules.integer`), so a bundle keeps only the rules its code names. An
 * area's own rules live in its messages.ts.
 */
import { defineRule } from './rule.ts';

export const required = /* @__PURE__ */ defineRule('required', {
  en: '{field} is required.',
  es: '{field} es obligatorio.',
});

export const body_object = /* @__PURE__ */ defineRule('body_object', {
  en: 'The body must be a JSON object (or form fields).',
  es: 'El cuerpo debe ser un objeto JSON (o campos de formulario).',
});

export const unknown_field = /* @__PURE__ */ defineRule('unknown_field', {
  en: '{field} is not a field of this request.',
  es: '{field} no es un campo de esta solicitud.',
});

export const max_length = /* @__PURE__ */ defineRule('max_length', {
  en: '{field} takes at most {limit} characters.',
  es: '{field} admite como máximo {limit} caracteres.',
});

export const not_blank = /* @__PURE__ */ defineRule('not_blank', {
  en: '{field} cannot be empty.',
  es: '{field} no puede estar vacío.',
});

export const min_value = /* @__PURE__ */ defineRule('min_value', {
  en: '{field} must be at least {limit}.',
  es: '{field} debe ser al menos {limit}.',
});

export const max_value = /* @__PURE__ */ defineRule('max_value', {
  en: '{field} must be at most {limit}.',
  es: '{field} debe ser como máximo {limit}.',
});

export const integer = /* @__PURE__ */ defineRule('integer', {
  en: '{field} must be an integer.',
  es: '{field} debe ser un número entero.',
});

export const positive_integer = /* @__PURE__ */ defineRule('positive_integer', {
  en: '{field} must be a whole number of at least 1.',
  es: '{field} debe ser un número entero mayor o igual que 1.',
});

export const boolean = /* @__PURE__ */ defineRule('boolean', {
  en: '{field} must be true or false.',
  es: '{field} debe ser true o false.',
});

export const string = /* @__PURE__ */ defineRule('string', {
  en: '{field} must be text.',
  es: '{field} debe ser texto.',
});

export const unicode = /* @__PURE__ */ defineRule('unicode', {
  en: '{field} is not well-formed text: it has a lone UTF-16 surrogate.',
  es: '{field} no es texto bien formado: tiene un sustituto UTF-16 aislado.',
});

export const one_line = /* @__PURE__ */ defineRule('one_line', {
  en: '{field} must be one line of text, without control characters (tabs and line breaks included).',
  es: '{field} debe ser una sola línea de texto, sin caracteres de control (ni tabuladores ni saltos de línea).',
});

export const control_character = /* @__PURE__ */ defineRule('control_character', {
  en: '{field} cannot contain control characters other than tab and line breaks.',
  es: '{field} no puede contener caracteres de control salvo tabuladores y saltos de línea.',
});

export const one_of = /* @__PURE__ */ defineRule('one_of', {
  en: '{field} must be one of: {options}.',
  es: '{field} debe ser uno de: {options}.',
});

export const currency = /* @__PURE__ */ defineRule('currency', {
  en: '{field} is not a currency cobro supports.',
  es: '{field} no es una moneda que cobro admita.',
});

export const amount = /* @__PURE__ */ defineRule('amount', {
  en: '{field} must be a positive decimal amount such as "10.50".',
  es: '{field} debe ser un monto decimal positivo, como "10.50".',
});

export const amount_too_large = /* @__PURE__ */ defineRule('amount_too_large', {
  en: '{field} is larger than cobro accepts.',
  es: '{field} es mayor de lo que cobro acepta.',
});

export const decimal = /* @__PURE__ */ defineRule('decimal', {
  en: '{field} must be a non-negative decimal with at most 3 decimals.',
  es: '{field} debe ser un decimal no negativo con 3 decimales como máximo.',
});

export const key = /* @__PURE__ */ defineRule('key', {
  en: '{field} must be 1 to 255 printable ASCII characters.',
  es: '{field} debe tener de 1 a 255 caracteres ASCII imprimibles.',
});

export const email = /* @__PURE__ */ defineRule('email', {
  en: '{field} must be a valid e-mail address.',
  es: '{field} debe ser un correo electrónico válido.',
});

export const invalid = /* @__PURE__ */ defineRule('invalid', {
  en: '{field} is not valid.',
  es: '{field} no es válido.',
});

export const single_value = /* @__PURE__ */ defineRule('single_value', {
  en: '{field} takes one value: repeated or bracketed query parameters are not accepted.',
  es: '{field} admite un solo valor: no se aceptan parámetros de consulta repetidos o con corchetes.',
});

export const undocumented_query = /* @__PURE__ */ defineRule('undocumented_query', {
  en: '{field} is not a query parameter of this route.',
  es: '{field} no es un parámetro de consulta de esta ruta.',
});

export const more_problems = /* @__PURE__ */ defineRule('more_problems', {
  en: '…and {count} more problems.',
  es: '…y {count} problemas más.',
});
