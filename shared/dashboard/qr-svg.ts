/**
 * A QR code drawn on the server as inline SVG (the second factor's enrolment page): no script and
 * no image request, so the page's Content-Security-Policy (no script, images only from itself)
 * holds as it is. It is an html template (shared/web/html.ts) like every other markup: one `<path>`
 * with a unit square per dark module, inside a light quiet zone of 4 modules on every side (what
 * ISO/IEC 18004 asks for, so a camera finds the code's edge on any background), and an image to
 * assistive technology (`role="img"` with its label): the key printed beside it is what a screen
 * reader user types.
 */
import { qrModules } from '../team/totp.ts';
import { type Html, html } from '../web/html.ts';

/** The light margin around the code, in modules. */
export const quietZone = 4;
/**
 * The CSS pixels of a module: a whole number (every module as wide as the next, crisp on any
 * screen) that keeps the drawing within 256 px, so it fits a 390 px phone inside its card, but
 * never below 3 (a camera reads it off a desktop screen).
 */
export const modulePixels = (size: number): number => Math.max(3, Math.floor(256 / size));

/** The path data of the dark modules: `M x y h1 v1 h-1 z` per module, offset by the quiet zone. */
export function modulesPath(modules: readonly (readonly boolean[])[]): string {
  return modules
    .flatMap((row, y) =>
      row.flatMap((dark, x) => (dark ? [`M${x + quietZone} ${y + quietZone}h1v1h-1z`] : [])),
    )
    .join('');
}

/** `text` as a QR code: an SVG image labelled `label`. */
export function qrSvg(text: string, label: string): Html {
  const modules = qrModules(text);
  const size = modules.length + 2 * quietZone;
  const pixels = size * modulePixels(size);
  return html`<svg class="qr" role="img" aria-label="${label}" viewBox="0 0 ${size} ${size}" width="${pixels}" height="${pixels}" shape-rendering="crispEdges" focusable="false"><rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${modulesPath(modules)}"/></svg>`;
}
