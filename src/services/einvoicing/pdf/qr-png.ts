/**
 * The MyInvois validation link as a QR code image for the printed e-invoice. Written here as a plain
 * 8-bit RGB PNG (no alpha, no palette, no interlace) from the code's modules rather than taken from
 * the QR library's PNG writer, which always writes RGBA: pdfkit would split the alpha channel into a
 * soft mask, and a reader of the PDF (or a test decoding the embedded image) would have to composite
 * it back. Black on white, with LHDN's usual 4-module quiet zone.
 */
import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of `text` as a QR code: `scale` pixels a module, `margin` modules of white around it. */
export function qrPng(text: string, opts: { scale?: number; margin?: number } = {}): Buffer {
  const scale = opts.scale ?? 4;
  const margin = opts.margin ?? 4;
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const side = (n + 2 * margin) * scale;
  const rowBytes = 1 + side * 3;
  const raw = Buffer.alloc(rowBytes * side, 0xff);
  for (let y = 0; y < side; y++) {
    raw[y * rowBytes] = 0; // filter type None
    const my = Math.floor(y / scale) - margin;
    for (let x = 0; x < side; x++) {
      const mx = Math.floor(x / scale) - margin;
      const dark = my >= 0 && my < n && mx >= 0 && mx < n && qr.modules.get(my, mx) === 1;
      if (dark) raw.fill(0, y * rowBytes + 1 + x * 3, y * rowBytes + 1 + x * 3 + 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // filter method
  ihdr[12] = 0; // no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
