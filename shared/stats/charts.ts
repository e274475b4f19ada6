/**
 * The overview's charts as server-rendered SVG, no script: a daily bar chart of the volume in each
 * currency, and small spark bars for the counts. Each chart is an image to assistive technology
 * (`role="img"`, its `<title>` naming what it shows and its figure) and has its figure beside it
 * as text, so nobody needs the bars to read the number. They are html templates
 * (shared/web/html.ts), which escape every text. The bars stretch to the width they are given (the
 * view box is not kept in proportion), so one drawing reads on a 390 px phone and a 1280 px screen;
 * their heights are fixed in CSS pixels.
 */

import type { Lang } from '../core/messages.ts';
import { displayAmount } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import { type Html, html } from '../web/html.ts';
import type { DayFigures } from './counters.ts';
import type { Overview } from './repository.ts';

/** One bar: what it stands for (a day) and its value. */
export interface Bar {
  label: string;
  value: number;
  /** The value as read (an amount with its currency); @default the number */
  shown?: string;
}

export type ChartSize = 'large' | 'spark';

/** Heights in CSS pixels: a large chart reads on a phone, a spark line sits beside its figure. */
const heights: Record<ChartSize, number> = { large: 160, spark: 36 };

/** Each bar's slot in the view box, and the bar's width in it. */
const slot = 10;
const barWidth = 8;
const top = 100;

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * A bar chart: one `<rect class="bar">` per bar (a zero is a bar of no height, so every day keeps
 * its place), as tall as its share of the largest, and the figure beside it.
 */
export function barChart(input: {
  /** Unique in the page: the `<title>`'s id is made from it. */
  id: string;
  title: string;
  /** The chart's figure as text (a total), shown beside it and read with its title. */
  figure: string;
  bars: readonly Bar[];
  size: ChartSize;
}): Html {
  const { bars, size, id } = input;
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const width = Math.max(bars.length, 1) * slot;
  const rects = bars.map((bar, index) => {
    const height = max > 0 ? round((Math.max(0, bar.value) / max) * top) : 0;
    const x = index * slot + (slot - barWidth) / 2;
    const label = `${bar.label}: ${bar.shown ?? String(bar.value)}`;
    return html`<rect class="bar" x="${x}" y="${round(top - height)}" width="${barWidth}" height="${height}"><title>${label}</title></rect>`;
  });
  return html`${[
    html`<figure class="chart chart-${size}">`,
    html`<svg role="img" aria-labelledby="${id}-title" viewBox="0 0 ${width} ${top}" preserveAspectRatio="none" width="100%" height="${heights[size]}" focusable="false">`,
    html`<title id="${id}-title">${input.title}: ${input.figure}</title>`,
    html`<line class="axis" x1="0" y1="${top}" x2="${width}" y2="${top}"/>`,
    rects,
    html`</svg>`,
    html`<figcaption><span class="chart-title">${input.title}</span> <strong class="chart-figure">${input.figure}</strong></figcaption>`,
    html`</figure>`,
  ]}`;
}

/** An amount in minor units as the dashboard writes it: `1,234.50 USD`, in the reader's number format. */
export const moneyText = (minor: number, code: string, lang: Lang): string => {
  const currency = findCurrency(code);
  return currency ? displayAmount(minor, currency, lang) : `${minor} ${code}`;
};

const texts = {
  en: {
    heading: 'Last 30 days',
    volume: (code: string) => `Volume in ${code}`,
    noVolume: 'Volume',
    none: 'No charges yet',
    charges: 'Charges',
    refunds: 'Refunds',
    refunded: (amounts: string) => `${amounts} refunded`,
    declines: 'Declines',
    failedRenewals: 'Failed renewals',
    active: 'Active subscriptions',
    mrr: 'Monthly recurring revenue',
    noMrr: 'No recurring revenue yet',
    counted: 'Subscriptions count from their checkout: trials and overdue ones included, until canceled.',
  },
  es: {
    heading: 'Últimos 30 días',
    volume: (code: string) => `Volumen en ${code}`,
    noVolume: 'Volumen',
    none: 'Aún no hay cargos',
    charges: 'Cargos',
    refunds: 'Reembolsos',
    // "total" carries the agreement, whatever the amounts: "12,50 USD reembolsado" would not agree.
    refunded: (amounts: string) => `total reembolsado: ${amounts}`,
    declines: 'Rechazos',
    failedRenewals: 'Renovaciones fallidas',
    active: 'Suscripciones activas',
    mrr: 'Ingreso recurrente mensual',
    noMrr: 'Aún no hay ingresos recurrentes',
    counted:
      'Las suscripciones cuentan desde que se contratan: incluidas las de prueba y las vencidas, hasta que se cancelan.',
  },
} satisfies Record<Lang, unknown>;

