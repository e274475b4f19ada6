/**
 * The text of a PDF, as a reader extracts it (Mozilla's pdf.js): each page's text items joined by
 * spaces, pages by new lines; and its first page rendered to an image. For tests that check what a
 * generated PDF says and that it draws it.
 */
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDocument, type PDFPageProxy, Util } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfContent {
  pages: number;
  text: string;
  title: string | undefined;
}

export async function pdfContent(bytes: Uint8Array): Promise<PdfContent> {
  // pdf.js takes the buffer over: hand it a copy.
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const content = await (await doc.getPage(number)).getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str : ''))
          .filter((text) => text.length > 0)
          .join(' '),
      );
    }
    const { info } = (await doc.getMetadata()) as { info: { Title?: string } };
    return { pages: doc.numPages, text: pages.join('\n'), title: info.Title };
  } finally {
    await task.destroy();
  }
}

/** A rectangle of a rendered page, in its image's pixels from the top left. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RenderedPage {
  /** The page as a PNG image. */
  png: Uint8Array;
  width: number;
  height: number;
  /** The page's text as pdf.js reads it (its text items joined by spaces). */
  text: string;
  /** Where each non-empty text item is drawn in the image. */
  items: { text: string; box: Box }[];
  /** The share (0 to 1) of the box's pixels that are dark: ink, not paper. */
  darkShare(box: Box): number;
}

/** What pdf.js's Node canvas factory (over @napi-rs/canvas) hands out: only what is used here. */
interface NodeCanvas {
  width: number;
  height: number;
  encode(format: 'png'): Promise<Uint8Array>;
}
interface NodeContext {
  getImageData(x: number, y: number, width: number, height: number): { data: Uint8ClampedArray };
}
interface CanvasFactory {
  create(width: number, height: number): { canvas: NodeCanvas; context: NodeContext };
}
type RenderParameters = Parameters<PDFPageProxy['render']>[0];

/**
 * Renders the first page of a PDF to an image at `scale` (1 = 72 pixels per inch) as a reader
 * draws it: pdf.js on a canvas (@napi-rs/canvas, pdf.js's own choice in Node), the standard fonts a
 * PDF names but does not embed drawn from the faces pdf.js ships, on a white page.
 */
export async function renderFirstPage(bytes: Uint8Array, scale: number): Promise<RenderedPage> {
  const task = getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    standardFontDataUrl:
      fileURLToPath(new URL('standard_fonts/', import.meta.resolve('pdfjs-dist/package.json'))) + sep,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale });
    const width = Math.ceil(viewport.width);
    const height = Math.ceil(viewport.height);
    const { canvas, context } = (doc.canvasFactory as CanvasFactory).create(width, height);
    // The Node canvas stands in for the DOM's, which the parameters' types name.
    await page.render({
      canvas: canvas as unknown as RenderParameters['canvas'],
      canvasContext: context as unknown as RenderParameters['canvasContext'],
      viewport,
    }).promise;
    const pixels = context.getImageData(0, 0, width, height).data;
    const content = await page.getTextContent();
    const items = content.items.flatMap((item) => {
      if (!('str' in item) || item.str.trim() === '') return [];
      const [, , c = 0, d = 0, x = 0, baseline = 0] = Util.transform(viewport.transform, item.transform);
      const size = Math.hypot(c, d);
      return [{ text: item.str, box: { x, y: baseline - size, width: item.width * scale, height: size } }];
    });
    return {
      png: await canvas.encode('png'),
      width,
      height,
      text: content.items
        .map((item) => ('str' in item ? item.str : ''))
        .filter((text) => text.length > 0)
        .join(' '),
      items,
      darkShare: (box) => {
        const left = Math.max(0, Math.floor(box.x));
        const top = Math.max(0, Math.floor(box.y));
        const right = Math.min(width, Math.ceil(box.x + box.width));
        const bottom = Math.min(height, Math.ceil(box.y + box.height));
        let dark = 0;
        for (let y = top; y < bottom; y++)
          for (let x = left; x < right; x++) {
            const i = (y * width + x) * 4;
            // Luminance under half, on an opaque pixel: black and the accent blue alike count.
            const luminance =
              0.2126 * (pixels[i] ?? 255) + 0.7152 * (pixels[i + 1] ?? 255) + 0.0722 * (pixels[i + 2] ?? 255);
            if ((pixels[i + 3] ?? 0) > 128 && luminance < 128) dark += 1;
          }
        const area = (right - left) * (bottom - top);
        return area > 0 ? dark / area : 0;
      },
    };
  } finally {
    await task.destroy();
  }
}
