import type { InProcessClient } from '../client';
import type { AppDeps } from '../deps';
import type { ClaimAnswer } from '../contract/expenses/claims';
import { uploadDocument } from '../services/documents/upload-document';
import { as, contextOf, daysBefore, minutesAfter } from './actors';
import { decidedClaims } from './claims-decided';
import { filedClaims } from './claims-filed';
import type { Cast, DemoRun, SeededOrganization } from './people';
import type { ReferenceData } from './reference-data';
import type { DemoClaim, DemoMember, DemoOrganization } from './types';

/**
 * Expense claims of the demo, one in every state of the claim workflow, so every derived field of the
 * claim answer has a real example: lines of every type, a withdrawn line, several currencies, the same
 * receipt on two claims (a possible duplicate), sign-offs in review and finance (one share signed and
 * one not), decisions on a grant, a delegation and an escalation, a dispute, a return and a
 * resubmission, settlements. Each member adds their own payout channels (me.payoutChannels.create),
 * files their claims (expenses.claims.create) and their lines (expenses.claims.lines.add|withdraw);
 * each decision is the right person's expenses.claims.transition or expenses.claims.pay, each act
 * dated when the person took it, with the claim's revision as If-Match.
 */

type Printed = Pick<DemoOrganization, 'payout_channels' | 'claims'>;

/** What every example claim is written with: the members, the reference data and the seed's clock. */
export interface ClaimsKit {
  deps: AppDeps;
  run: DemoRun;
  org: SeededOrganization;
  cast: Cast;
  ref: ReferenceData;
  /** Whether someone other than the claimant can sign (not in an organization of one person). */
  decidable: boolean;
  /** The day `days` before the organization's today. */
  past: (days: number) => string;
  /** Two weeks before the seed: the claims' decisions are dated from here, in the order they happened. */
  t0: Date;
  /** `minutes` after t0. */
  after: (minutes: number) => Date;
  at: (member: DemoMember, when: Date) => ReturnType<typeof contextOf>;
  file: (uploadedBy: DemoMember, content: string) => ReturnType<typeof uploadDocument>;
  /** The receipt scan two claims share, so both lines show possible_duplicate. */
  scan: string;
  channelOf: (memberId: string) => { id: string } | undefined;
  /** `member` files a claim (expenses.claims.create) at `when`. */
  create: (member: DemoMember, when: Date, input: Parameters<InProcessClient['expenses']['claims']['create']>[0]) => Promise<ClaimAnswer>;
  /** `member` takes `action` on the claim at `when` (expenses.claims.transition, If-Match: the claim as it is). */
  decide: (member: DemoMember, when: Date, id: string, action: string, reason?: string) => Promise<ClaimAnswer>;
  /** `member` adds a line to their draft claim at `when` (expenses.claims.lines.add, If-Match); answers the new line. */
  addLine: (member: DemoMember, when: Date, input: Omit<Parameters<InProcessClient['expenses']['claims']['lines']['add']>[0], 'id'> & { claim_id: string }) => Promise<ClaimAnswer['lines'][number]>;
  /** `member` withdraws a line of their draft claim at `when` (expenses.claims.lines.withdraw, If-Match). */
  withdrawLine: (member: DemoMember, when: Date, claimId: string, lineId: string) => Promise<ClaimAnswer>;
  /** `member` pays the approved claim at `when` (expenses.claims.pay). */
  pay: (member: DemoMember, when: Date, id: string, input?: { channel_id?: string; proof_document_id?: string }) => Promise<ClaimAnswer>;
  /** The claim as printed: its state when the seed left it. */
  filed: (answer: ClaimAnswer, by: DemoMember) => void;
}

export async function seedClaims(deps: AppDeps, run: DemoRun, org: SeededOrganization, cast: Cast, ref: ReferenceData, decidable: boolean): Promise<Printed> {
  const { owner, claimant, colleague } = cast;
  const past = (days: number) => daysBefore(ref.today, days);
  // Decisions are dated before the seed time, in the order they happened.
  const t0 = minutesAfter(run.now, -14 * 24 * 60);
  const after = (minutes: number) => minutesAfter(t0, minutes);
  const at = (member: DemoMember, when: Date) => contextOf(deps, member, when);

  // Each member's own payout channels.
  const channels: Awaited<ReturnType<InProcessClient['me']['payoutChannels']['create']>>[] = [];
  for (const [i, member] of [claimant, colleague, owner].filter((m, i, all) => all.indexOf(m) === i).entries()) {
    const me = as(deps, member).me.payoutChannels;
    channels.push(
      i % 2
        ? await me.create({ channel_key: 'duitnow', name: 'DuitNow (mobile)', fields: { id_type: 'mobile', id_value: `+60 12-345 ${6700 + i}` } })
        : await me.create({ channel_key: 'bank_transfer', name: 'Maybank savings', fields: { bank: 'MBBEMYKL', account_holder: member.name, account_number: `5140 1234 ${5670 + i}` } }),
    );
  }
  const channelOf = (memberId: string) => channels.find((c) => c.member_id === memberId);

  const scan = `demo receipt scan ${org.id}`;
  // Uploaded as the member would through POST /v1/documents; the same text gives the same bytes (SHA-256).
  const file = async (uploadedBy: DemoMember, content: string) =>
    uploadDocument(await at(uploadedBy, run.now), {
      filename: `${content.split(' ').slice(0, 2).join('-')}.pdf`,
      declared_type: 'application/pdf',
      content: Buffer.from(`%PDF-1.4\n% ${content}\n%%EOF\n`),
    });
  // The claim's revision as the owner reads it now: the If-Match of the next decision.
  const revisionOf = async (id: string, when: Date) => (await as(deps, owner, { at: when }).expenses.claims.get({ id })).claim.revision;
  const decide: ClaimsKit['decide'] = async (member, when, id, action, reason) =>
    as(deps, member, { at: when, ifMatch: await revisionOf(id, when) }).expenses.claims.transition({ id, action_key: action, ...(reason === undefined ? {} : { reason }) });
  const pay: ClaimsKit['pay'] = async (member, when, id, input = {}) =>
    as(deps, member, { at: when, ifMatch: await revisionOf(id, when) }).expenses.claims.pay({ id, ...input });
  const addLine: ClaimsKit['addLine'] = async (member, when, { claim_id, ...fields }) => {
    const answer = await as(deps, member, { at: when, ifMatch: await revisionOf(claim_id, when) }).expenses.claims.lines.add({ id: claim_id, ...fields });
    return answer.lines.at(-1)!;
  };
  const withdrawLine: ClaimsKit['withdrawLine'] = async (member, when, id, line_id) =>
    as(deps, member, { at: when, ifMatch: await revisionOf(id, when) }).expenses.claims.lines.withdraw({ id, line_id });
  const create: ClaimsKit['create'] = (member, when, input) => as(deps, member, { at: when }).expenses.claims.create(input);

  const claims: DemoClaim[] = [];
  const filed: ClaimsKit['filed'] = (answer, by) => {
    claims.push({ id: answer.claim.id, reference: answer.claim.reference, state: answer.claim.state, claimant_member_id: by.id, title: answer.claim.title });
  };

  const kit: ClaimsKit = { deps, run, org, cast, ref, decidable, past, t0, after, at, file, scan, channelOf, create, addLine, withdrawLine, decide, pay, filed };
  await filedClaims(kit);
  await decidedClaims(kit);

  return {
    payout_channels: channels.map((c) => ({ id: c.id, member_id: c.member_id, channel_key: c.channel_key, name: c.name, active: c.active })),
    claims,
  };
}
