/**
 * The file types an upload may be, recognised by their first bytes (magic numbers). Pure; it never
 * trusts the declared media type or the file name alone.
 */
import { ALLOWED_TYPES, type AllowedType } from '../../domain/documents';
export { ALLOWED_TYPES, type AllowedType };

/** Declared media types that name the same thing as a canonical one. */
const ALIASES: Record<string, AllowedType> = {
  'text/xml': 'application/xml',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/heif': 'image/heic',
  'image/heic-sequence': 'image/heic',
  'image/heif-sequence': 'image/heic',
};

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

const starts = (buf: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => buf[offset + i] === b);
const ascii = (buf: Buffer, from: number, to: number) => buf.subarray(from, to).toString('latin1');

export function detectType(buf: Buffer): AllowedType | undefined {
  if (ascii(buf, 0, 5) === '%PDF-') return 'application/pdf';
  if (starts(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(buf, 4, 8) === 'ftyp' && HEIC_BRANDS.has(ascii(buf, 8, 12))) return 'image/heic';
  if (starts(buf, [0x49, 0x49, 0x2a, 0x00]) || starts(buf, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (looksLikeXml(buf)) return 'application/xml';
  return undefined;
}

function looksLikeXml(buf: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, 4096 * 4));
  } catch {
    // A cut in the middle of a multi-byte character at the sample's end is not a reason to refuse.
    if (buf.length <= 4096 * 4) return false;
    text = buf.subarray(0, 4096 * 4).toString('utf8');
  }
  const body = text.replace(/^\uFEFF/, '').trimStart();
  return body.startsWith('<?xml') || /^<[A-Za-z_][\w.:-]*[\s/>]/.test(body);
}

/** The canonical type a declared media type names, or undefined when it is not one we accept. */
export function canonicalType(declared: string | undefined): AllowedType | 'application/octet-stream' | undefined {
  const base = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (!base || base === 'application/octet-stream') return 'application/octet-stream';
  if ((ALLOWED_TYPES as readonly string[]).includes(base)) return base as AllowedType;
  return ALIASES[base];
}
