/** Filing a claim as a member, through expenses.claims.create with their session (as a person would). */
import type { TestApp } from '../helpers/app';
import { callerFor } from '../helpers/settings';
import type { TestMember } from './organization';

let n = 0;

export async function fileTestClaim(t: Pick<TestApp, 'deps'>, member: TestMember, input: { title?: string; group_id?: string; payout_channel_id?: string } = {}) {
  n += 1;
  const answer = await callerFor(t, member.session).expenses.claims.create({ title: input.title ?? `Claim ${n}`, ...input });
  return answer.claim as { id: string; reference: string; revision: number };
}
