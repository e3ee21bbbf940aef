import type { ClaimsKit } from './claims';
import { payerFor, superiorOfColleague } from './claims-filed';
import type { DemoMember } from './types';

/**
 * The demo's other claims (src/demo/claims.ts), one for each state the first four leave out: paid
 * after an escalation (the KLCC share is above the owner's band, the finance controller signs it),
 * disputed by the KLCC approver, returned to draft and resubmitted (in review again), approved and
 * waiting for payment (after a dispute resolved), cancelled. In an organization of one person only the cancelled one is filed.
 */

export async function decidedClaims(kit: ClaimsKit): Promise<void> {
  if (kit.decidable) {
    await equipmentClaim(kit);
    await siteVisitClaim(kit);
    await clientVisitClaim(kit);
    await trainingClaim(kit);
  }
  await stationeryClaim(kit);
}

/** One receipt line of `amount` allocated wholly to one analytic account, added by the claimant at `minute`. */
async function receipt(kit: ClaimsKit, claimant: DemoMember, minute: number, claimId: string, line: { description: string; amount: string; supplier: string; account: { id: string }; category?: { id: string } }) {
  await kit.addLine(claimant, kit.after(minute), {
    claim_id: claimId,
    type: 'receipt',
    expense_date: kit.past(16),
    category_id: (line.category ?? kit.ref.categories.travel).id,
    description: line.description,
    amount: line.amount,
    supplier_name: line.supplier,
    document_basis: 'relaxation_receipt',
    relaxation_reason: 'Handwritten receipt, no e-invoice',
    shares: [{ analytic_account_id: line.account.id, percentage: '100' }],
  });
}

/** 5. Paid: the KLCC share of 1,250.00 is above the owner's band, so the finance controller signs it (escalation); no proof. */
async function equipmentClaim(kit: ClaimsKit): Promise<void> {
  const { cast, ref, after, create, decide, pay, filed, channelOf } = kit;
  const { owner, approver, claimant } = cast;
  const claim = await create(claimant, after(40), { title: 'Site survey, KLCC', payout_channel_id: channelOf(claimant.id)?.id ?? null });
  const id = claim.claim.id;
  await receipt(kit, claimant, 40, id, { description: 'Hired car and driver, three days', amount: '1250.00', supplier: 'Kereta Sewa Maju', account: ref.projects.klcc });
  await decide(claimant, after(90), id, 'submit');
  await decide(owner, after(160), id, 'approve');
  await decide(approver, after(200), id, 'approve');
  filed(await pay(payerFor(kit, claimant), after(26 * 60), id), claimant);
  // Paid to the channel the claim names (no channel_id given), without a proof document.
}

/** 6. Disputed: the KLCC approver disputes her share in finance. */
async function siteVisitClaim(kit: ClaimsKit): Promise<void> {
  const { cast, ref, after, create, decide, filed } = kit;
  const { owner, claimant } = cast;
  const claim = await create(claimant, after(45), { title: 'Site lunch with the contractor' });
  const id = claim.claim.id;
  await receipt(kit, claimant, 45, id, { description: 'Lunch with the fit-out contractor', amount: '180.00', supplier: 'Kafe Seri Menanti', account: ref.projects.klcc, category: ref.categories.meals });
  await decide(claimant, after(95), id, 'submit');
  await decide(owner, after(165), id, 'approve');
  filed(await decide(owner, after(210), id, 'dispute', 'This lunch belongs to the Penang warehouse project'), claimant);
}

/** 7. Returned to draft by the superior, completed by the claimant and submitted again: in review. */
async function clientVisitClaim(kit: ClaimsKit): Promise<void> {
  const { cast, ref, after, create, decide, filed } = kit;
  const { owner, claimant } = cast;
  const claim = await create(claimant, after(50), { title: 'Client visit, Shah Alam' });
  const id = claim.claim.id;
  const sales = ref.departments.sales;
  await receipt(kit, claimant, 50, id, { description: 'Parking, Shah Alam', amount: '24.50', supplier: 'Plaza Alam Sentral Parking', account: sales });
  await decide(claimant, after(100), id, 'submit');
  await decide(owner, after(170), id, 'return', 'Please add the toll charges of the same trip');
  await receipt(kit, claimant, 200, id, { description: 'Tolls, Kuala Lumpur to Shah Alam and back', amount: '18.20', supplier: 'PLUS Malaysia', account: sales });
  filed(await decide(claimant, after(205), id, 'submit'), claimant);
}

/**
 * 8. Approved, waiting for its payout. Where the finance manager is not the claimant, the KLCC
 * approver first disputed her share and the finance manager resolved it on her authority (a
 * delegation; the raiser may not resolve her own dispute), then she signed.
 */
async function trainingClaim(kit: ClaimsKit): Promise<void> {
  const { cast, ref, after, create, decide, filed } = kit;
  const { owner, approver, colleague } = cast;
  const claim = await create(colleague, after(55), { title: 'Train to the Penang training' });
  const id = claim.claim.id;
  await receipt(kit, colleague, 55, id, { description: 'ETS return ticket, KL Sentral to Butterworth', amount: '96.00', supplier: 'KTM Berhad', account: ref.projects.klcc });
  await decide(colleague, after(105), id, 'submit');
  await decide(superiorOfColleague(kit), after(175), id, 'approve');
  if (approver.id !== colleague.id) {
    await decide(owner, after(185), id, 'dispute', 'Is this the Penang training or the KLCC site induction?');
    await decide(approver, after(195), id, 'resolve', 'The KLCC site induction, held in Penang');
  }
  filed(await decide(owner, after(215), id, 'approve'), colleague);
}

/** 9. Cancelled by the claimant while still a draft. */
async function stationeryClaim(kit: ClaimsKit): Promise<void> {
  const { cast, ref, after, create, decide, filed } = kit;
  const { claimant } = cast;
  const claim = await create(claimant, after(58), { title: 'Stationery (filed twice)' });
  await receipt(kit, claimant, 58, claim.claim.id, { description: 'Printer paper', amount: '32.90', supplier: 'Popular Bookstore', account: ref.departments.sales });
  filed(await decide(claimant, after(60), claim.claim.id, 'cancel'), claimant);
}
