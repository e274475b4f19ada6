/**
 * The dashboard's tables as a test reads them (shared/dashboard/table.ts writes them): each table's
 * column headings and, for each row, its cells with the `data-label` each carries. The views tests
 * check with it that every cell of every table is labelled with its own column's heading, which is
 * what a phone shows beside the value.
 */
import { expect } from 'vitest';

export interface ReadCell {
  label: string | undefined;
  classes: string[];
  html: string;
}

export interface ReadTable {
  headings: string[];
  rows: ReadCell[][];
}

const attribute = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];

/** Every table of a page, headings as written (escaped) and each row's cells. */
export function readTables(html: string): ReadTable[] {
  return (html.match(/<table[\s>][\s\S]*?<\/table>/g) ?? []).map((table) => {
    const headings = [...table.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((match) => match[1] ?? '');
    const rows = [...table.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)]
      .map((row) =>
        [...(row[1] ?? '').matchAll(/<td\b([^>]*)>([\s\S]*?)<\/td>/g)].map((cell) => ({
          label: attribute(cell[1] ?? '', 'data-label'),
          classes: (attribute(cell[1] ?? '', 'class') ?? '').split(' ').filter(Boolean),
          html: cell[2] ?? '',
        })),
      )
      .filter((cells) => cells.length > 0);
    return { headings, rows };
  });
}

/**
 * The page has `count` tables (each with rows), each a table of the dashboard's one kind: every
 * heading a `<th scope="col">`, every row one cell per heading, each cell labelled with its
 * column's heading. Returns the tables, for a test to look at a cell.
 */
export function expectLabelledTables(html: string, count: number): ReadTable[] {
  const tables = readTables(html);
  expect(tables).toHaveLength(count);
  expect(html.match(/<table class="records" role="table">/g) ?? []).toHaveLength(count);
  expect(
    html.match(/<th\b[^>]*>/g)?.every((th) => th.startsWith('<th scope="col" role="columnheader"')),
  ).toBe(true);
  // Every row and cell keeps its role when a narrow screen lays the rows out as blocks.
  expect((html.match(/<tr\b[^>]*>/g) ?? []).every((tr) => tr === '<tr role="row">')).toBe(true);
  expect((html.match(/<td\b[^>]*>/g) ?? []).every((td) => td.startsWith('<td role="cell"'))).toBe(true);
  for (const table of tables) {
    expect(table.headings.length).toBeGreaterThan(0);
    expect(table.rows.length).toBeGreaterThan(0);
    for (const row of table.rows) expect(row.map((cell) => cell.label)).toEqual(table.headings);
  }
  return tables;
}

/** The cell of `table`'s first row under `heading` (as written in the page, escaped). */
export function cellUnder(table: ReadTable, heading: string): ReadCell {
  const index = table.headings.indexOf(heading);
  expect(index, `no column ${heading} in ${table.headings.join(', ')}`).toBeGreaterThanOrEqual(0);
  const cell = table.rows[0]?.[index];
  if (!cell) throw new Error(`no cell under ${heading}`);
  return cell;
}
