import { describe, expect, it } from 'vitest';
import { cellUnder, expectLabelledTables } from '../../test/support/records-table.ts';
import { html, render } from '../web/html.ts';
import { dataTable } from './table.ts';

const hostile = `<script>alert("x")</script>'&`;
const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;';

describe('the dashboard table', () => {
  it('heads each column for screen readers and labels each cell with its heading, escaped', () => {
    const written = render(
      dataTable(
        [{ heading: 'Date', nowrap: true }, { heading: hostile }, { heading: 'Amount', numeric: true }],
        [
          ['26 Oct 2026', html`<a href="/x">x</a>`, '1.00 USD'],
          ['27 Oct 2026', '', { html: '2.00 USD', attributes: { 'data-status': hostile } }],
        ],
      ),
    );
    expect(written).not.toContain('<script>');
    expect(written).toContain(`<th scope="col" role="columnheader">${escaped}</th>`);
    expect(written).toContain('<th scope="col" role="columnheader" class="num">Amount</th>');
    expect(written).toContain('<th scope="col" role="columnheader" class="nowrap">Date</th>');
    const [table] = expectLabelledTables(written, 1);
    if (!table) throw new Error('no table');
    expect(table.headings).toEqual(['Date', escaped, 'Amount']);
    expect(table.rows).toHaveLength(2);
    expect(cellUnder(table, 'Date').classes).toEqual(['nowrap']);
    expect(cellUnder(table, escaped).html).toBe('<a href="/x">x</a>');
    expect(cellUnder(table, 'Amount').classes).toEqual(['num']);
    // An empty cell is written empty (the narrow layout hides it), its own attributes escaped.
    expect(written).toContain(`<td role="cell" data-label="${escaped}"></td>`);
    expect(written).toContain(
      `<td role="cell" class="num" data-label="Amount" data-status="${escaped}">2.00 USD</td>`,
    );
  });

  it('writes a cell given as text as text, escaped: only markup made by a template is markup', () => {
    const written = render(dataTable([{ heading: 'Name' }], [[hostile]]));
    expect(written).not.toContain('<script>');
    expect(written).toContain(`<td role="cell" data-label="Name">${escaped}</td>`);
  });

  it('refuses a row whose cells do not match the columns', () => {
    expect(() => dataTable([{ heading: 'A' }, { heading: 'B' }], [['only one']])).toThrow(
      'a table row has 1 cells for 2 columns',
    );
  });
});
