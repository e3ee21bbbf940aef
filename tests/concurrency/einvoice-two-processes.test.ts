/**
 * Two server processes on PostgreSQL sharing the job table and the e-invoice outbox (issue 12): each
 * has its own connection pool and job runner, both run at once, and every document is still
 * submitted exactly once (the simulator's own count). The outbox rows are claimed with FOR UPDATE
 * SKIP LOCKED and marked `sending` before the request leaves, so neither process sends what the
 * other took, whether through the job table or by calling the submission work directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/runner';
import { buildJobRegistry } from '../../src/jobs/standard-jobs';
import { outboundOf } from '../../src/services/einvoicing/build-client';
import { submitDue } from '../../src/services/einvoicing/submission';
import { payoutEncryptionKey } from '../../src/config';
import { createTestApp, onPostgres, useTestApp, type TestApp } from '../helpers/app';
import { useMyinvois } from '../helpers/myinvois-world';

describe.skipIf(!onPostgres)('two processes submitting', () => {
  const t = useTestApp();
  const m = useMyinvois(t);
  let second: TestApp;
  beforeAll(async () => {
    second = await createTestApp();
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.handle.close();
  });

  it('share the job table without double submission', async () => {
    const w = await m.world();
    const docs = [];
    for (let i = 0; i < 12; i++) docs.push(await m.issue(w, await m.draft(w)));
    // The job runners of both processes at the same instant, several times over.
    const runnerA = m.runner();
    const runnerB = new JobRunner({ db: second.db, registry: buildJobRegistry({ ...second.deps.config, MYINVOIS_TIMEOUT_MS: 2_000 }), random: () => 0 });
    for (let i = 0; i < 3; i++) {
      await Promise.all([runnerA.runOnce(m.now()), runnerB.runOnce(m.now())]);
      m.advance(15_000);
    }
    for (const doc of docs) expect(m.sim.control.submissionCount(doc.reference, w.clientId)).toBe(1);

    // The submission work itself, called by both processes at once on fresh issues.
    const more = [];
    for (let i = 0; i < 12; i++) more.push(await m.issue(w, await m.draft(w)));
    const key = payoutEncryptionKey(t.deps.config);
    const outbound = outboundOf(t.deps);
    const [a, b] = await Promise.all([submitDue(t.db, w.org.id, m.now(), { key, outbound }), submitDue(second.db, w.org.id, m.now(), { key, outbound })]);
    expect(a.submitted + b.submitted).toBe(12);
    for (const doc of more) expect(m.sim.control.submissionCount(doc.reference, w.clientId)).toBe(1);
    m.advance(15_000);
    await Promise.all([runnerA.runOnce(m.now()), runnerB.runOnce(m.now())]);
    for (const doc of [...docs, ...more]) expect((await m.read(w, doc.id)).state).toBe('issued');
  });
});
