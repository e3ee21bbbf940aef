/** The file types an upload may be (recognised by their first bytes in services/documents/file-types.ts). */
export const ALLOWED_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/tiff', 'application/xml'] as const;
export type AllowedType = (typeof ALLOWED_TYPES)[number];
