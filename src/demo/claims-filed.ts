import type { ClaimsKit } from './claims';
import type { DemoMember } from './types';

/**
 * The demo's first four claims (src/demo/claims.ts): the roadshow claim left in finance with one share
 * signed, the client lunch paid (it shares the roadshow's receipt scan: both lines are possible
 * duplicates), a draft in yen, and the gym fee rejected by the finance manager on the owner's
 * authority (a delegation). In an organization of one person nobody else can sign: they stay drafts.
 */

/** Who signs the colleague's claims in review: their superior on the org chart. */
export function superiorOfColleague(kit: ClaimsKit): DemoMember {
  const { approver, colleague, owner } = kit.cast;
  return colleague.id === approver.id ? owner : approver;
}

/** Who pays a claim: the finance manager, or the owner when it is the finance manager's own. */
export function payerFor(kit: ClaimsKit, claimant: DemoMember): DemoMember {
  return claimant.id === kit.cast.approver.id ? kit.cast.owner : kit.cast.approver;
}

export async function filedClaims(kit: ClaimsKit): Promise<void> {
  await roadshowClaim(kit);
  await lunchClaim(kit);
  await tokyoClaim(kit);
  await gymClaim(kit);
}

/** 1. In finance: lines of every type, a withdrawn line, two currencies; the owner signed the KLCC share, the rest waits for the controller. */
async function roadshowClaim(kit: ClaimsKit): Promise<void> {
  const { org, cast, ref, past, after, file, scan, channelOf, create, addLine, withdrawLine, decide, filed, decidable } = kit;
  const { owner, claimant } = cast;
  const { meals, travel, lodging, advance } = ref.categories;
  const { klcc, penang } = ref.projects;
  const sales = ref.departments.sales;
  const roadshow = await create(claimant, after(0), {
    title: 'Roadshow to Penang and Ipoh',
    group_id: ref.claimGroups.roadshow.id,
    payout_channel_id: channelOf(claimant.id)?.id ?? null,
  });
  const id = roadshow.claim.id;
  await addLine(claimant, after(0), {
    claim_id: id,
    type: 'receipt',
    expense_date: past(20),
    category_id: meals.id,
    description: 'Dinner with distributor',
    amount: '318.00',
    // SST service tax 8% borne, backed out of the gross: 318.00 × 8 / 108.
    tax_amount: '23.56',
    tax_code_id: ref.taxCodes.serviceTax.id,
    supplier_name: 'Restoran Nasi Kandar Line Clear',
    supplier_tin: 'IG21136626090',
    document_basis: 'einvoice_company',
    einvoice_uuid: 'F9D425P6DS7D8IU9K2M1QX4T7B',
    shares: [
      { analytic_account_id: klcc.id, percentage: '60' },
      { analytic_account_id: penang.id, percentage: '40' },
      { analytic_account_id: sales.id, percentage: '100' },
    ],
    documents: [(await file(claimant, scan)).id],
  });
  await addLine(claimant, after(0), {
    claim_id: id,
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
  await addLine(claimant, after(0), {
    claim_id: id,
    type: 'mileage',
    expense_date: past(18),
    category_id: travel.id,
    description: 'Kuala Lumpur to Ipoh and back',
    quantity: '412.6',
    rate_id: ref.mileageRate.id,
    shares: [{ analytic_account_id: klcc.id, percentage: '100' }],
  });
  await addLine(claimant, after(0), {
    claim_id: id,
    type: 'per_diem',
    expense_date: past(18),
    category_id: meals.id,
    description: 'Three days on the road',
    quantity: '3',
    rate_id: ref.perDiemRate.id,
    band: 'peninsular',
    shares: [{ analytic_account_id: sales.id, percentage: '100' }],
  });
  await addLine(claimant, after(0), {
    claim_id: id,
    type: 'advance_offset',
    expense_date: past(25),
    category_id: advance.id,
    description: 'Cash advance for the roadshow',
    amount: '500.00',
    shares: [{ analytic_account_id: penang.id, percentage: '100' }],
  });
  const parking = await addLine(claimant, after(0), {
    claim_id: id,
    type: 'receipt',
    expense_date: past(18),
    category_id: travel.id,
    description: 'Parking (claimed twice by mistake)',
    amount: '12.00',
    supplier_name: 'Ipoh Parade Parking',
    document_basis: 'relaxation_receipt',
    relaxation_reason: 'Parking machine receipt, no e-invoice',
  });
  await withdrawLine(claimant, after(0), id, parking.id);
  if (!decidable) return filed(roadshow, claimant);
  await decide(claimant, after(60), id, 'submit');
  // The Sales Manager left and the Commercial Director's seat is vacant: the Managing Director signs.
  await decide(owner, after(120), id, 'approve');
  // In finance the owner signs the KLCC share (within her band); Penang and Sales have no approver
  // of their own and wait for the finance controller.
  filed(await decide(owner, after(180), id, 'approve'), claimant);
}

/** 2. Paid: the superior signs, the KLCC approver signs, the finance manager pays with the bank's advice. */
async function lunchClaim(kit: ClaimsKit): Promise<void> {
  const { org, cast, ref, past, after, file, scan, channelOf, create, addLine, decide, pay, filed, decidable } = kit;
  const { owner, colleague } = cast;
  const lunch = await create(colleague, after(10), { title: 'Client lunch, Bangsar', payout_channel_id: channelOf(colleague.id)?.id ?? null });
  const id = lunch.claim.id;
  await addLine(colleague, after(10), {
    claim_id: id,
    type: 'receipt',
    expense_date: past(20),
    category_id: ref.categories.meals.id,
    description: 'Lunch with Kedai Runcit Maju',
    amount: '159.00',
    tax_amount: '11.78',
    tax_code_id: ref.taxCodes.serviceTax.id,
    supplier_name: 'Restoran Nasi Kandar Line Clear',
    document_basis: 'einvoice_employee',
    einvoice_uuid: 'QW7N2K4D8P1R6T3Y5U9I0O2A4S',
    shares: [{ analytic_account_id: ref.projects.klcc.id, percentage: '100' }],
    // The same scan as the roadshow's dinner: both lines show possible_duplicate.
    documents: [(await file(colleague, scan)).id],
  });
  if (!decidable) return filed(lunch, colleague);
  await decide(colleague, after(70), id, 'submit');
  await decide(superiorOfColleague(kit), after(130), id, 'approve');
  await decide(owner, after(140), id, 'approve');
  const payer = payerFor(kit, colleague);
  const proof = await file(payer, `bank advice ${org.id}`);
  filed(await pay(payer, after(24 * 60), id, { channel_id: channelOf(colleague.id)?.id, proof_document_id: proof.id }), colleague);
}

/** 3. A draft all in one foreign currency (original_currency and original_total). */
async function tokyoClaim(kit: ClaimsKit): Promise<void> {
  const { cast, ref, past, after, create, addLine, filed } = kit;
  const { claimant } = cast;
  const tokyo = await create(claimant, after(20), { title: 'Tokyo trade fair' });
  const lines = [
    { description: 'Airport limousine bus', amount: '3200', fx_rate: '0.0301', category_id: ref.categories.travel.id, supplier_name: null },
    { description: 'Business lunch', amount: '5800', fx_rate: '0.0302', category_id: ref.categories.meals.id, supplier_name: 'Ginza Shokudo' },
  ];
  for (const [i, line] of lines.entries()) {
    await addLine(claimant, after(20), {
      claim_id: tokyo.claim.id,
      type: 'receipt',
      expense_date: past(17 - i),
      currency: 'JPY',
      document_basis: 'foreign_supplier',
      fx_rate_reason: 'Rate on the card statement',
      ...line,
    });
  }
  filed(tokyo, claimant);
}

/** 4. Rejected in review by the finance manager on the owner's authority (her delegation); it no longer counts for duplicates. */
async function gymClaim(kit: ClaimsKit): Promise<void> {
  const { cast, ref, past, after, create, addLine, decide, filed, decidable } = kit;
  const { approver, claimant } = cast;
  const gym = await create(claimant, after(30), { title: 'Gym membership' });
  const id = gym.claim.id;
  await addLine(claimant, after(30), {
    claim_id: id,
    type: 'receipt',
    expense_date: past(16),
    category_id: ref.categories.travel.id,
    description: 'Monthly gym fee',
    amount: '150.00',
    supplier_name: 'Fitness Hub',
    document_basis: 'relaxation_receipt',
    relaxation_reason: 'Membership card statement',
    shares: [{ analytic_account_id: ref.departments.sales.id, percentage: '100' }],
  });
  if (!decidable) return filed(await decide(claimant, after(80), id, 'cancel'), claimant);
  await decide(claimant, after(80), id, 'submit');
  filed(await decide(approver, after(150), id, 'reject', 'Not a business expense'), claimant);
}
