import type { InProcessClient } from '../client';
import type { AppDeps } from '../deps';
import { uploadDocument } from '../services/documents/upload-document';
import { recordClaimDecision } from '../services/expenses/claim-decisions';
import { addClaimLine as addLine, withdrawClaimLine as withdrawLine, type AddClaimLineInput } from '../services/expenses/claim-lines';
import type { ServiceContext } from '../services/context';
import { getClaim } from '../services/expenses/read-claim';
import { recordClaimSettlement } from '../services/expenses/claim-settlements';
import { openClaimSignoffs, signClaimSignoff } from '../services/expenses/claim-signoffs';
import { as, contextOf, daysBefore, minutesAfter } from './actors';
import type { Cast, DemoRun, SeededOrganization } from './people';
import type { ReferenceData } from './reference-data';
import type { DemoClaim, DemoMember, DemoOrganization } from './types';

/**
 * Expense claims of the demo, so every derived field of the claim answer has a real example: lines
 * of every type, a withdrawn line, several currencies, decisions, sign-offs (one signed, one not),
 * settlements, and the same receipt on two claims (a possible duplicate). Each member adds their own
 * payout channels (me.payoutChannels.create) and files their claims (expenses.claims.create); lines,
 * decisions, sign-offs and settlements are not operations yet, so they go to their services with the
 * acting member's session context, dated when the person would have taken them.
 */

type Printed = Pick<DemoOrganization, 'payout_channels' | 'claims'>;

/**
 * A line added as the claimant through the service POST /v1/expenses/claims/{id}/lines calls, at the
 * claim's current revision (what a person's If-Match would carry); answers the new line.
 */
async function addClaimLine(ctx: ServiceContext, input: Omit<AddClaimLineInput, 'id' | 'expected_revision'> & { claim_id: string }) {
  const { claim_id, ...fields } = input;
  const { claim } = await getClaim(ctx, { id: claim_id });
  const answer = await addLine(ctx, { ...fields, id: claim_id, expected_revision: claim.revision });
  return answer.lines.at(-1)!;
}

async function withdrawClaimLine(ctx: ServiceContext, input: { claim_id: string; line_id: string }) {
  const { claim } = await getClaim(ctx, { id: input.claim_id });
  await withdrawLine(ctx, { id: input.claim_id, line_id: input.line_id, expected_revision: claim.revision });
}

/** The sign-offs openClaimSignoffs wrote. */
const opened = <T>(rows: (T | undefined)[]): T[] => rows.filter((r): r is T => r !== undefined);


/** What every example claim is written with: the members, the reference data and the seed's clock. */
interface ClaimsKit {
  deps: AppDeps;
  run: DemoRun;
  org: SeededOrganization;
  cast: Cast;
  ref: ReferenceData;
  /** The day `days` before the organization's today. */
  past: (days: number) => string;
  /** Two weeks before the seed: the claims' decisions are dated from here, in the order they happened. */
  t0: Date;
  at: (member: DemoMember, when: Date) => ReturnType<typeof contextOf>;
  file: (uploadedBy: DemoMember, content: string) => ReturnType<typeof uploadDocument>;
  /** The receipt scan two claims share, so both lines show possible_duplicate. */
  scan: string;
  channelOf: (memberId: string) => { id: string } | undefined;
  filed: (answer: { claim: { id: string; reference: string; title: string } }, state: string, by: DemoMember) => void;
}

export async function seedClaims(deps: AppDeps, run: DemoRun, org: SeededOrganization, cast: Cast, ref: ReferenceData): Promise<Printed> {
  const { owner, claimant, colleague } = cast;
  const past = (days: number) => daysBefore(ref.today, days);
  // Decisions are dated before the seed time, in the order they happened.
  const t0 = minutesAfter(run.now, -14 * 24 * 60);
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
  const claims: DemoClaim[] = [];
  const filed = (answer: { claim: { id: string; reference: string; title: string } }, state: string, by: DemoMember) =>
    claims.push({ id: answer.claim.id, reference: answer.claim.reference, state, claimant_member_id: by.id, title: answer.claim.title });

  const kit: ClaimsKit = { deps, run, org, cast, ref, past, t0, at, file, scan, channelOf, filed };
  // The example claims, in the order they were filed.
  await roadshowClaim(kit);
  await lunchClaim(kit);
  await tokyoClaim(kit);
  await gymClaim(kit);

  return {
    payout_channels: channels.map((c) => ({ id: c.id, member_id: c.member_id, channel_key: c.channel_key, name: c.name, active: c.active })),
    claims,
  };
}

