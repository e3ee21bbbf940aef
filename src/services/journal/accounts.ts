/**
 * The control accounts the journal posts to: the account set for a role (and key) in set-up, else the
 * role's account of the default chart (by code) when the organization still has it active. A role
 * that resolves to no active account is named by the readiness answer and refuses the event that
 * needs it (409 `journal_account_missing`), so no entry is ever written half-posted.
 */
import { chartAccounts, deleteJournalAccount, listJournalAccounts, upsertJournalAccount } from '../../db/queries/journal';
import { JOURNAL_ACCOUNT_ROLES, KEYED_JOURNAL_ROLES, type JournalAccountRole } from '../../domain/journal';
import { RECEIPT_METHODS } from '../../domain/receivables';
import { AppError } from '../../lib/errors';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';

/** The default chart's account of each role (data/default-chart-of-accounts.json). */
export const DEFAULT_JOURNAL_ACCOUNT_CODES: Record<JournalAccountRole, string> = {
  receivables_control: '1110',
  sst_payable: '2110',
  customer_deposits: '2040',
  claims_payable: '2030',
  receipt_clearing: '1020',
  payout_clearing: '1020',
  exchange_difference: '4530',
  bank_charges: '6140',
  claim_expense: '6990',
};

/** The payout channel kinds a claim is paid through (payout_channels.channel_key). */
export const PAYOUT_CHANNEL_KINDS = ['bank_transfer', 'duitnow'] as const;

export interface PostingAccount {
  id: string;
  code: string;
}

export interface JournalAccountAnswer {
  role: JournalAccountRole;
  key: string;
  account_id: string | null;
  account_code: string | null;
  /** `setup` when chosen, `default` when the default chart's account is used, `missing` when neither. */
  source: 'setup' | 'default' | 'missing';
}

/** Resolves roles to accounts for one organization (read once per event). */
export class JournalAccounts {
  constructor(
    private readonly chosen: Map<string, string>,
    private readonly byId: Map<string, { id: string; code: string; active: boolean }>,
    private readonly byCode: Map<string, { id: string; code: string; active: boolean }>,
  ) {}

  static async load(ctx: ServiceContext): Promise<JournalAccounts> {
    const organizationId = ctx.org.id;
    const [rows, chart] = await Promise.all([listJournalAccounts(ctx.db, { organizationId }), chartAccounts(ctx.db, { organizationId })]);
    return new JournalAccounts(new Map(rows.map((r) => [`${r.role}:${r.key}`, r.accountId])), new Map(chart.map((a) => [a.id, a])), new Map(chart.map((a) => [a.code, a])));
  }

  /** The account of a role and key: the key's own, else the role's, else the default chart's. */
  find(role: JournalAccountRole, key = ''): (PostingAccount & { source: 'setup' | 'default' }) | undefined {
    for (const k of key ? [key, ''] : ['']) {
      const id = this.chosen.get(`${role}:${k}`);
      const a = id ? this.byId.get(id) : undefined;
      if (a?.active) return { id: a.id, code: a.code, source: 'setup' };
    }
    const d = this.byCode.get(DEFAULT_JOURNAL_ACCOUNT_CODES[role]);
    return d?.active ? { id: d.id, code: d.code, source: 'default' } : undefined;
  }

  /** As find; 409 `journal_account_missing` naming the role when there is none. */
  get(role: JournalAccountRole, key = ''): PostingAccount {
    const a = this.find(role, key);
    if (!a) throw new AppError('journal_account_missing', { detail: `No active account is set for the journal's ${describeRole(role, key)}: choose one in the journal accounts set-up (PUT /v1/journal/accounts)` });
    return { id: a.id, code: a.code };
  }

  /** A line's own account (a document line's revenue account): its code as it reads now. */
  own(id: string): PostingAccount {
    const a = this.byId.get(id);
    if (!a) throw new AppError('internal', { detail: 'a line names no account of this organization' });
    return { id: a.id, code: a.code };
  }

