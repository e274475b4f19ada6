/**
 * The one way the dashboard writes a table of records. Each column has a heading (a header cell
 * with `scope="col"`, so a screen reader names every cell's column) and each data cell carries its
 * column's heading as `data-label`: on a narrow screen the shell's styles (shell.ts) hide the
 * heading row from sight only and show each row as a block of "heading: value" lines, so a phone
 * never has to scroll a table sideways; on a wide one the table stays a table. Each element also
 * states its table role: a browser may drop a table's semantics once its rows are laid out as
 * blocks (WebKit does, on the phones this layout is for), and the roles keep it a table to a screen
 * reader there.
 */
import { type Html, html, joinHtml } from '../web/html.ts';

/** A column: its heading (plain text) and how its values are set. */
export interface Column {
  heading: string;
  /** An amount or a count: right-aligned on a wide screen (and never wrapped). */
  numeric?: boolean;
  /** A value that reads badly broken (a date, "Visa •••• 4242"): never wrapped on a wide screen. */
  nowrap?: boolean;
}

/**
 * A data cell: its content (text, escaped by the template, or markup), or that content with
 * attributes of its own (`{ data-status: 'active' }`).
 */
export type Cell = Html | string | { html: Html | string; attributes: Record<string, string> };

const classOf = (column: Column) => {
  const names = [column.numeric ? 'num' : '', column.nowrap ? 'nowrap' : ''].filter(Boolean);
  return names.length > 0 && html` class="${names.join(' ')}"`;
};

/** A cell's content, and its own attributes when it has any. */
const partsOf = (cell: Cell) =>
  typeof cell === 'object' && 'attributes' in cell ? cell : { html: cell, attributes: {} };

/**
 * `<table>` of `rows` under `columns`: each row one cell per column, in the columns' order. A row
 * with fewer or more cells than columns is a caller's mistake, refused rather than drawn askew.
 */
export function dataTable(columns: readonly Column[], rows: readonly (readonly Cell[])[]): Html {
  const head = columns.map(
    (column) => html`<th scope="col" role="columnheader"${classOf(column)}>${column.heading}</th>`,
  );
  const body = rows.map((cells) => {
    if (cells.length !== columns.length)
      throw new Error(`a table row has ${cells.length} cells for ${columns.length} columns`);
    const tds = cells.map((cell, i) => {
      const column = columns[i] as Column;
      const { html: content, attributes } = partsOf(cell);
      const own = Object.entries(attributes).map(([name, value]) => html` ${name}="${value}"`);
      return html`<td role="cell"${classOf(column)} data-label="${column.heading}"${own}>${content}</td>`;
    });
    return html`<tr role="row">\n${joinHtml(tds, '\n')}\n</tr>`;
  });
  return html`<table class="records" role="table">
<thead role="rowgroup"><tr role="row">${head}</tr></thead>
<tbody role="rowgroup">
${joinHtml(body, '\n')}
</tbody>
</table>`;
}
