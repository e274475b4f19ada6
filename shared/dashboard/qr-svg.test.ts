/**
 * The QR code as inline SVG, without a stack: the drawing read back module by module is the code
 * uqr made, inside a light quiet zone of 4 modules; the three finder patterns sit at three corners
 * (so a camera can find it: checked against the standard's pattern, not against uqr); and the
 * label is text, escaped, with no script anywhere.
 */
import { describe, expect, it } from 'vitest';
import { qrModules, totpUri } from '../team/totp.ts';
import { render } from '../web/html.ts';
import { modulePixels, modulesPath, qrSvg, quietZone } from './qr-svg.ts';

const uri = totpUri('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'ada@example.com', 'cobro (Ada & Co)');

/** The dark modules a drawing's path covers, as `x,y` in the view box. */
function drawnModules(svg: string): Set<string> {
  const d = /<path fill="#000" d="([^"]*)"/.exec(svg)?.[1] ?? '';
  const squares = [...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)];
  // Every piece of the path is a unit square: nothing else is drawn.
  expect(squares.map((square) => square[0]).join('')).toBe(d);
  return new Set(squares.map(([, x, y]) => `${x},${y}`));
}

/** ISO/IEC 18004's finder pattern: a 7×7 dark ring, a light ring, a 3×3 dark centre. */
const finder = (x: number, y: number) => Math.max(Math.abs(x - 3), Math.abs(y - 3)) !== 2;

describe('qrSvg', () => {
  it('draws each dark module of the code as a unit square, offset by the quiet zone', () => {
    const svg = render(qrSvg(uri, 'QR'));
    const modules = qrModules(uri);
    const size = modules.length;
    // A version's size: 21 modules for version 1, 4 more for each version after.
    expect((size - 17) % 4).toBe(0);
    expect(svg).toContain(`viewBox="0 0 ${size + 8} ${size + 8}"`);
    const expected = new Set(
      modules.flatMap((row, y) =>
        row.flatMap((dark, x) => (dark ? [`${x + quietZone},${y + quietZone}`] : [])),
      ),
    );
    expect(drawnModules(svg)).toEqual(expected);
    expect(expected.size).toBeGreaterThan(size * 4);
  });

  it('leaves the quiet zone light and puts the finder patterns at three corners', () => {
    const svg = render(qrSvg(uri, 'QR'));
    const drawn = drawnModules(svg);
    const size = qrModules(uri).length;
    const dark = (x: number, y: number) => drawn.has(`${x + quietZone},${y + quietZone}`);
    for (const key of drawn) {
      const [x, y] = key.split(',').map(Number) as [number, number];
      expect(x >= quietZone && x < size + quietZone && y >= quietZone && y < size + quietZone, key).toBe(
        true,
      );
    }
    for (const [left, top] of [
      [0, 0],
      [size - 7, 0],
      [0, size - 7],
    ] as const)
      for (let y = 0; y < 7; y += 1)
        for (let x = 0; x < 7; x += 1)
          expect(dark(left + x, top + y), `${left + x},${top + y}`).toBe(finder(x, y));
    // The fourth corner has none.
    expect([0, 1, 2, 3, 4, 5, 6].every((i) => finder(i, 0) === dark(size - 7 + i, size - 7))).toBe(false);
  });

  it('is an image with its label as escaped text, a white ground, and no script', () => {
    const svg = render(qrSvg(uri, 'Add <script>alert(1)</script> "now"'));
    expect(svg).toMatch(
      /^<svg class="qr" role="img" aria-label="Add &lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;now&quot;"/,
    );
    expect(svg).not.toMatch(/<script|<image|href=|style=/i);
    expect(svg).toMatch(/<rect width="(\d+)" height="\1" fill="#fff"\/>/);
    expect(svg.endsWith('</svg>')).toBe(true);
  });
});

describe('the drawing’s size', () => {
  it('is a whole number of pixels a module, within 256 px, never under 3 px a module', () => {
    const modules = qrModules(uri).length + 2 * quietZone;
    const svg = render(qrSvg(uri, 'QR'));
    const width = Number(/ width="(\d+)" height="\1"/.exec(svg)?.[1]);
    expect(width).toBe(modules * modulePixels(modules));
    expect(width).toBeLessThanOrEqual(256);
    expect(modulePixels(21 + 8)).toBe(8);
    expect(modulePixels(93)).toBe(3);
  });
});

describe('modulesPath', () => {
  it('writes one square per dark module, row by row', () => {
    expect(
      modulesPath([
        [true, false],
        [false, true],
      ]),
    ).toBe('M4 4h1v1h-1zM5 5h1v1h-1z');
    expect(modulesPath([[false]])).toBe('');
  });
});
