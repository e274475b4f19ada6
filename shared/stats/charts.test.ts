import { describe, expect, it } from 'vitest';
import { render } from '../web/html.ts';
import * as charts from './charts.ts';
import { addFigures, daysEnding, emptyDay } from './counters.ts';
import type { Overview } from './repository.ts';

// The charts are markup (html templates): each is read here as the text a page writes of it.
const barChart = (...input: Parameters<typeof charts.barChart>) => render(charts.barChart(...input));
const overviewSection = (...input: Parameters<typeof charts.overviewSection>) =>
  render(charts.overviewSection(...input));
const volumeCharts = (...input: Parameters<typeof charts.volumeCharts>) =>
  charts.volumeCharts(...input).map(render);

const count = (html: string, pattern: RegExp) => html.match(new RegExp(pattern, 'g'))?.length ?? 0;

/** An overview of 30 days, with these days' figures changed. */
function overviewWith(
  changes: Record<number, Partial<ReturnType<typeof emptyDay>>>,
  extra: Partial<Overview> = {},
): Overview {
  const days = daysEnding(new Date('2026-03-30T12:00:00Z')).map((day, index) => ({
    ...emptyDay(day),
    ...changes[index],
  }));
  return {
    days,
    totals: days.reduce(addFigures, emptyDay(days[0]?.day ?? '')),
    active_subscriptions: 0,
    mrr: {},
    mrrExact: {},
    ...extra,
  };
}

describe('a bar chart', () => {
  it('has one bar per value, as tall as its share of the largest, an image with its title and figure', () => {
    const html = barChart({
      id: 'c',
      title: 'Charges',
      figure: '6',
      bars: [
        { label: 'a', value: 1 },
        { label: 'b', value: 0 },
        { label: 'c', value: 4 },
        { label: 'd', value: 1 },
      ],
      size: 'spark',
    });
    expect(count(html, /<rect class="bar"/)).toBe(4);
    expect(html).toMatch(/<svg role="img" aria-labelledby="c-title"[^>]*viewBox="0 0 40 100"/);
    expect(html).toContain('<title id="c-title">Charges: 6</title>');
    expect(count(html, / height="100"/)).toBe(1);
    expect(count(html, / height="25"/)).toBe(2);
    expect(count(html, / height="0"/)).toBe(1);
    expect(html).toContain(
      '<figcaption><span class="chart-title">Charges</span> <strong class="chart-figure">6</strong></figcaption>',
    );
    expect(html).not.toMatch(/<script/i);
  });

  it('escapes every label, title and figure', () => {
    const hostile = `<script>alert("x")</script>&'`;
    const html = barChart({
      id: `x"><b>`,
      title: hostile,
      figure: hostile,
      bars: [{ label: hostile, value: 1, shown: hostile }],
      size: 'large',
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).not.toMatch(/"x"/);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
  });

  it('with no data draws no bar and no division by zero', () => {
    const none = barChart({ id: 'n', title: 'T', figure: '0', bars: [], size: 'large' });
    expect(count(none, /<rect/)).toBe(0);
    expect(none).toContain('viewBox="0 0 10 100"');
    const zeros = barChart({
      id: 'z',
      title: 'T',
      figure: '0',
      bars: [{ label: 'a', value: 0 }],
      size: 'spark',
    });
    expect(zeros).toContain('height="0"');
    expect(zeros).not.toMatch(/NaN|Infinity/);
  });
});

describe('the overview section', () => {
  it('draws a daily volume chart per currency (30 bars each) and spark bars of every count', () => {
    const overview = overviewWith(
      {
        3: { charges: 2, volume: { USD: 1500, JPY: 300 } },
        29: {
          charges: 1,
          volume: { USD: 250 },
          refunds: 1,
          refunded: { USD: 100 },
          declines: 2,
          failed_renewals: 1,
        },
      },
      { active_subscriptions: 3, mrr: { USD: 4333 } },
    );
    const html = overviewSection(overview, 'en');
    expect(count(html, /<svg role="img"/)).toBe(2 + 4);
    expect(count(html, /<rect class="bar"/)).toBe(6 * 30);
    expect(html).toContain('<title id="volume-USD-title">Volume in USD: 17.50 USD</title>');
    expect(html).toContain('<title id="volume-JPY-title">Volume in JPY: 300 JPY</title>');
    expect(html).toContain('Refunds: 1 (1.00 USD refunded)');
    expect(html).toContain('<title id="declines-title">Declines: 2</title>');
    expect(html).toContain('<title id="failed-renewals-title">Failed renewals: 1</title>');
    expect(html).toContain('<dt>Active subscriptions</dt><dd>3</dd>');
    expect(html).toContain('<dt>Monthly recurring revenue</dt><dd>43.33 USD</dd>');
    // What the two figures count is said beside them: a trial counts from its checkout.
    expect(html).toContain('trials and overdue ones included, until canceled');
    expect(html).toContain('<title>2026-03-30: 2.50 USD</title>');
  });

  it('with nothing counted says so, in Spanish too', () => {
    const empty = overviewSection(overviewWith({}), 'es');
    expect(empty).toContain('Aún no hay cargos');
    const spanish = overviewSection(overviewWith({ 0: { charges: 1, volume: { USD: 123456 } } }), 'es');
    expect(spanish).toContain('<title id="volume-USD-title">Volumen en USD: 1.234,56 USD</title>');
    expect(empty).toContain('<h2 id="overview-figures">Últimos 30 días</h2>');
    expect(count(empty, /<svg role="img"/)).toBe(1 + 4);
    expect(volumeCharts([], emptyDay('2026-03-01'), 'en')[0]).toContain('No charges yet');
  });

  it('calls charges "Cargos" in Spanish, as every other dashboard page does', () => {
    const spanish = overviewSection(overviewWith({ 0: { charges: 2, volume: { USD: 100 } } }), 'es');
    expect(spanish).toContain('<title id="charges-title">Cargos: 2</title>');
    expect(spanish).not.toMatch(/[Cc]obros/);
  });

  it('writes the refunded amount so that the Spanish agrees, and no parenthesis when nothing was refunded', () => {
    const refunded = overviewWith({ 4: { refunds: 2, refunded: { USD: 1250 } } });
    expect(overviewSection(refunded, 'es')).toContain(
      '<title id="refunds-title">Reembolsos: 2 (total reembolsado: 12,50 USD)</title>',
    );
    expect(overviewSection(refunded, 'en')).toContain(
      '<title id="refunds-title">Refunds: 2 (12.50 USD refunded)</title>',
    );
    for (const lang of ['en', 'es'] as const) {
      const nothing = overviewSection(overviewWith({}), lang);
      expect(nothing).toMatch(/<title id="refunds-title">(Refunds|Reembolsos): 0<\/title>/);
      expect(nothing).not.toContain('(0');
    }
  });

  it('says there is no recurring revenue yet, rather than "none"', () => {
    expect(overviewSection(overviewWith({}), 'en')).toContain(
      '<dt>Monthly recurring revenue</dt><dd>No recurring revenue yet</dd>',
    );
    expect(overviewSection(overviewWith({}), 'es')).toContain(
      '<dt>Ingreso recurrente mensual</dt><dd>Aún no hay ingresos recurrentes</dd>',
    );
  });
});
