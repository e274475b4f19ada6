/**
 * The receipt as a PDF (docs/design.md#receipts): one A4 page with the same fields as the page,
 * drawn with pdf-lib (pure JavaScript, no browser, small enough for a Lambda bundle) in the standard
 * Helvetica fonts, which every PDF reader has, so nothing is embedded. Those fonts write the
 * Windows-1252 characters only (Latin, Spanish included); any other character of a merchant's name
 * or a description is shown as `?` rather than failing the receipt.
 */
import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { type ReceiptView, receiptAmount, receiptRows, receiptTexts } from './receipt.ts';

/** The characters Windows-1252 has beyond Latin-1 (0x80–0x9F), which the standard fonts draw. */
const cp1252Extras = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** `text` with every character the standard fonts cannot draw replaced: controls by spaces, others by `?`. */
export function drawable(text: string): string {
  return Array.from(text.normalize('NFC'), (char) => {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0 && !cp1252Extras.has(char))) return ' ';
    if (code < 0x100 || cp1252Extras.has(char)) return char;
    return '?';
  }).join('');
}

/** `text` cut into lines no wider than `width` at `size`, at spaces where it can. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const tried = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(tried, size) <= width) {
      line = tried;
      continue;
    }
    if (line) lines.push(line);
    // A word wider than the line on its own is cut where it overflows.
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

const ink = rgb(0.1, 0.1, 0.1);
const muted = rgb(0.4, 0.42, 0.45);
const accent = rgb(0.12, 0.37, 1);

/** The receipt's PDF bytes. */
export async function receiptPdf(view: ReceiptView): Promise<Uint8Array> {
  const t = receiptTexts[view.language];
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  doc.setTitle(drawable(`${t.title} ${view.reference} · ${view.merchant}`));
  doc.setAuthor(drawable(view.merchant));
  doc.setProducer('cobro');
  doc.setCreator('cobro');
  doc.setLanguage(view.language);
  const page = doc.addPage([595.28, 841.89]); // A4, in points
  const left = 56;
  const width = page.getWidth() - 2 * left;
  let y = page.getHeight() - 72;

  const lines = (text: string, font: PDFFont, size: number, color = ink, indent = 0) => {
    for (const line of wrap(drawable(text), font, size, width - indent)) {
      page.drawText(line, { x: left + indent, y, size, font, color });
      y -= size * 1.35;
    }
  };

  if (view.test) {
    lines(t.test, bold, 10, rgb(0.45, 0.32, 0));
    y -= 6;
  }
  lines(view.merchant, bold, 18);
  y -= 4;
  lines(t.heading, regular, 12, muted);
  y -= 10;
  lines(receiptAmount(view), bold, 28, accent);
  y -= 8;
  lines(t.thanks(view.merchant), regular, 11);
  y -= 14;
  page.drawLine({
    start: { x: left, y: y + 8 },
    end: { x: left + width, y: y + 8 },
    thickness: 0.75,
    color: rgb(0.82, 0.84, 0.87),
  });
  y -= 10;
  const labelWidth = 120;
  for (const [label, value] of receiptRows(view)) {
    const top = y;
    page.drawText(drawable(label), { x: left, y: top, size: 11, font: regular, color: muted });
    lines(value, bold, 11, ink, labelWidth);
    y = Math.min(y, top - 11 * 1.35) - 6;
  }
  y -= 12;
  lines(t.keep, regular, 10, muted);
  return doc.save();
}