/** 1. Submitted, with lines of every type, a withdrawn line, two currencies, sign-offs half signed. */
async function roadshowClaim(kit: ClaimsKit): Promise<void> {
  const { deps, org, cast, ref, past, t0, at, file, scan, channelOf, filed } = kit;
  const { owner, approver, claimant } = cast;
  const { meals, travel, lodging, advance } = ref.categories;
  const { klcc, penang } = ref.projects;
  const salesDepartment = ref.departments.sales;
  const serviceTax = ref.taxCodes.serviceTax;
  // 1. Submitted, with lines of every type, a withdrawn line, two currencies, sign-offs half signed.
  const roadshow = await as(deps, claimant, { at: t0 }).expenses.claims.create({
    title: 'Roadshow to Penang and Ipoh',
    group_id: ref.claimGroups.roadshow.id,
    payout_channel_id: channelOf(claimant.id)?.id ?? null,
  });
  const c1 = roadshow.claim.id;
  const asClaimant = await at(claimant, t0);
  await addClaimLine(asClaimant, {
    claim_id: c1,
    type: 'receipt',
    expense_date: past(20),
    category_id: meals.id,
    description: 'Dinner with distributor',
    amount: '318.00',
    // SST service tax 8% borne, backed out of the gross: 318.00 × 8 / 108.
    tax_amount: '23.56',
    tax_code_id: serviceTax.id,
    supplier_name: 'Restoran Nasi Kandar Line Clear',
    supplier_tin: 'IG21136626090',
    document_basis: 'einvoice_company',
    einvoice_uuid: 'F9D425P6DS7D8IU9K2M1QX4T7B',
    einvoice_validated_at: minutesAfter(t0, -60),
    shares: [
      { analytic_account_id: klcc.id, percentage: '60' },
      { analytic_account_id: penang.id, percentage: '40' },
      { analytic_account_id: salesDepartment.id, percentage: '100' },
    ],
    documents: [(await file(claimant, scan)).id],
  });
  await addClaimLine(asClaimant, {
    claim_id: c1,
    type: 'receipt',
    expense_date: past(19),
    category_id: lodging.id,
    description: 'Hotel, two nights (Singapore stopover)',
    currency: 'SGD',
    amount: '420.00',
    // The rate on the hotel's folio (the reference rates are as at today): an override with its reason.
    fx_rate: '3.4815',
    fx_rate_reason: "Rate on the hotel's folio",
    supplier_name: 'Marina Stay Pte Ltd',
    document_basis: 'foreign_supplier',
    shares: [{ analytic_account_id: penang.id, percentage: '100' }],
    documents: [(await file(claimant, `hotel folio ${org.id}`)).id],
  });
  await addClaimLine(asClaimant, { claim_id: c1, type: 'mileage', expense_date: past(18), category_id: travel.id, description: 'Kuala Lumpur to Ipoh and back', quantity: '412.6', rate_id: ref.mileageRate.id });
  await addClaimLine(asClaimant, {
    claim_id: c1,
    type: 'per_diem',
    expense_date: past(18),
    category_id: meals.id,
    description: 'Three days on the road',
    quantity: '3',
    rate_id: ref.perDiemRate.id,
    band: 'peninsular',
  });
  await addClaimLine(asClaimant, { claim_id: c1, type: 'advance_offset', expense_date: past(25), category_id: advance.id, description: 'Cash advance for the roadshow', amount: '500.00' });
  const parking = await addClaimLine(asClaimant, {
    claim_id: c1,
    type: 'receipt',
    expense_date: past(18),
    category_id: travel.id,
    description: 'Parking (claimed twice by mistake)',
    amount: '12.00',
    supplier_name: 'Ipoh Parade Parking',
    document_basis: 'relaxation_receipt',
    relaxation_reason: 'Parking machine receipt, no e-invoice',
  });
  await withdrawClaimLine(asClaimant, { claim_id: c1, line_id: parking.id });
  await recordClaimDecision(await at(claimant, minutesAfter(t0, 60)), { id: c1, action_key: 'submit', via: 'reporter' });
  const roadshowSignoffs = await openClaimSignoffs(await at(owner, minutesAfter(t0, 60)), {
    id: c1,
    state: 'submitted',
    eligible: () => [approver.id, owner.id].filter((id, i, all) => all.indexOf(id) === i),
  });
  // The approver signs for the first account by code (the project KLCC).
  const [firstSignoff] = opened(roadshowSignoffs).sort((a, b) => a.accountCode.localeCompare(b.accountCode) || a.analyticAccountId.localeCompare(b.analyticAccountId));
  if (firstSignoff) await signClaimSignoff(await at(approver, minutesAfter(t0, 120)), { signoff_id: firstSignoff.id, via: 'grant' });
  filed(roadshow, 'submitted', claimant);
}

