/**
 * The MyInvois document UUID in a receipt photo's QR code: an e-invoice's QR is its validation link
 * (https://myinvois.hasil.gov.my/<uuid>/share/<long id>), whose first path segment is the 26 letters
 * and digits of the UUID. jsQR is loaded only when a photo is read.
 */
const UUID = /^[A-Za-z0-9]{26}$/;

export function einvoiceUuidFrom(text: string): string | undefined {
  const trimmed = text.trim();
  if (UUID.test(trimmed)) return trimmed;
  try {
    const url = new URL(trimmed);
    // LHDN's portal (or its pre-production twin): /<uuid>/share/<long id>.
    const m = /^\/([A-Za-z0-9]{26})\/share\//.exec(url.pathname);
    return m?.[1];
  } catch {
    return undefined;
  }
}

export async function readEinvoiceUuid(pixels: ImageData): Promise<string | undefined> {
  const { default: jsQR } = await import('jsqr');
  const code = jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: 'attemptBoth' });
  return code ? einvoiceUuidFrom(code.data) : undefined;
}
