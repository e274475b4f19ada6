/**
 * `metadata`: a merchant's own key-value pairs on a record (a customer, a subscription, a payment),
 * one rule for all of them. A JSON object of at most 10 KB as UTF-8 JSON, no key empty at any depth
 * (the table stores no map with one), keys one line of clean text, values clean text of any lines;
 * null clears it where a record's update takes it.
 */
import * as v from 'valibot';
import { defineRule } from './rule.ts';
import { jsonTextRuleOf } from './validation.ts';

/** Serialized `metadata`, in bytes of UTF-8 JSON (at most 10 KB). */
export const metadataBytes = 10 * 1024;

export type Metadata = Record<string, unknown>;

export const json_object = /* @__PURE__ */ defineRule('json_object', {
  en: '{field} must be a JSON object.',
  es: '{field} debe ser un objeto JSON.',
});

export const json_too_large = /* @__PURE__ */ defineRule('json_too_large', {
  en: '{field} is larger than 10 KB (10,240 bytes) as JSON.',
  es: '{field} supera los 10 KB (10.240 bytes) como JSON.',
});

export const json_empty_key = /* @__PURE__ */ defineRule('json_empty_key', {
  en: '{field} has an empty key; every key needs at least one character.',
  es: '{field} tiene una clave vacía; cada clave necesita al menos un carácter.',
});

/** Whether a JSON value has an empty object key at any depth. */
const hasEmptyKey = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some(hasEmptyKey)
    : value !== null &&
      typeof value === 'object' &&
      Object.entries(value).some(([key, item]) => key === '' || hasEmptyKey(item));

/** The `metadata` field: an object as above, or null. */
export const metadataField = () =>
  v.pipe(
    v.nullable(
      v.pipe(
        v.custom<Metadata>(
          (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
          json_object,
        ),
        // What the checks take: an object (null is the nullable's), its keys not empty (the document
        // shows the top level's; JSON Schema has no short way to say it of nested objects).
        v.metadata({ type: 'object', propertyNames: { minLength: 1 } }),
        v.check((value) => !hasEmptyKey(value), json_empty_key),
        v.check((value) => Buffer.byteLength(JSON.stringify(value)) <= metadataBytes, json_too_large),
        // Keys are one line of clean text, values clean text of any lines (jsonTextRuleOf).
        v.rawCheck(({ dataset, addIssue }) => {
          const rule = dataset.typed ? jsonTextRuleOf(dataset.value) : undefined;
          if (rule) addIssue({ message: rule });
        }),
      ),
    ),
    v.description(
      'Custom key-value pairs: a JSON object of at most 10 KB (10,240 bytes) as JSON; its texts are well-formed, keys one line, values without control characters but tab and line breaks.',
    ),
  );
