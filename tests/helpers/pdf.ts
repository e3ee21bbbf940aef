/**
 * Reading a PDF the way a person would, with npm packages only (no poppler or other system tool, so
 * it runs on a clean CI machine): its text, line by line, through pdfjs-dist's legacy (Node) build,
 * and the QR codes of its embedded images, decoded from their pixels with jsqr. pdfjs-dist 5 needs
 * its optional dependency @napi-rs/canvas on Node (for DOMMatrix, even when only parsing); npm
 * installs it as a prebuilt package from the registry, like any other.
 */
import jsQR from 'jsqr';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>['getPage']>>;

/** Runs `use` on every page of the PDF, then frees the document (pdfjs keeps its parse otherwise). */
async function eachPage(buffer: Buffer, use: (page: PdfPage) => Promise<void>): Promise<void> {
  // Parsing only (nothing is drawn), no system fonts. A copy, because pdfjs detaches the array.
  const task = pdfjs.getDocument({ data: new Uint8Array(buffer), isOffscreenCanvasSupported: false, useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  const doc = await task.promise;
  try {
    for (let i = 1; i <= doc.numPages; i++) await use(await doc.getPage(i));
  } finally {
    await task.destroy();
  }
}

interface Item {
  str: string;
  x: number;
  y: number;
  w: number;
}

/**
 * The text of every page, one line of the page per line of the answer (top to bottom), the pieces of
 * a line in reading order and separated by one space when the page leaves a gap between them.
 * Pages are separated by a form feed.
 */
export async function pdfText(buffer: Buffer): Promise<string> {
  const out: string[] = [];
  await eachPage(buffer, async (page) => {
    const content = await page.getTextContent();
    const items: Item[] = [];
    for (const it of content.items) {
      if (!('str' in it) || it.str === '') continue;
      items.push({ str: it.str, x: it.transform[4] as number, y: it.transform[5] as number, w: it.width });
    }
    // Lines: items whose baselines are within 2 points of each other.
    items.sort((a, b) => b.y - a.y || a.x - b.x);
    const lines: Item[][] = [];
    for (const it of items) {
      const line = lines.find((l) => Math.abs(l[0]!.y - it.y) < 2);
      if (line) line.push(it);
      else lines.push([it]);
    }
    lines.sort((a, b) => b[0]!.y - a[0]!.y);
    out.push(
      lines
        .map((l) => {
          l.sort((a, b) => a.x - b.x);
          let s = '';
          let end = -Infinity;
          for (const it of l) {
            if (s && it.x - end > 0.5 && !s.endsWith(' ') && !it.str.startsWith(' ')) s += ' ';
            s += it.str;
            end = it.x + it.w;
          }
          return s.replace(/\s+/g, ' ').trim();
        })
        .join('\n'),
    );
  });
  return out.join('\n\f\n');
}

interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** An image's pixels as RGBA, whatever pdfjs decoded it to (1-bit grey, RGB or RGBA). */
function rgba(img: DecodedImage): Uint8ClampedArray {
  const n = img.width * img.height;
  const out = new Uint8ClampedArray(n * 4);
  if (img.kind === pdfjs.ImageKind.RGBA_32BPP) {
    out.set(img.data.subarray(0, n * 4));
  } else if (img.kind === pdfjs.ImageKind.RGB_24BPP) {
    for (let p = 0; p < n; p++) {
      out[p * 4] = img.data[p * 3]!;
      out[p * 4 + 1] = img.data[p * 3 + 1]!;
      out[p * 4 + 2] = img.data[p * 3 + 2]!;
      out[p * 4 + 3] = 255;
    }
  } else {
    // GRAYSCALE_1BPP: rows padded to whole bytes, 1 = white.
    const rowBytes = (img.width + 7) >> 3;
    for (let y = 0; y < img.height; y++) {
      for (let x = 0; x < img.width; x++) {
        const bit = (img.data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
        const v = bit ? 255 : 0;
        const p = (y * img.width + x) * 4;
        out[p] = out[p + 1] = out[p + 2] = v;
        out[p + 3] = 255;
      }
    }
  }
  return out;
}

/** The text of every QR code found in the PDF's images, in page order. */
export async function pdfQrCodes(buffer: Buffer): Promise<string[]> {
  const found: string[] = [];
  await eachPage(buffer, async (page) => {
    const ops = await page.getOperatorList();
    for (let i = 0; i < ops.fnArray.length; i++) {
      if (ops.fnArray[i] !== pdfjs.OPS.paintImageXObject) continue;
      const name = (ops.argsArray[i] as unknown[])[0] as string;
      const objs = name.startsWith('g_') ? page.commonObjs : page.objs;
      const img = await new Promise<DecodedImage>((resolve) => objs.get(name, resolve));
      if (!img?.data) continue;
      const code = jsQR(rgba(img), img.width, img.height);
      if (code) found.push(code.data);
    }
  });
  return found;
}
