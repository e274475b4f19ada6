import { describe, expect, it } from 'vitest';
import { cellUnder, expectLabelledTables } from '../../test/support/records-table.ts';
import { dataTable } from './table.ts';

const hostile = `<script>alert("x")</script>'&`;
const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;';

describe('the dashboard table', () => {
  it('heads each column for screen readers and labels each cell with its heading, escaped', () => {
    const html = dataTable(
      [{ heading: 'Date', nowrap: true }, { heading: hostile }, { heading: 'Amount', numeric: true }],
      [
        ['26 Oct 2026', '<a href="/x">x</a>', '1.00 USD'],
        ['27 Oct 2026', '', { html: '2.00 USD', attributes: { 'data-status': hostile } }],
      ],
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain(`<th scope="col" role="columnheader">${escaped}</th>`);
    expect(html).toContain('<th scope="col" role="columnheader" class="num">Amount</th>');
    expect(html).toContain('<th scope="col" role="columnheader" class="nowrap">Date</th>');
    const [table] = expectLabelledTables(html, 1);
    if (!table) throw new Error('no table');
    expect(table.headings).toEqual(['Date', escaped, 'Amount']);
    expect(table.rows).toHaveLength(2);
    expect(cellUnder(table, 'Date').classes).toEqual(['nowrap']);
    expect(cellUnder(table, escaped).html).toBe('<a href="/x">x</a>');
    expect(cellUnder(table, 'Amount').classes).toEqual(['num']);
    // An empty cell is written empty (the narrow layout hides it), its own attributes escaped.
    expect(html).toContain(`<td role="cell" data-label="${escaped}"></td>`);
    expect(html).toContain(
      `<td role="cell" class="num" data-label="Amount" data-status="${escaped}">2.00 USD</td>`,
    );
  });

  it('refuses a row whose cells do not match the columns', () => {
    expect(() => dataTable([{ heading: 'A' }, { heading: 'B' }], [['only one']])).toThrow(
      'a table row has 1 cells for 2 columns',
    );
  });
});
