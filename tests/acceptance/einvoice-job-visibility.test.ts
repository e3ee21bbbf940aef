import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { useMyinvois } from '../helpers/myinvois-world';

/**
 * A MyInvois job that keeps failing is visible (issue 25): GET …/einvoice shows the job's last error
 * (LHDN's error, short), its attempts and when it runs next; /metrics counts retrying and dead jobs
 * by kind.
 */
const t = useTestApp();
const m = useMyinvois(t);

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const parts = line.slice(name.length + 1, line.lastIndexOf('}')).split(',');
    if (wanted.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('a failing e-invoice job', () => {
  it('shows last_error, attempts and next_attempt_at on GET …/einvoice, and counts in /metrics', async () => {
    const w = await m.world();
    m.advance(61_000);
    const doc = await m.issue(w, await m.draft(w));
    expect(await m.einvoice(w, doc.id)).toMatchObject({ status: 'submitted', last_error: null, attempts: 0, next_attempt_at: m.now().toISOString() });

    // LHDN answers 500 to everything: the job the document waits on fails, again and again.
    m.sim.control.fail('error');
    await m.runJobs();
    let answer = await m.einvoice(w, doc.id);
    for (let i = 0; i < 6 && !(answer.attempts >= 2 && answer.last_error); i++) {
      m.advance(Math.max(1_000, Date.parse(answer.next_attempt_at ?? m.now().toISOString()) - m.now().getTime()));
      await m.runJobs();
      answer = await m.einvoice(w, doc.id);
    }
    expect(answer).toMatchObject({ status: 'submitted', last_error: expect.stringMatching(/500/), next_attempt_at: expect.any(String) });
    expect(answer.attempts).toBeGreaterThanOrEqual(2);
    expect(answer.last_error.length).toBeLessThanOrEqual(500);
    expect(answer.last_error).not.toMatch(/[{}<]/);
    expect(Date.parse(answer.next_attempt_at)).toBeGreaterThan(m.now().getTime());

    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    const failing = ['myinvois-submit', 'myinvois-recover'].map((kind) => sample(metrics.body, 'jobs_by_kind', { kind, state: 'failed' }) ?? 0);
    expect(failing[0]! + failing[1]!).toBeGreaterThanOrEqual(1);
    m.sim.control.recover();
  });
});
