/**
 * Taxes (docs/design.md#taxes-and-products): per account and mode, integer ids, a percentage kept
 * exactly as an integer of ten-thousandths of a percent (13.5% is 135000), never a float in
 * arithmetic.
 */
import * as v from 'valibot';
import type { Mode } from '../core/account.ts';
import { plainText, textField } from '../core/validation.ts';
import { taxRules } from './messages.ts';

/** Ten-thousandths of a percent per percent: 4 decimals. */
export const percentScale = 10_000;

export interface Tax {
  id: number;
  developer_id: number;
  mode: Mode;
  name: string;
  /** Percent × percentScale. */
  value_scaled: number;
  created_at: string;
}

/** Most percent a tax is. */
const maxPercent = 100;

/**
 * A percent as text (spaces around it aside; a tab or line break is not one line of text): up to 3
 * digits, then up to 4 decimals, at most 100 (100 itself only with zero decimals). The document
 * shows it as the text branch's pattern.
 */
const percentText = /^ *(?:100(?:\.0{1,4})?|0?\d{1,2}(?:\.\d{1,4})?) *$/;

/** A percentage 0–100 with at most 4 decimals, from a JSON number or text, as ten-thousandths. */
const percent = v.pipe(
  v.union(
    [
      v.pipe(
        v.number(),
        v.minValue(0, taxRules.percent),
        v.maxValue(maxPercent, taxRules.percent),
        // A JSON number reaches the check below as its source text: at most 4 decimals there too.
        v.metadata({ multipleOf: 1 / percentScale }),
      ),
      v.pipe(plainText(), v.regex(percentText, taxRules.percent)),
    ],
    taxRules.percent,
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const text = String(dataset.value).trim();
    const match = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(text);
    const scaledValue = match
      ? Number(match[1]) * percentScale + Number((match[2] ?? '').padEnd(4, '0'))
      : Number.NaN;
    if (!match || scaledValue > maxPercent * percentScale) {
      addIssue({ message: taxRules.percent });
      return NEVER;
    }
    return scaledValue;
  }),
  v.description('Percent, 0 to 100, at most 4 decimals ("13" or 13.5).'),
);

export const CreateTaxSchema = v.strictObject({
  name: textField(50),
  value: percent,
});

export const TaxViewSchema = v.strictObject({
  id: v.number(),
  name: v.string(),
  value: v.pipe(v.number(), v.description('Percent.')),
  created_on: v.string(),
  test: v.boolean(),
});
export type TaxView = v.InferOutput<typeof TaxViewSchema>;

/** The percent as a number for answers (exact for 4 decimals). */
export const percentOf = (scaledValue: number) => scaledValue / percentScale;

export const taxView = (tax: Tax): TaxView => ({
  id: tax.id,
  name: tax.name,
  value: percentOf(tax.value_scaled),
  created_on: tax.created_at,
  test: tax.mode === 'test',
});
