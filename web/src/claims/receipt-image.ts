/**
 * A receipt photo made ready to upload, in the browser: decoded (any image the browser reads, HEIC
 * where it can), scaled so its longer side is at most 2400 px, drawn on a canvas and encoded as JPEG,
 * lowering the quality, then the size, until the file is at most 2 MB. An approver's browser can
 * always show a JPEG. Loaded with import() when a photo is chosen.
 */
export const MAX_RECEIPT_BYTES = 2 * 1024 * 1024;
const MAX_SIDE = 2400;
const QUALITIES = [0.85, 0.75, 0.65, 0.55, 0.45];

export interface PreparedReceipt {
  /** The JPEG to upload. */
  blob: Blob;
  filename: string;
  /** The pixels as drawn, for the QR reader (at most 1600 px on the longer side). */
  pixels: ImageData | undefined;
}

async function decode(file: Blob): Promise<ImageBitmap | HTMLImageElement> {
  if (typeof createImageBitmap === 'function') {
    try {
      return await createImageBitmap(file, { imageOrientation: 'from-image' });
    } catch {
      // Some browsers decode more through <img> than through createImageBitmap.
    }
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return img;
  } finally {
    URL.revokeObjectURL(url);
  }
}

function toBlob(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the image could not be encoded'))), 'image/jpeg', quality));
}

function draw(image: CanvasImageSource, width: number, height: number, scale: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const g = canvas.getContext('2d');
  if (!g) throw new Error('no canvas in this browser');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvas;
}

export async function prepareReceiptImage(file: File): Promise<PreparedReceipt> {
  const image = await decode(file);
  const width = 'naturalWidth' in image ? image.naturalWidth : image.width;
  const height = 'naturalHeight' in image ? image.naturalHeight : image.height;
  let scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const base = file.name.replace(/\.[^.]*$/, '') || 'receipt';
  let pixels: ImageData | undefined;
  for (let attempt = 0; attempt < 8; attempt++) {
    const canvas = draw(image, width, height, scale);
    if (!pixels) {
      const qrScale = Math.min(1, 1600 / Math.max(canvas.width, canvas.height));
      const small = qrScale < 1 ? draw(canvas, canvas.width, canvas.height, qrScale) : canvas;
      pixels = small.getContext('2d')?.getImageData(0, 0, small.width, small.height);
    }
    for (const quality of QUALITIES) {
      const blob = await toBlob(canvas, quality);
      if (blob.size <= MAX_RECEIPT_BYTES) {
        if ('close' in image) image.close();
        return { blob, filename: `${base}.jpg`, pixels };
      }
    }
    scale *= 0.75;
  }
  throw new Error('the photo could not be made small enough');
}
