/**
 * The currencies Stripe charges cards in, how many decimals each has in Stripe's minor units, and
 * the smallest charge Stripe takes in the ones it publishes a minimum for (stripe.com/docs/currencies).
 */

// Stripe counts these in whole units (an amount of 500 JPY is ¥500).
const zeroDecimal = 'bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' ');
const threeDecimal = 'bhd jod kwd omr tnd'.split(' ');
const twoDecimal = (
  'usd aed afn all amd ang aoa ars aud awg azn bam bbd bdt bgn bmd bnd bob brl bsd bwp byn bzd cad cdf ' +
  'chf cny cop crc cve czk dkk dop dzd egp etb eur fjd fkp gbp gel gip gmd gtq gyd hkd hnl htg huf idr ' +
  'ils inr isk jmd kes kgs khr kyd kzt lak lbp lkr lrd lsl mad mdl mkd mmk mnt mop mur mvr mwk mxn myr ' +
  'mzn nad ngn nio nok npr nzd pab pen pgk php pkr pln qar ron rsd rub sar sbd scr sek sgd shp sle sos ' +
  'srd std szl thb tjs top try ttd twd tzs uah uyu uzs wst xcd yer zar zmw'
).split(' ');

const decimals = new Map<string, number>([
  ...zeroDecimal.map((code) => [code, 0] as const),
  ...twoDecimal.map((code) => [code, 2] as const),
  ...threeDecimal.map((code) => [code, 3] as const),
]);

// The minimum charge amounts Stripe publishes, in minor units.
const minimums = new Map<string, number>([
  ['usd', 50],
  ['aed', 200],
  ['aud', 50],
  ['bgn', 100],
  ['brl', 50],
  ['cad', 50],
  ['chf', 50],
  ['czk', 1500],
  ['dkk', 250],
  ['eur', 50],
  ['gbp', 30],
  ['hkd', 400],
  ['huf', 17500],
  ['inr', 50],
  ['jpy', 50],
  ['mxn', 1000],
  ['myr', 200],
  ['nok', 300],
  ['nzd', 50],
  ['pln', 200],
  ['ron', 200],
  ['sek', 300],
  ['sgd', 50],
  ['thb', 1000],
]);

/** Whether Stripe takes `code` (lower case) as a currency. */
export const isStripeCurrency = (code: string): boolean => decimals.has(code);

/** Decimals of the currency's minor unit in Stripe's amounts. */
export const currencyDecimals = (code: string): number => decimals.get(code) ?? 2;

/** Stripe's smallest charge in `code`, in minor units (1 where it publishes none). */
export const minimumCharge = (code: string): number => minimums.get(code) ?? 1;

/** Stripe's largest amount: eight digits. */
export const maximumAmount = 99_999_999;

/** `amount` minor units as a decimal string: 1050 usd → "10.50". */
export function majorUnits(amount: number, code: string): string {
  const places = currencyDecimals(code);
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(amount)).padStart(places + 1, '0');
  return places === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}
