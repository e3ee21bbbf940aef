/**
 * The lines and shares of a batch of claims, read once for everything one read of them computes: the
 * approval engine's amounts and the claim list's derived fields take them from the same loader, so a
 * page reads each claim's lines and shares once (two statements side by side), not once per use.
 * A loader lives for one read (a page of the claim list); it never sees a write.
 */
import { listLineFiguresOfClaims, listSharesOfClaims } from '../../db/queries/claims';
import type { ServiceContext } from '../context';

export type ClaimLineRow = Awaited<ReturnType<typeof listLineFiguresOfClaims>>[number];
export type ClaimShareRow = Awaited<ReturnType<typeof listSharesOfClaims>>[number];

export interface ClaimLinesOf {
  /** The claim's lines (withdrawn ones included, their figures only), by line number. */
  linesOf(claimId: string): ClaimLineRow[];
  /** The line's shares, by account code. */
  sharesOf(lineId: string): ClaimShareRow[];
}

export interface ClaimLineLoader {
  /** The lines and shares of these claims: read for those not read yet, in two statements side by side. */
  load(claimIds: readonly string[]): Promise<ClaimLinesOf>;
}

export function claimLineLoader(ctx: Pick<ServiceContext, 'db' | 'org'>): ClaimLineLoader {
  const lines = new Map<string, ClaimLineRow[]>();
  const shares = new Map<string, ClaimShareRow[]>();
  const view: ClaimLinesOf = { linesOf: (claimId) => lines.get(claimId) ?? [], sharesOf: (lineId) => shares.get(lineId) ?? [] };
  return {
    async load(claimIds) {
      const missing = [...new Set(claimIds)].filter((id) => !lines.has(id));
      if (missing.length === 0) return view;
      const q = { organizationId: ctx.org.id, claimIds: missing };
      const [lineRows, shareRows] = await Promise.all([listLineFiguresOfClaims(ctx.db, q), listSharesOfClaims(ctx.db, q)]);
      for (const id of missing) lines.set(id, []);
      for (const l of lineRows) lines.get(l.claimId)!.push(l);
      for (const s of shareRows) {
        const list = shares.get(s.lineId);
        if (list) list.push(s);
        else shares.set(s.lineId, [s]);
      }
      return view;
    },
  };
}