  /** Every role (receipt methods and payout channel kinds each) with what it resolves to. */
  answer(): JournalAccountAnswer[] {
    const keyed = [...this.chosen.keys()].map((k) => k.split(':') as [JournalAccountRole, string]).filter(([, key]) => key !== '');
    const keys: [JournalAccountRole, string][] = [
      ...JOURNAL_ACCOUNT_ROLES.map((r) => [r, ''] as [JournalAccountRole, string]),
      ...RECEIPT_METHODS.map((m) => ['receipt_clearing', m] as [JournalAccountRole, string]),
      ...PAYOUT_CHANNEL_KINDS.map((m) => ['payout_clearing', m] as [JournalAccountRole, string]),
      ...keyed.filter(([r]) => r === 'claim_expense'),
    ];
    return keys.map(([role, key]) => {
      const a = this.find(role, key);
      return { role, key, account_id: a?.id ?? null, account_code: a?.code ?? null, source: a?.source ?? 'missing' };
    });
  }
}

export function describeRole(role: JournalAccountRole, key: string): string {
  const name = role.replace(/_/g, ' ');
  return key ? `${name} account (${key})` : `${name} account`;
}

/** The roles an invoice's life posts to, and a claim's: what readiness checks for each area. */
export const INVOICING_ROLES: JournalAccountRole[] = ['receivables_control', 'sst_payable', 'customer_deposits', 'receipt_clearing', 'exchange_difference'];
export const CLAIM_ROLES: JournalAccountRole[] = ['claims_payable', 'claim_expense', 'payout_clearing', 'bank_charges'];

/** The roles (with keys) of `roles` that resolve to no active account, in words. */
export function missingRoles(accounts: JournalAccounts, roles: JournalAccountRole[]): string[] {
  return accounts
    .answer()
    .filter((a) => roles.includes(a.role) && a.source === 'missing')
    .map((a) => describeRole(a.role, a.key));
}

export async function listJournalAccountAnswers(ctx: ServiceContext): Promise<{ items: JournalAccountAnswer[] }> {
  return { items: (await JournalAccounts.load(ctx)).answer() };
}

export interface SetJournalAccountInput {
  role: JournalAccountRole;
  key?: string;
  /** The account to post to; null goes back to the default chart's account. */
  account_id: string | null;
}

/** Sets (or clears) the account of a role and key; 422 for a key the role does not take or an account that is not an active one of the chart. */
export async function setJournalAccount(ctx: ServiceContext, input: SetJournalAccountInput): Promise<{ items: JournalAccountAnswer[] }> {
  const organizationId = ctx.org.id;
  const key = input.key ?? '';
  const r = new Refusals();
  if (key !== '') {
    r.check(KEYED_JOURNAL_ROLES.includes(input.role), '/key', `is not taken by the role ${input.role}: only receipt_clearing, payout_clearing and claim_expense are set per key`);
    if (input.role === 'receipt_clearing') r.check((RECEIPT_METHODS as readonly string[]).includes(key), '/key', `is not a receipt method (${RECEIPT_METHODS.join(', ')})`);
    if (input.role === 'payout_clearing') r.check((PAYOUT_CHANNEL_KINDS as readonly string[]).includes(key), '/key', `is not a payout channel kind (${PAYOUT_CHANNEL_KINDS.join(', ')})`);
  }
  r.throwIfAny();
  if (input.account_id === null) {
    await deleteJournalAccount(ctx.db, { organizationId, role: input.role, key });
  } else {
    const chart = await chartAccounts(ctx.db, { organizationId });
    r.check(chart.some((a) => a.id === input.account_id && a.active), '/account_id', 'is not an active account of the chart of accounts');
    r.throwIfAny();
    await upsertJournalAccount(ctx.db, { organizationId, role: input.role, key, accountId: input.account_id, now: ctx.now });
  }
  return listJournalAccountAnswers(ctx);
}
