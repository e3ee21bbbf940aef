/**
 * Text on the PDFs a customer receives (invoices, statements, receipts) in every script a Malaysian
 * customer's name is written in: Latin and Malay through pdfkit's standard fonts (Helvetica, nothing
 * embedded), Chinese (Simplified and the Traditional characters of common names) through Noto Sans SC
 * and Tamil through Noto Sans Tamil, both embedded and subset by pdfkit to the glyphs a document
 * uses (a page of names adds kilobytes, not the fonts' megabytes). A string is cut into runs by
 * script and each run is written in its own font; a character no font here has prints as "?".
 *
 * The font files come from npm packages pinned in package.json and are read from disk once per
 * process, on the first PDF that needs them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const requireFile = createRequire(import.meta.url);

/** The names the embedded fonts are registered under in each PDF. */
const CJK = 'NotoSansSC';
const TAMIL = 'NotoSansTamil';

/** Helvetica's and Helvetica-Bold's ascent, in thousandths of the font size (their AFM files). */
const HELVETICA_ASCENDER = 718;

type Script = 'latin' | 'cjk' | 'tamil' | 'neutral' | 'none';

let files: { cjk: Buffer; tamil: Buffer } | undefined;

function fontFiles(): { cjk: Buffer; tamil: Buffer } {
  files ??= {
    cjk: readFileSync(requireFile.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf')),
    tamil: readFileSync(requireFile.resolve('@expo-google-fonts/noto-sans-tamil/400Regular/NotoSansTamil_400Regular.ttf')),
  };
  return files;
}

// The characters the standard fonts' WinAnsi encoding has beyond Latin-1.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function scriptOf(ch: string): Script {
  const c = ch.codePointAt(0) ?? 0;
  // Spaces and ASCII punctuation join the run they sit in, so "陈大文 (Tan)" is two runs, not four.
  if (c === 0x20 || (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40)) return 'neutral';
  if ((c > 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)) return 'latin';
  if (c >= 0x0b80 && c <= 0x0bff) return 'tamil';
  // Tamil text is shaped with these joiners.
  if (c === 0x200c || c === 0x200d) return 'tamil';
  if (
    (c >= 0x2e80 && c <= 0x2fdf) || // radicals
    (c >= 0x3000 && c <= 0x30ff) || // CJK punctuation, kana
    (c >= 0x3100 && c <= 0x312f) || // bopomofo
    (c >= 0x3400 && c <= 0x4dbf) || // extension A
    (c >= 0x4e00 && c <= 0x9fff) || // unified ideographs
    (c >= 0xf900 && c <= 0xfaff) || // compatibility ideographs
    (c >= 0xff00 && c <= 0xffef) || // full-width forms
    (c >= 0x20000 && c <= 0x2fa1f) // extensions B to F, compatibility supplement
  )
    return 'cjk';
  return 'none';
}

export interface TextRun {
  script: 'latin' | 'cjk' | 'tamil';
  text: string;
}

/** The string cut into runs of one script each; tabs and returns become spaces, unknown characters "?". */
export function textRuns(s: string): TextRun[] {
  const runs: TextRun[] = [];
  let neutral = '';
  for (const raw of s) {
    const ch = raw === '\t' || raw === '\r' ? ' ' : raw;
    let script = ch === '\n' ? 'neutral' : scriptOf(ch);
    let out = ch;
    if (script === 'none') {
      script = 'latin';
      out = '?';
    }
    const last = runs[runs.length - 1];
    if (script === 'neutral') {
      if (last) last.text += out;
      else neutral += out;
      continue;
    }
    if (last && last.script === script) last.text += out;
    else runs.push({ script, text: neutral + out } as TextRun);
    neutral = '';
  }
  if (neutral) runs.push({ script: 'latin', text: neutral });
  return runs;
}

/** The text as the standard fonts alone print it (document information, for one). */
export function latinOnly(s: string): string {
  return textRuns(s)
    .map((r) => (r.script === 'latin' ? r.text : r.text.replace(/[^\x20-\x7e\n]/g, '?')))
    .join('');
}

/**
 * Writes text in the right font per script. `latinFont` is the standard font the Latin runs are in
 * (Helvetica or Helvetica-Bold); the embedded fonts have one weight, so a bold Chinese name prints in
 * the regular weight. The font is left at `latinFont`.
 */
export class PdfText {
  private registered = false;

  constructor(private readonly pdf: PDFKit.PDFDocument) {}

  private fontFor(script: TextRun['script'], latinFont: string): string {
    if (script === 'latin') return latinFont;
    if (!this.registered) {
      const f = fontFiles();
      this.pdf.registerFont(CJK, f.cjk);
      this.pdf.registerFont(TAMIL, f.tamil);
      this.registered = true;
    }
    return script === 'cjk' ? CJK : TAMIL;
  }

  write(s: string, latinFont: string, x: number, y: number, textOptions: PDFKit.Mixins.TextOptions = {}): PDFKit.PDFDocument {
    const runs = textRuns(s);
    const pdf = this.pdf;
    // Every run sits on the baseline the standard font would have: pdfkit puts a run's baseline at
    // its own font's ascent below y, and Noto's ascent is larger than Helvetica's.
    const size = (pdf as unknown as { _fontSize: number })._fontSize;
    const opts = { ...textOptions, baseline: -((HELVETICA_ASCENDER / 1000) * size) };
    if (runs.length <= 1) {
      const run = runs[0] ?? { script: 'latin' as const, text: '' };
      pdf.font(this.fontFor(run.script, latinFont)).text(run.text, x, y, opts);
      return pdf.font(latinFont);
    }
    runs.forEach((run, i) => {
      pdf.font(this.fontFor(run.script, latinFont));
      const continued = i < runs.length - 1;
      if (i === 0) pdf.text(run.text, x, y, { ...opts, continued });
      else pdf.text(run.text, { ...opts, continued });
    });
    return pdf.font(latinFont);
  }

  /** The height the text takes in `width`, measured in the widest font it uses. */
  heightOf(s: string, latinFont: string, opts: PDFKit.Mixins.TextOptions): number {
    const runs = textRuns(s);
    const script = runs.some((r) => r.script === 'cjk') ? 'cjk' : runs.some((r) => r.script === 'tamil') ? 'tamil' : 'latin';
    const text = runs.map((r) => r.text).join('');
    const h = this.pdf.font(this.fontFor(script, latinFont)).heightOfString(text, opts);
    this.pdf.font(latinFont);
    return h;
  }

  widthOf(s: string, latinFont: string): number {
    let w = 0;
    for (const r of textRuns(s)) w += this.pdf.font(this.fontFor(r.script, latinFont)).widthOfString(r.text);
    this.pdf.font(latinFont);
    return w;
  }
}

/** The PDF's bytes once pdfkit has written them all (after `end()`). */
export function collectPdf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
