/**
 * An e-invoice's QR code: its validation link drawn as an SVG (the qrcode package, loaded only when
 * a valid e-invoice is shown), for an <img> as a data URL. Reading a QR code is web/src/claims/einvoice-qr.ts.
 */
export async function qrImageOf(link: string): Promise<string> {
  const { toString } = await import('qrcode');
  const svg = await toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
