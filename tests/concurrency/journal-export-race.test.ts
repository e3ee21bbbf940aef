/**
 * Exports racing on PostgreSQL: every entry lands in exactly one batch, the batches are numbered
 * 1..n without gaps, and an export that finds nothing left is 409 with no number used.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listEntries } from '../../src/db/queries/journal';
import { createReceiptWorld } from '../factories/receipts';
import { bearer } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';

const t = useTestApp();

describe.skipIf(!onPostgres)('journal exports racing (PostgreSQL)', () => {
  it('eight exports at once over twelve entries: each entry in one batch, numbers gapless', async () => {
    const w = await createReceiptWorld(t);
    const days = ['2025-01-05', '2025-01-20', '2025-02-03', '2025-02-25', '2025-03-10', '2025-03-28'];
    for (const [i, day] of [...days, ...days].entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/receivables/receipts',
        headers: { ...bearer(w.token), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        payload: JSON.stringify(w.receiptBody({ amount: `${10 + i}.00`, received_on: day })),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const upTos = ['2025-01-31', '2025-01-31', '2025-02-28', '2025-02-28', '2025-03-31', '2025-03-31', '2025-01-10', '2025-03-15'];
    const answers = await Promise.all(
      upTos.map((up_to) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/journal/exports',
          headers: { ...bearer(w.token), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          payload: JSON.stringify({ up_to }),
        }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 201 || a.statusCode === 409), answers.map((a) => a.body).join('\n')).toBe(true);
    const created = answers.filter((a) => a.statusCode === 201).map((a) => a.json() as { number: number; up_to: string; entries: { id: string; date: string }[] });
    expect(created.map((b) => b.number).sort((a, b) => a - b)).toEqual(created.map((_, i) => i + 1));
    for (const b of created) for (const e of b.entries) expect(e.date <= b.up_to).toBe(true);
    const exported = created.flatMap((b) => b.entries.map((e) => e.id));
    expect(new Set(exported).size).toBe(exported.length);
    // The latest up_to is 2025-03-31: every receipt of the twelve is taken by some batch.
    const entries = await listEntries(t.db, { organizationId: w.org.id });
    expect(entries).toHaveLength(12);
    expect(exported.sort()).toEqual(entries.map((e) => e.id).sort());
    for (const e of entries) expect(created.find((b) => b.number === e.batchNumber)!.entries.some((x) => x.id === e.id)).toBe(true);
    const list = await t.app.inject({ method: 'GET', url: '/v1/journal/exports', headers: bearer(w.token) });
    expect(list.json().items.map((b: { number: number }) => b.number)).toEqual(created.map((b) => b.number).sort((a, b) => b - a));
  });
});
