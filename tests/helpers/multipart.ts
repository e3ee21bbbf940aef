/** A multipart/form-data body with one file part, for fastify.inject. */
export function multipartBody(file: { name?: string; filename: string; contentType: string; content: Buffer }, boundary = 'X-TEST-BOUNDARY-7f3a') {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, file.content, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const SAMPLE_PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
export const SAMPLE_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);
