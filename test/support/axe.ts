/**
 * axe-core's accessibility check of a page in real Chromium. axe runs in the page through the
 * browser's debugging protocol, which the page's Content-Security-Policy (no script at all) does
 * not govern: the pages themselves stay as they are served.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's violations of the page as it is now that are serious or critical, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations, passed } = (await page.evaluate(`(async () => {
    if (!window.axe) { ${axeSource}\n }
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return {
      passed: result.passes.length,
      violations: result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) })),
    };
  })()`)) as { violations: Violation[]; passed: number };
  // axe ran its rules on the page (a page it could not read would pass nothing).
  expect(passed).toBeGreaterThan(10);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * The check a browser test makes of each page it reaches: no serious or critical axe violation,
 * and nothing wider than the window (at each of `widths`, when given, else at the window's own),
 * recording the page's name in `checked` so the test can assert which pages it checked.
 */
export function pageChecks(page: Page, options: { widths?: readonly number[] } = {}) {
  const checked: string[] = [];
  const check = async (name: string) => {
    expect(await seriousViolations(page), name).toEqual([]);
    for (const width of options.widths ?? [undefined]) {
      if (width !== undefined) await page.setViewportSize({ width, height: 900 });
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow, `${name}${width ? ` at ${width} px` : ''}`).toBeLessThanOrEqual(0);
    }
    checked.push(name);
  };
  return { checked, check };
}
