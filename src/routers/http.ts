import type { ResponseOut } from './context';

/** Sets the ETag of the answer to the record's revision, quoted. */
export function setEtag(ctx: { out: ResponseOut }, revision: number): void {
  ctx.out.headers['ETag'] = `"${revision}"`;
}

/** Marks the answer as a creation: 201 with the new record's address. */
export function setCreated(ctx: { out: ResponseOut }, location: string): void {
  ctx.out.status = 201;
  ctx.out.headers['Location'] = location;
}