/** 2. Paid through sign-off and approval, settled in two payouts; shares the roadshow claim's receipt scan. */
async function lunchClaim(kit: ClaimsKit): Promise<void> {
  const { deps, org, cast, ref, past, t0, at, file, scan, channelOf, filed } = kit;
  const { owner, approver, colleague } = cast;
  const { meals } = ref.categories;
  const salesDepartment = ref.departments.sales;
  const serviceTax = ref.taxCodes.serviceTax;
  // 2. Paid, through sign-off and approval, settled in two payouts; it carries the same receipt scan
  //    as the roadshow claim, so both lines show possible_duplicate.
  const lunch = await as(deps, colleague, { at: minutesAfter(t0, 10) }).expenses.claims.create({
    title: 'Client lunch, Bangsar',
    payout_channel_id: channelOf(colleague.id)?.id ?? null,
  });
  const c2 = lunch.claim.id;
  await addClaimLine(await at(colleague, minutesAfter(t0, 10)), {
    claim_id: c2,
    type: 'receipt',
    expense_date: past(20),
    category_id: meals.id,
    description: 'Lunch with Kedai Runcit Maju',
    amount: '159.00',
    tax_amount: '11.78',
    tax_code_id: serviceTax.id,
    supplier_name: 'Restoran Nasi Kandar Line Clear',
    document_basis: 'einvoice_employee',
    einvoice_uuid: 'QW7N2K4D8P1R6T3Y5U9I0O2A4S',
    shares: [{ analytic_account_id: salesDepartment.id, percentage: '100' }],
    documents: [(await file(colleague, scan)).id],
  });
  await recordClaimDecision(await at(colleague, minutesAfter(t0, 70)), { id: c2, action_key: 'submit', via: 'reporter' });
  const lunchSignoffs = await openClaimSignoffs(await at(owner, minutesAfter(t0, 70)), { id: c2, state: 'submitted', eligible: () => [approver.id] });
  for (const s of opened(lunchSignoffs)) await signClaimSignoff(await at(approver, minutesAfter(t0, 130)), { signoff_id: s.id, via: 'grant' });
  const approvedBy = approver.id === colleague.id ? owner : approver;
  await recordClaimDecision(await at(approvedBy, minutesAfter(t0, 140)), { id: c2, action_key: 'approve', via: 'grant' });
  const payTo = channelOf(colleague.id);
  if (payTo) {
    const proof = await file(approvedBy, `bank advice ${org.id}`);
    await recordClaimSettlement(await at(approvedBy, minutesAfter(t0, 24 * 60)), { id: c2, channel_id: payTo.id, amount: '100.00' });
    await recordClaimSettlement(await at(approvedBy, minutesAfter(t0, 25 * 60)), { id: c2, channel_id: payTo.id, amount: '59.00', proof_document_id: proof.id });
  }
  await recordClaimDecision(await at(approvedBy, minutesAfter(t0, 25 * 60 + 5)), { id: c2, action_key: 'pay', via: 'grant' });
  filed(lunch, 'paid', colleague);
}

/** 3. A draft all in one foreign currency (original_currency and original_total). */
async function tokyoClaim(kit: ClaimsKit): Promise<void> {
  const { deps, cast, ref, past, t0, at, filed } = kit;
  const { claimant } = cast;
  const { meals, travel } = ref.categories;
  // 3. A draft all in one foreign currency (original_currency and original_total).
  const tokyo = await as(deps, claimant, { at: minutesAfter(t0, 20) }).expenses.claims.create({ title: 'Tokyo trade fair' });
  const tokyoLines = [
    { description: 'Airport limousine bus', amount: '3200', fx_rate: '0.0301', category_id: travel.id, supplier_name: null },
    { description: 'Business lunch', amount: '5800', fx_rate: '0.0302', category_id: meals.id, supplier_name: 'Ginza Shokudo' },
  ];
  for (const [i, line] of tokyoLines.entries()) {
    await addClaimLine(await at(claimant, minutesAfter(t0, 20)), {
      claim_id: tokyo.claim.id,
      type: 'receipt',
      expense_date: past(17 - i),
      currency: 'JPY',
      document_basis: 'foreign_supplier',
      fx_rate_reason: 'Rate on the card statement',
      ...line,
    });
  }
  filed(tokyo, 'draft', claimant);
}

/** 4. A rejected claim (it no longer counts for duplicates). */
async function gymClaim(kit: ClaimsKit): Promise<void> {
  const { deps, cast, ref, past, t0, at, filed } = kit;
  const { approver, claimant } = cast;
  const { travel } = ref.categories;
  // 4. A rejected claim (it no longer counts for duplicates).
  const gym = await as(deps, claimant, { at: minutesAfter(t0, 30) }).expenses.claims.create({ title: 'Gym membership' });
  await addClaimLine(await at(claimant, minutesAfter(t0, 30)), {
    claim_id: gym.claim.id,
    type: 'receipt',
    expense_date: past(16),
    category_id: travel.id,
    description: 'Monthly gym fee',
    amount: '150.00',
    supplier_name: 'Fitness Hub',
    document_basis: 'relaxation_receipt',
    relaxation_reason: 'Membership card statement',
  });
  await recordClaimDecision(await at(claimant, minutesAfter(t0, 80)), { id: gym.claim.id, action_key: 'submit', via: 'reporter' });
  const rejectable = approver.id !== claimant.id;
  if (rejectable) {
    await recordClaimDecision(await at(approver, minutesAfter(t0, 150)), { id: gym.claim.id, action_key: 'reject', via: 'grant', reason: 'Not a business expense' });
  }
  filed(gym, rejectable ? 'rejected' : 'submitted', claimant);
}
