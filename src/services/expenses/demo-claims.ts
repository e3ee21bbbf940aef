import type { Database } from '../../db/client';
import { listClaimSignoffs } from '../../db/queries/claims';
import { findOrganization } from '../../db/queries/organizations';
import { findAnalyticAccountByCode, findAnalyticAxisByCode, findProjectAxis, findTaxCodeByCode } from '../../db/queries/reference-data';
import type { Principal } from '../access/principal';
import { serviceContext } from '../context';
import { addDemoSection, type DemoMember, type DemoOrganization } from '../demo/seed-demo';
import { uploadDocument } from '../documents/upload-document';
import { assignPosition, createOrgUnit, createPosition } from '../people/org-chart';
import { recordClaimDecision } from './claim-decisions';
import { addClaimLine, withdrawClaimLine } from './claim-lines';
import { recordClaimSettlement } from './claim-settlements';
import { openClaimSignoffs, signClaimSignoff } from './claim-signoffs';
import { fileClaim } from './file-claim';
import { createPayoutChannel } from './payout-channels';
import { createAnalyticAccount, createAnalyticAxis, createTaxCode } from '../receivables/reference-data';
import { createClaimGroup, createExpenseCategory, createMileageRate, createPerDiemRate, retireClaimGroup } from './reference-data';

/**
 * The claims part of the demo data set: reference data (categories, claim groups with one retired,
 * payout channels, org units, positions and primary assignments, mileage and per-diem rates, analytic
 * axes) and example claims written through the services, so every derived field of the claim answer
 * has a real example: lines of every type, a withdrawn line, several currencies, decisions, sign-offs
 * (one signed, one not), settlements, and the same receipt on two claims (a possible duplicate).
 */

function principalOf(org: DemoOrganization, member: DemoMember): Principal {
  return { organizationId: org.id, memberId: member.id, via: 'session', credentialId: member.id, permissions: new Set(member.permissions) };
}

const minutes = (now: Date, n: number) => new Date(now.getTime() + n * 60_000);

/**
 * The organization's shared reference data the claims use: the project and department axes, two
 * projects, the sales department and the SST service-tax code. The receivables demo section creates
 * them first (see services/register.ts); whatever is missing (the section order changed, or the
 * receivables section is not registered) is created here through the same shared services.
 */
async function sharedReferenceData(db: Database, organizationId: string) {
  const projectAxis =
    (await findProjectAxis(db, { organizationId })) ?? (await createAnalyticAxis(db, organizationId, { code: 'PRJ', name: 'Projects', isProjectAxis: true }));
  const departmentAxis =
    (await findAnalyticAxisByCode(db, { organizationId, code: 'DEPT' })) ?? (await createAnalyticAxis(db, organizationId, { code: 'DEPT', name: 'Departments' }));
  const account = async (axisId: string, code: string, name: string) =>
    (await findAnalyticAccountByCode(db, { organizationId, axisId, code })) ?? (await createAnalyticAccount(db, organizationId, { axisId, code, name }));
  const serviceTax =
    (await findTaxCodeByCode(db, { organizationId, code: 'SV8' })) ??
    (await createTaxCode(db, organizationId, { code: 'SV8', name: 'Service tax 8%', rate: '8', taxType: '02' }));
  return {
    projectAxis,
    departmentAxis,
    klcc: await account(projectAxis.id, 'P-KLCC', 'KLCC fit-out'),
    penang: await account(projectAxis.id, 'P-PNG', 'Penang warehouse'),
    sales: await account(departmentAxis.id, 'SALES', 'Sales'),
    serviceTax,
  };
}