/** The daily volume chart of each currency with charges in the window (none: an empty chart saying so). */
export function volumeCharts(days: readonly DayFigures[], totals: DayFigures, lang: Lang): Html[] {
  const t = texts[lang];
  const codes = Object.keys(totals.volume).sort();
  if (codes.length === 0)
    return [barChart({ id: 'volume', title: t.noVolume, figure: t.none, bars: [], size: 'large' })];
  return codes.map((code) =>
    barChart({
      id: `volume-${code}`,
      title: t.volume(code),
      figure: moneyText(totals.volume[code] ?? 0, code, lang),
      bars: days.map((day) => ({
        label: day.day,
        value: day.volume[code] ?? 0,
        shown: moneyText(day.volume[code] ?? 0, code, lang),
      })),
      size: 'large',
    }),
  );
}

/** Spark bars of one daily count, with its total beside them. */
const countChart = (
  id: string,
  title: string,
  figure: string,
  days: readonly DayFigures[],
  pick: (day: DayFigures) => number,
) =>
  barChart({
    id,
    title,
    figure,
    bars: days.map((day) => ({ label: day.day, value: pick(day) })),
    size: 'spark',
  });

/** Amounts by currency as one text (`USD 12.00, EUR 3.50`), or `none`. */
const amountsText = (amounts: Record<string, number>, none: string, lang: Lang) => {
  const codes = Object.keys(amounts).sort();
  return codes.length ? codes.map((code) => moneyText(amounts[code] ?? 0, code, lang)).join(', ') : none;
};

/**
 * The whole overview as an HTML section: the volume charts, spark bars of the counts with their
 * totals, and the figures that hold now (active subscriptions, monthly recurring revenue).
 */
export function overviewSection(overview: Overview, lang: Lang): Html {
  const t = texts[lang];
  const { days, totals } = overview;
  // The refunded amounts only when something was refunded: "0 (0 refunded)" says nothing more than "0".
  const refundedAmounts = Object.values(totals.refunded).some((minor) => minor > 0);
  const refunds = refundedAmounts
    ? `${totals.refunds} (${t.refunded(amountsText(totals.refunded, '0', lang))})`
    : String(totals.refunds);
  return html`${[
    html`<section class="card overview" aria-labelledby="overview-figures">`,
    html`<h2 id="overview-figures">${t.heading}</h2>`,
    html`<div class="charts-large">`,
    volumeCharts(days, totals, lang),
    html`</div>`,
    html`<div class="charts-spark">`,
    countChart('charges', t.charges, String(totals.charges), days, (day) => day.charges),
    countChart('refunds', t.refunds, refunds, days, (day) => day.refunds),
    countChart('declines', t.declines, String(totals.declines), days, (day) => day.declines),
    countChart(
      'failed-renewals',
      t.failedRenewals,
      String(totals.failed_renewals),
      days,
      (day) => day.failed_renewals,
    ),
    html`</div>`,
    html`<dl class="figures">`,
    html`<div><dt>${t.active}</dt><dd>${overview.active_subscriptions}</dd></div>`,
    html`<div><dt>${t.mrr}</dt><dd>${amountsText(overview.mrr, t.noMrr, lang)}</dd></div>`,
    html`</dl>`,
    html`<p class="help">${t.counted}</p>`,
    html`</section>`,
  ]}`;
}

/** The charts' styles, for the page that shows them: bars in the page's colour, a grid that wraps. */
export const chartStyles = [
  '.overview .charts-large,.overview .charts-spark{display:grid;gap:16px;grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),1fr))}',
  '.overview .charts-spark{grid-template-columns:repeat(auto-fit,minmax(min(100%,160px),1fr))}',
  // The three blocks apart: else a chart's caption touches the bars of the block below it.
  '.overview .charts-spark,.overview .figures{margin-top:24px}',
  '.chart{margin:0}.chart svg{display:block;overflow:visible}.chart .bar{fill:#1a56db}.chart .axis{stroke:#9ca3af;stroke-width:1;vector-effect:non-scaling-stroke}',
  '.chart figcaption{display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap;font-size:14px}',
  '.overview .figures{display:grid;gap:16px;grid-template-columns:repeat(auto-fit,minmax(min(100%,200px),1fr))}.overview .figures dd{margin:0;font-size:20px;font-weight:600}',
].join('');
