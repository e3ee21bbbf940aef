import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { useMyinvois } from '../helpers/myinvois-world';

/**
 * Failure handling of the submission (issue 12): LHDN answering 429, 500 or nothing for a while
 * loses nothing and submits each document exactly once (the simulator's own count); an answer lost
 * after LHDN accepted the submission (the server dying between the request and storing the answer)
 * is found again at LHDN through the submission it recorded, never sent twice.
 */
const t = useTestApp();
// Answers LHDN gave that the "process" never stored: the request reaches LHDN, the answer is lost.
let loseSubmitAnswers = false;
const losingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (loseSubmitAnswers && init?.method === 'POST' && String(input).endsWith('/documentsubmissions')) {
    await res.arrayBuffer();
    throw new TypeError('fetch failed: the process died before the answer was stored');
  }
  return res;
};
const m = useMyinvois(t, { seams: { fetch: losingFetch }, rateLimits: { submit: 2 } });
const STALE = 121_000;

async function settle() {
  await m.runJobs();
  m.advance(15_000);
  await m.runJobs();
}

describe('submission failures', () => {
  it('a 500 for a while: the rows wait, are looked up at LHDN, then sent once', async () => {
    const w = await m.world();
    const a = await m.issue(w, await m.draft(w));
    const b = await m.issue(w, await m.draft(w));
    m.sim.control.fail('error', ['submit']);
    await m.runJobs();
    expect((await m.rows(a.id))[0]!.state).toBe('sending');
    m.advance(STALE);
    await m.runJobs();
    m.sim.control.recover();
    m.advance(STALE);
    await settle();
    for (const doc of [a, b]) {
      expect(m.sim.control.submissionCount(doc.reference, w.clientId)).toBe(1);
      expect((await m.read(w, doc.id)).state).toBe('issued');
    }
  });

  it('a timeout (LHDN never answers): sent once after recovery', async () => {
    const w = await m.world();
    const a = await m.issue(w, await m.draft(w));
    m.sim.control.fail('hang', ['submit']);
    await m.runJobs();
    m.sim.control.recover();
    expect((await m.rows(a.id))[0]!.state).toBe('sending');
    m.advance(STALE);
    await settle();
    expect(m.sim.control.submissionCount(a.reference, w.clientId)).toBe(1);
    expect(await m.einvoice(w, a.id)).toMatchObject({ status: 'valid' });
  });

  it('429: the rows go back to the queue and the job waits exactly Retry-After; each sent once', async () => {
    const w = await m.world();
    m.advance(61_000);
    const docs = [];
    for (let i = 0; i < 3; i++) {
      docs.push(await m.issue(w, await m.draft(w)));
      await m.runJobs();
    }
    // Two submissions per minute: the third was throttled and waits in the queue.
    expect((await m.rows(docs[2]!.id))[0]!.state).toBe('queued');
    expect(m.sim.control.submissionCount(docs[2]!.reference, w.clientId)).toBe(0);
    m.advance(61_000);
    await settle();
    for (const doc of docs) {
      expect(m.sim.control.submissionCount(doc.reference, w.clientId)).toBe(1);
      expect((await m.read(w, doc.id)).state).toBe('issued');
    }
  });

  it('an answer lost after LHDN accepted the submission: the UUID is found again at LHDN, nothing is sent twice', async () => {
    const w = await m.world();
    m.advance(61_000);
    const a = await m.issue(w, await m.draft(w));
    loseSubmitAnswers = true;
    try {
      await m.runJobs();
    } finally {
      loseSubmitAnswers = false;
    }
    expect(m.sim.control.submissionCount(a.reference, w.clientId)).toBe(1);
    const [lost] = await m.rows(a.id);
    expect(lost).toMatchObject({ state: 'sending', uuid: null });
    m.advance(STALE);
    await settle();
    expect(m.sim.control.submissionCount(a.reference, w.clientId)).toBe(1);
    const [found] = await m.rows(a.id);
    expect(found).toMatchObject({ state: 'valid', uuid: expect.stringMatching(/^[A-Z0-9]{26}$/) });
    expect(m.sim.control.document(found!.uuid!)!.internalId).toBe(a.reference);
    expect((await m.read(w, a.id)).state).toBe('issued');
  });

  it('a submission LHDN no longer knows (the simulator restarted): looked up, then sent again, and validated', async () => {
    const w = await m.world();
    m.advance(61_000);
    const a = await m.issue(w, await m.draft(w));
    await m.runJobs();
    expect((await m.rows(a.id))[0]).toMatchObject({ state: 'submitted' });
    m.sim.control.forgetDocuments();
    m.advance(15_000);
    await m.runJobs();
    m.advance(15_000);
    await m.runJobs();
    expect(m.sim.control.submissionCount(a.reference, w.clientId)).toBe(2);
    expect(await m.einvoice(w, a.id)).toMatchObject({ status: 'valid' });
    expect((await m.read(w, a.id)).state).toBe('issued');
  });
});