function daysBefore(today: string, n: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

async function seedClaims(db: Database, org: DemoOrganization, ctx: { now: Date; today: string; payoutKey: Buffer }) {
  const organizationId = org.id;
  const active = org.members.filter((m) => m.active);
  const byRole = (role: string) => active.find((m) => m.role === role);
  const owner = byRole('owner') ?? active[0];
  if (!owner) return;
  const approver = byRole('accountant') ?? owner;
  const claimant = byRole('employee') ?? owner;
  const colleague = byRole('clerk') ?? approver;
  const key = ctx.payoutKey;
  const past = (days: number) => daysBefore(ctx.today, days);
  // Decisions are dated before the seed time, in the order they happened.
  const t0 = minutes(ctx.now, -14 * 24 * 60);

  const meals = await createExpenseCategory(db, { organizationId, code: 'MEALS', name: 'Meals and entertainment' });
  const travel = await createExpenseCategory(db, { organizationId, code: 'TRAVEL', name: 'Travel and transport' });
  const lodging = await createExpenseCategory(db, { organizationId, code: 'LODGING', name: 'Accommodation' });
  const advance = await createExpenseCategory(db, { organizationId, code: 'ADVANCE', name: 'Cash advance' });
  const roadshow = await createClaimGroup(db, { organizationId, name: 'Northern region roadshow' });
  const oldTrip = await createClaimGroup(db, { organizationId, name: 'Annual retreat (closed)' });
  await retireClaimGroup(db, { organizationId, id: oldTrip.id, now: t0 });

  const hq = await createOrgUnit(db, { organizationId, code: 'HQ', name: 'Head Office' });
  const sales = await createOrgUnit(db, { organizationId, code: 'SALES', name: 'Sales Department', parentId: hq.id });
  const finance = await createOrgUnit(db, { organizationId, code: 'FIN', name: 'Finance Department', parentId: hq.id });
  const ceo = await createPosition(db, { organizationId, orgUnitId: hq.id, title: 'Managing Director', isUnitHead: true });
  const salesExec = await createPosition(db, { organizationId, orgUnitId: sales.id, title: 'Sales Executive' });
  const financeManager = await createPosition(db, { organizationId, orgUnitId: finance.id, title: 'Finance Manager', isUnitHead: true });
  const clerkPosition = await createPosition(db, { organizationId, orgUnitId: finance.id, title: 'Accounts Clerk' });
  const positionOf = new Map([
    [owner.id, ceo.id],
    [approver.id, financeManager.id],
    [colleague.id, clerkPosition.id],
    [claimant.id, salesExec.id],
  ]);
  for (const [memberId, positionId] of positionOf) {
    await assignPosition(db, { organizationId, memberId, positionId, validFrom: '2024-01-01' });
  }

  const { klcc, penang, sales: salesAccount, serviceTax } = await sharedReferenceData(db, organizationId);

  const mileage = await createMileageRate(db, {
    organizationId,
    name: 'Private car mileage',
    currency: org.base_currency,
    validFrom: '2024-01-01',
    bands: [
      { band: 'first_500_km', fromKm: '0', toKm: '500', ratePerKm: '0.8' },
      { band: 'beyond_500_km', fromKm: '500', ratePerKm: '0.5' },
    ],
  });
  const perDiem = await createPerDiemRate(db, {
    organizationId,
    name: 'Daily subsistence allowance',
    currency: org.base_currency,
    validFrom: '2024-01-01',
    bands: [
      { band: 'peninsular', amountPerDay: '80' },
      { band: 'sabah_sarawak', amountPerDay: '100' },
      { band: 'overseas', amountPerDay: '180' },
    ],
  });

  const channels: Awaited<ReturnType<typeof createPayoutChannel>>[] = [];
  for (const [i, member] of [claimant, colleague, owner].filter((m, i, all) => all.indexOf(m) === i).entries()) {
    channels.push(
      await createPayoutChannel(db, key, {
        organizationId,
        memberId: member.id,
        channelKey: i % 2 ? 'duitnow' : 'bank_transfer',
        name: i % 2 ? 'DuitNow (mobile)' : 'Maybank savings',
        fields: i % 2 ? { proxy_type: 'Mobile number', proxy_id: `+60 12-345 ${6700 + i}` } : { bank_name: 'Maybank', account_holder: member.name, account_number: `5140 1234 ${5670 + i}` },
      }),
    );
  }
  const channelOf = (memberId: string) => channels.find((c) => c.memberId === memberId);

  const settings = await findOrganization(db, { organizationId });
  if (!settings) throw new Error(`no organization ${organizationId}`);
  // The services act as the member who would have made each step, at the time it happened.
  const as = (member: DemoMember, at: Date) => serviceContext(db, principalOf(org, member), settings, at);

  const scan = `demo receipt scan ${organizationId}`;
  // Uploaded as the member would through POST /v1/documents; the same text gives the same bytes (SHA-256).
  const file = (uploadedBy: DemoMember, content: string) =>
    uploadDocument(as(uploadedBy, ctx.now), {
      filename: `${content.split(' ').slice(0, 2).join('-')}.pdf`,
      declared_type: 'application/pdf',
      content: Buffer.from(`%PDF-1.4\n% ${content}\n%%EOF\n`),
    });
  const claimsOut: { id: string; reference: string; state: string; claimant_member_id: string; title: string }[] = [];

  // 1. Submitted, with lines of every type, a withdrawn line, two currencies, sign-offs half signed.
  const roadshowClaim = await fileClaim(as(claimant, t0), { title: 'Roadshow to Penang and Ipoh', group_id: roadshow.id, payout_channel_id: channelOf(claimant.id)?.id ?? null });
  const c1 = roadshowClaim.claim.id;
  const line = { claim_id: c1 };
  const asClaimant = as(claimant, t0);
  await addClaimLine(asClaimant, {
    ...line,
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
    einvoice_uuid: 'F9D425P6DS7D8IU9K2M1',
    einvoice_validated_at: minutes(t0, -60),
    shares: [
      { analytic_account_id: klcc.id, percentage: '60' },
      { analytic_account_id: penang.id, percentage: '40' },
      { analytic_account_id: salesAccount.id, percentage: '100' },
    ],
    documents: [(await file(claimant, scan)).id],
  });
  await addClaimLine(asClaimant, {
    ...line,
    type: 'receipt',
    expense_date: past(19),
    category_id: lodging.id,
    description: 'Hotel, two nights (Singapore stopover)',
    currency: 'SGD',
    amount: '420.00',
    fx_rate: '3.4815',
    supplier_name: 'Marina Stay Pte Ltd',
    document_basis: 'foreign_supplier',
    shares: [{ analytic_account_id: penang.id, percentage: '100' }],
    documents: [(await file(claimant, `hotel folio ${organizationId}`)).id],
  });
  await addClaimLine(asClaimant, { ...line, type: 'mileage', expense_date: past(18), category_id: travel.id, description: 'Kuala Lumpur to Ipoh and back', quantity: '412.6', rate_id: mileage.id });
  await addClaimLine(asClaimant, { ...line, type: 'per_diem', expense_date: past(18), category_id: meals.id, description: 'Three days on the road', quantity: '3', rate_id: perDiem.id, band: 'peninsular' });
  await addClaimLine(asClaimant, { ...line, type: 'advance_offset', expense_date: past(25), category_id: advance.id, description: 'Cash advance for the roadshow', amount: '500.00' });
  const parking = await addClaimLine(asClaimant, {
    ...line,
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
  await recordClaimDecision(as(claimant, minutes(t0, 60)), { id: c1, action_key: 'submit', via: 'reporter' });
  await openClaimSignoffs(as(owner, minutes(t0, 60)), { id: c1, state: 'submitted', eligible: () => [approver.id, owner.id].filter((id, i, all) => all.indexOf(id) === i) });
  const [firstSignoff] = await listClaimSignoffs(db, { organizationId, claimId: c1, state: 'submitted' });
  if (firstSignoff) {
    await signClaimSignoff(as(approver, minutes(t0, 120)), { signoff_id: firstSignoff.id, via: 'grant' });
  }
  claimsOut.push({ id: c1, reference: roadshowClaim.claim.reference, state: 'submitted', claimant_member_id: claimant.id, title: roadshowClaim.claim.title });

  // 2. Paid, through sign-off and approval, settled in two payouts; it carries the same receipt scan
  //    as the roadshow claim, so both lines show possible_duplicate.
  const lunch = await fileClaim(as(colleague, minutes(t0, 10)), { title: 'Client lunch, Bangsar', payout_channel_id: channelOf(colleague.id)?.id ?? null });
  const c2 = lunch.claim.id;
  await addClaimLine(as(colleague, minutes(t0, 10)), {
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
    shares: [{ analytic_account_id: salesAccount.id, percentage: '100' }],
    documents: [(await file(colleague, scan)).id],
  });
  await recordClaimDecision(as(colleague, minutes(t0, 70)), { id: c2, action_key: 'submit', via: 'reporter' });
  await openClaimSignoffs(as(owner, minutes(t0, 70)), { id: c2, state: 'submitted', eligible: () => [approver.id] });
  for (const s of await listClaimSignoffs(db, { organizationId, claimId: c2, state: 'submitted' })) {
    await signClaimSignoff(as(approver, minutes(t0, 130)), { signoff_id: s.id, via: 'grant' });
  }
  const approvedBy = approver.id === colleague.id ? owner : approver;
  await recordClaimDecision(as(approvedBy, minutes(t0, 140)), { id: c2, action_key: 'approve', via: 'grant' });
  const payTo = channelOf(colleague.id);
  if (payTo) {
    const proof = await file(approvedBy, `bank advice ${organizationId}`);
    await recordClaimSettlement(as(approvedBy, minutes(t0, 24 * 60)), { id: c2, channel_id: payTo.id, amount: '100.00' });
    await recordClaimSettlement(as(approvedBy, minutes(t0, 25 * 60)), { id: c2, channel_id: payTo.id, amount: '59.00', proof_document_id: proof.id });
  }
  await recordClaimDecision(as(approvedBy, minutes(t0, 25 * 60 + 5)), { id: c2, action_key: 'pay', via: 'grant' });
  claimsOut.push({ id: c2, reference: lunch.claim.reference, state: 'paid', claimant_member_id: colleague.id, title: lunch.claim.title });

  // 3. A draft all in one foreign currency (original_currency and original_total).
  const tokyo = await fileClaim(as(claimant, minutes(t0, 20)), { title: 'Tokyo trade fair' });
  for (const [i, [description, amount, rate]] of [
    ['Airport limousine bus', '3200', '0.0301'],
    ['Business lunch', '5800', '0.0302'],
  ].entries()) {
    await addClaimLine(as(claimant, minutes(t0, 20)), { claim_id: tokyo.claim.id, type: 'receipt', expense_date: past(10 - i), category_id: i ? meals.id : travel.id, description: description!, currency: 'JPY', amount: amount!, fx_rate: rate!, document_basis: 'foreign_supplier', supplier_name: i ? 'Ginza Shokudo' : null });
  }
  claimsOut.push({ id: tokyo.claim.id, reference: tokyo.claim.reference, state: 'draft', claimant_member_id: claimant.id, title: tokyo.claim.title });

  // 4. A rejected claim (it no longer counts for duplicates).
  const rejected = await fileClaim(as(claimant, minutes(t0, 30)), { title: 'Gym membership' });
  await addClaimLine(as(claimant, minutes(t0, 30)), { claim_id: rejected.claim.id, type: 'receipt', expense_date: past(12), category_id: travel.id, description: 'Monthly gym fee', amount: '150.00', supplier_name: 'Fitness Hub', document_basis: 'relaxation_receipt', relaxation_reason: 'Membership card statement' });
  await recordClaimDecision(as(claimant, minutes(t0, 80)), { id: rejected.claim.id, action_key: 'submit', via: 'reporter' });
  if (approver.id !== claimant.id) {
    await recordClaimDecision(as(approver, minutes(t0, 150)), { id: rejected.claim.id, action_key: 'reject', via: 'grant', reason: 'Not a business expense' });
  }
  claimsOut.push({ id: rejected.claim.id, reference: rejected.claim.reference, state: approver.id !== claimant.id ? 'rejected' : 'submitted', claimant_member_id: claimant.id, title: rejected.claim.title });

  org.expense_categories = [meals, travel, lodging, advance].map((c) => ({ id: c.id, code: c.code, name: c.name }));
  org.claim_groups = [
    { id: roadshow.id, name: roadshow.name, retired: false },
    { id: oldTrip.id, name: oldTrip.name, retired: true },
  ];
  org.payout_channels = channels.map((c) => ({ id: c.id, member_id: c.memberId, channel_key: c.channelKey, name: c.name, active: c.active }));
  org.org_units = [hq, sales, finance].map((u) => ({ id: u.id, code: u.code, name: u.name }));
  org.positions = [ceo, salesExec, financeManager, clerkPosition].map((p) => ({ id: p.id, title: p.title, org_unit_id: p.orgUnitId }));
  org.mileage_rates = [{ id: mileage.id, name: mileage.name }];
  org.per_diem_rates = [{ id: perDiem.id, name: perDiem.name }];
  org.claims = claimsOut;
}

export function registerClaimsDemo(): void {
  addDemoSection((db, org, ctx) => seedClaims(db, org, ctx));
}
