import { AppError } from '../lib/errors';
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

/**
 * The revision a write against an existing record expects, from If-Match (`"3"`, as ETag gave it;
 * a bare 3 or a weak W/"3" are read the same). Missing: 428 `revision_required`; not a revision: 400.
 * The service compares it with the locked record (409 `revision_mismatch` when stale).
 */
export function expectedRevision(ctx: { ifMatch?: string }): number {
  const raw = ctx.ifMatch?.trim();
  if (!raw) {
    throw new AppError('revision_required', {
      detail: 'Send the If-Match header with the revision the ETag gave (for example If-Match: "3")',
      errors: [{ pointer: '/headers/if-match', detail: 'is required' }],
    });
  }
  const m = /^(?:W\/)?"?(\d{1,9})"?$/.exec(raw);
  if (!m) {
    throw new AppError('invalid_request', {
      detail: 'If-Match must carry one revision as the ETag gave it (for example "3")',
      errors: [{ pointer: '/headers/if-match', detail: 'is not a revision' }],
    });
  }
  return Number(m[1]);
}
