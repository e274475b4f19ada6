/**
 * The text of a PDF, as a reader extracts it (Mozilla's pdf.js): each page's text items joined by
 * spaces, pages by new lines. For tests that check what a generated PDF says.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

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
