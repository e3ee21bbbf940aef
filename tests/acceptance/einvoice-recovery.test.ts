import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { useMyinvois } from '../helpers/myinvois-world';

/**
 * Recovery after a crash mid-submission (issue 25): many documents left `sending` (some LHDN
 * received, the answer lost; some it never got) are looked up at LHDN within its limit of 12
 * searches a minute, a window of several documents per search; new documents keep being submitted
 * meanwhile, and every document ends validated, sent exactly once.
 */
const t = useTestApp();
let loseSubmitAnswers = false;
const searches: { at: number; status: number }[] = [];
let clockNow = () => Date.now();
const watchingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (String(input).includes('/api/v1.0/documents/search')) searches.push({ at: clockNow(), status: res.status });
  if (loseSubmitAnswers && init?.method === 'POST' && String(input).endsWith('/documentsubmissions')) {
    await res.arrayBuffer();
    throw new TypeError('fetch failed: the process died before the answer was stored');
  }
  return res;
};
const m = useMyinvois(t, { seams: { fetch: watchingFetch } });
clockNow = () => m.now().getTime();

describe('recovery after a crash mid-submission', () => {
  it('30 documents stuck in sending and 5 new ones: all validated, each sent once, LHDN never answers a search 429', { timeout: 240_000 }, async () => {
    const w = await m.world();
    m.advance(61_000);
    const received = [];
    for (let i = 0; i < 20; i++) received.push(await m.issue(w, await m.draft(w)));
    // The process sends them and dies before storing LHDN's answer: LHDN has them, the rows say `sending`.
    loseSubmitAnswers = true;
    try {
      await m.runJobs();
    } finally {
      loseSubmitAnswers = false;
    }
    const neverReceived = [];
    for (let i = 0; i < 10; i++) neverReceived.push(await m.issue(w, await m.draft(w)));
    // These requests never reach LHDN (an error in front of it): `sending`, LHDN has nothing.
    m.sim.control.fail('error', ['submit']);
    await m.runJobs();
    m.sim.control.recover();
    for (const doc of [...received, ...neverReceived]) expect((await m.rows(doc.id))[0]!.state).toBe('sending');
    for (const doc of received) expect(m.sim.control.submissionCount(doc.reference, w.clientId)).toBe(1);
    for (const doc of neverReceived) expect(m.sim.control.submissionCount(doc.reference, w.clientId)).toBe(0);

    // The process comes back; people keep issuing.
    m.advance(121_000);
    const fresh = [];
    for (let i = 0; i < 5; i++) fresh.push(await m.issue(w, await m.draft(w)));
    const started = m.now().getTime();
    await m.runJobs();
    // New documents do not wait for the recovery.
    for (const doc of fresh) expect((await m.rows(doc.id))[0]!.state).not.toMatch(/queued|sending/);

    for (let step = 0; step < 60; step++) {
      m.advance(10_000);
      await m.runJobs();
    }
    for (const doc of [...received, ...neverReceived, ...fresh]) {
      expect(m.sim.control.submissionCount(doc.reference, w.clientId), doc.reference).toBe(1);
      expect((await m.rows(doc.id))[0]!.state, doc.reference).toBe('valid');
      expect((await m.read(w, doc.id)).state).toBe('issued');
    }
    const after = searches.filter((s) => s.at >= started);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((s) => s.status === 429)).toEqual([]);
    // One search looks up a window of documents: far fewer searches than documents.
    expect(after.length).toBeLessThan(10);
    for (const s of after) expect(after.filter((o) => o.at >= s.at && o.at < s.at + 60_000).length).toBeLessThanOrEqual(12);
  });
});
