/**
 * Members' payout channels (bank account, DuitNow ID). The values are sealed (AES-256-GCM under
 * PAYOUT_ENCRYPTION_KEY, the organization as associated data) and never answered, logged or written to
 * the settings history: only their masked form is stored in clear. me.payoutChannels reaches the
 * caller's own channels only; the old `(db, key, input)` signatures stay for the demo and factories.
 */
import type { Database } from '../../db/client';
import {
  deactivatePayoutChannelRow,
  insertPayoutChannel,
  listMemberPayoutChannels,
  lockMemberPayoutChannel,
  type PayoutChannelRow,
} from '../../db/queries/people';
import type { MaskedPayoutField } from '../../db/schema';
import type { DuitNowIdType, PayoutChannelKey } from '../../domain/expenses';
import { validationError } from '../../lib/errors';
import { Refusals } from '../../lib/refusals';
import { seal } from '../../lib/secret-box';
import type { ServiceContext } from '../context';
import { openPage } from '../settings/page';
import { createdRecord, deactivateRecord, visibleText, type RecordChange, type SetupFamily } from '../settings/setup';
import { malaysianBankName } from './malaysian-banks';

/**
 * The kinds of payout channel and their fields. Values are kept encrypted; what is stored in clear
 * and answered is the masked form only.
 */
interface FieldDefinition {
  key: string;
  label: { en: string; ms: string; zh?: string };
  mask: 'tail' | 'initials' | 'clear';
  /** The field whose last digits are the account tail. */
  isAccount?: boolean;
}

const CHANNEL_NAMES = {
  bank_transfer: { en: 'Bank transfer', ms: 'Pindahan bank', zh: '银行转账' },
  duitnow: { en: 'DuitNow', ms: 'DuitNow', zh: 'DuitNow' },
};

/** The fields me.payoutChannels.create takes, per kind. */
export const PAYOUT_CHANNEL_KINDS: Record<PayoutChannelKey, { name: { en: string; ms: string; zh: string }; fields: FieldDefinition[] }> = {
  bank_transfer: {
    name: CHANNEL_NAMES.bank_transfer,
    fields: [
      { key: 'bank', label: { en: 'Bank', ms: 'Bank', zh: '银行' }, mask: 'clear' },
      { key: 'account_holder', label: { en: 'Account holder', ms: 'Pemegang akaun', zh: '账户持有人' }, mask: 'initials' },
      { key: 'account_number', label: { en: 'Account number', ms: 'Nombor akaun', zh: '账号' }, mask: 'tail', isAccount: true },
    ],
  },
  duitnow: {
    name: CHANNEL_NAMES.duitnow,
    fields: [
      { key: 'id_type', label: { en: 'DuitNow ID type', ms: 'Jenis ID DuitNow', zh: 'DuitNow 账号类型' }, mask: 'clear' },
      { key: 'id_value', label: { en: 'DuitNow ID', ms: 'ID DuitNow', zh: 'DuitNow 账号' }, mask: 'tail', isAccount: true },
    ],
  },
};

/**
 * The field names the first demo and test factories wrote (bank_name, proxy_type, proxy_id), read by
 * the old `maskFields` and `createPayoutChannel` only; remove with their last caller.
 */
const LEGACY_PAYOUT_CHANNEL_KINDS: Record<string, { fields: FieldDefinition[] }> = {
  bank_transfer: {
    fields: [
      { key: 'bank_name', label: { en: 'Bank', ms: 'Bank', zh: '银行' }, mask: 'clear' },
      { key: 'account_holder', label: { en: 'Account holder', ms: 'Pemegang akaun', zh: '账户持有人' }, mask: 'initials' },
      { key: 'account_number', label: { en: 'Account number', ms: 'Nombor akaun', zh: '账号' }, mask: 'tail', isAccount: true },
    ],
  },
  duitnow: {
    fields: [
      { key: 'proxy_type', label: { en: 'DuitNow ID type', ms: 'Jenis ID DuitNow', zh: 'DuitNow 账号类型' }, mask: 'clear' },
      { key: 'proxy_id', label: { en: 'DuitNow ID', ms: 'ID DuitNow', zh: 'DuitNow 账号' }, mask: 'tail', isAccount: true },
    ],
  },
};

const TAIL = 4;

/** The masked form of one value: last digits only, initials only, or (not secret) in clear. */
export function maskValue(value: string, mask: FieldDefinition['mask']): string {
  const v = value.trim();
  if (mask === 'clear') return v;
  if (mask === 'initials') {
    return v
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => `${[...word][0] ?? ''}${'*'.repeat(Math.max([...word].length - 1, 1))}`)
      .join(' ');
  }
  const compact = v.replace(/[\s-]/g, '');
  const chars = [...compact];
  const shown = chars.length > TAIL ? chars.slice(-TAIL).join('') : '';
  return `${'•'.repeat(Math.max(chars.length - shown.length, 4))}${shown}`;
}

function accountTailOf(value: string): string | null {
  const chars = [...value.replace(/[\s-]/g, '')];
  return chars.length > TAIL ? chars.slice(-TAIL).join('') : null;
}

/** @deprecated the old field names (LEGACY_PAYOUT_CHANNEL_KINDS); me.payoutChannels masks with `maskChannelFields`. */
export function maskFields(kind: string, values: Record<string, string>): { masked: MaskedPayoutField[]; accountTail: string | null } {
  const def = LEGACY_PAYOUT_CHANNEL_KINDS[kind];
  if (!def) throw validationError('/channel_key', `unknown payout channel kind ${kind}`);
  const masked: MaskedPayoutField[] = [];
  let accountTail: string | null = null;
  for (const field of def.fields) {
    const value = values[field.key];
    if (value === undefined || !value.trim()) throw validationError(`/fields/${field.key}`, 'is required');
    masked.push({ key: field.key, label: field.label, display: maskValue(value, field.mask) });
    if (field.isAccount) accountTail = accountTailOf(value);
  }
  const unknown = Object.keys(values).filter((k) => !def.fields.some((f) => f.key === k));
  if (unknown.length) throw validationError(`/fields/${unknown[0]}`, 'is not a field of this channel kind');
  return { masked, accountTail };
}

/** @deprecated call me.payoutChannels.create (createMyPayoutChannel). Adds a channel with the old field names, encrypted under `key`. */
export async function createPayoutChannel(
  db: Database,
  key: Buffer,
  input: { organizationId: string; memberId: string; channelKey: string; name: string; fields: Record<string, string>; active?: boolean },
) {
  if (!input.name.trim()) throw validationError('/name', 'must not be blank');
  const { masked, accountTail } = maskFields(input.channelKey, input.fields);
  return insertPayoutChannel(db, {
    organizationId: input.organizationId,
    memberId: input.memberId,
    channelKey: input.channelKey,
    name: input.name.trim(),
    fieldsCiphertext: seal(key, JSON.stringify(input.fields), input.organizationId),
    fieldsMasked: masked,
    accountTail,
    active: input.active ?? true,
  });
}

/** @deprecated call me.payoutChannels.deactivate (deactivateMyPayoutChannel). */
export async function deactivatePayoutChannel(db: Database, q: { organizationId: string; id: string }) {
  await deactivatePayoutChannelRow(db, q);
}

// ---------------------------------------------------------------------------------------------
// me.payoutChannels: a member's own channels (never anybody else's: another member's is 404)

const ENTITY = 'payoutChannels';

const DUITNOW_ID_TYPE_NAMES: Record<DuitNowIdType, string> = {
  mobile: 'Mobile number',
  nric: 'MyKad (NRIC) number',
  business_reg: 'Business registration number',
  passport: 'Passport number',
};

export type PayoutChannelInput =
  | { channel_key: 'bank_transfer'; name: string; fields: { bank: string; account_holder: string; account_number: string } }
  | { channel_key: 'duitnow'; name: string; fields: { id_type: DuitNowIdType; id_value: string } };

/**
 * Each DuitNow ID as the service keeps it: a Malaysian mobile number as +60…, a MyKad number as its
 * 12 digits, a business registration number (12 digits, or the old form such as 123456-X), a passport
 * number in capitals. Spaces and hyphens people type are dropped.
 */
function normalizeDuitNowId(type: DuitNowIdType, value: string): string | undefined {
  const compact = value.replace(/[\s-]/g, '');
  switch (type) {
    case 'mobile': {
      const m = /^(?:\+?60|0)(1\d{8,9})$/.exec(compact);
      return m ? `+60${m[1]}` : undefined;
    }
    case 'nric':
      return /^\d{12}$/.test(compact) ? compact : undefined;
    case 'business_reg':
      return /^(\d{12}|\d{1,7}[A-Za-z])$/.test(compact) ? compact.toUpperCase() : undefined;
    case 'passport':
      return /^[A-Za-z0-9]{6,20}$/.test(compact) ? compact.toUpperCase() : undefined;
  }
}

const DUITNOW_ID_RULE: Record<DuitNowIdType, string> = {
  mobile: 'must be a Malaysian mobile number (01x-xxx xxxx or +601x…)',
  nric: 'must be the 12 digits of a MyKad number',
  business_reg: 'must be a business registration number (12 digits, or the old form such as 123456-X)',
  passport: 'must be 6 to 20 letters and digits',
};

/**
 * Checks the fields of a channel; answers the values to encrypt (normalised) and what may be shown:
 * the masked form of each field, the bank and ID type in clear, and the account tail.
 */
export function maskChannelFields(r: Refusals, input: PayoutChannelInput): { values: Record<string, string>; masked: MaskedPayoutField[]; accountTail: string | null } {
  const def = PAYOUT_CHANNEL_KINDS[input.channel_key];
  const values: Record<string, string> = {};
  const shown: Record<string, string> = {};
  if (input.channel_key === 'bank_transfer') {
    const f = input.fields;
    const bankName = malaysianBankName(f.bank);
    if (r.check(Boolean(bankName), '/fields/bank', 'is not a Malaysian bank this service knows (send its SWIFT BIC, such as MBBEMYKL)')) {
      values.bank = f.bank.trim().toUpperCase();
      shown.bank = bankName!;
    }
    const holder = visibleText(r, f.account_holder, '/fields/account_holder', 100);
    values.account_holder = shown.account_holder = holder;
    const number = f.account_number.replace(/[\s-]/g, '');
    if (r.check(/^\d{6,20}$/.test(number), '/fields/account_number', 'must be 6 to 20 digits')) values.account_number = shown.account_number = number;
  } else {
    const f = input.fields;
    values.id_type = f.id_type;
    shown.id_type = DUITNOW_ID_TYPE_NAMES[f.id_type];
    const id = normalizeDuitNowId(f.id_type, f.id_value);
    if (r.check(id !== undefined, '/fields/id_value', DUITNOW_ID_RULE[f.id_type])) values.id_value = shown.id_value = id!;
  }
  const masked: MaskedPayoutField[] = [];
  let accountTail: string | null = null;
  if (r.empty) {
    for (const field of def.fields) {
      const value = shown[field.key]!;
      masked.push({ key: field.key, label: field.label, display: maskValue(value, field.mask) });
      if (field.isAccount) accountTail = accountTailOf(value);
    }
  }
  return { values, masked, accountTail };
}

/** A channel as answered: masked fields only, never a value. */
export function payoutChannelView(row: PayoutChannelRow) {
  return {
    id: row.id,
    member_id: row.memberId,
    channel_key: row.channelKey as PayoutChannelKey,
    name: row.name,
    fields: row.fieldsMasked.map((f) => ({ key: f.key, label: f.label, display: f.display })),
    active: row.active,
    revision: row.revision,
    created_at: row.createdAt.toISOString(),
  };
}
export type PayoutChannelAnswer = ReturnType<typeof payoutChannelView>;

/** The caller's own channels by name; inactive ones with `include_inactive`. */
export async function listMyPayoutChannels(ctx: ServiceContext, input: { include_inactive?: boolean; limit?: number; cursor?: string }) {
  const filters = { include_inactive: input.include_inactive ?? false };
  // The member is part of the list's binding: one member's cursor does not page another's list.
  const binding = { ...filters, member_id: ctx.principal.memberId };
  const page = await openPage(ctx, ENTITY, input, binding);
  const rows = await listMemberPayoutChannels(ctx.db, {
    organizationId: ctx.org.id,
    memberId: ctx.principal.memberId,
    includeInactive: filters.include_inactive,
    after: page.after,
    limit: page.take,
  });
  return page.answer(rows, (c) => ({ value: c.name, id: c.id }), payoutChannelView);
}

/** The caller's own channels: another member's is not found (404). */
const payoutChannels: SetupFamily<PayoutChannelRow, PayoutChannelAnswer, { active: false }> = {
  entity: ENTITY,
  what: 'payout channel of yours',
  lock: (ctx, id) => lockMemberPayoutChannel(ctx.db, { organizationId: ctx.org.id, id, memberId: ctx.principal.memberId }),
  write: (ctx, current) => deactivatePayoutChannelRow(ctx.db, { organizationId: ctx.org.id, id: current.id }),
  view: (_ctx, row) => payoutChannelView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

/** Adds a channel of the caller; the values are encrypted under `payoutKey` (AES-256-GCM, the organization as associated data). */
export async function createMyPayoutChannel(ctx: ServiceContext, input: PayoutChannelInput, secrets: { payoutKey: Buffer }): Promise<PayoutChannelAnswer> {
  const r = new Refusals();
  const name = visibleText(r, input.name, '/name', 100);
  const { values, masked, accountTail } = maskChannelFields(r, input);
  r.throwIfAny();
  const row = await insertPayoutChannel(ctx.db, {
    organizationId: ctx.org.id,
    memberId: ctx.principal.memberId,
    channelKey: input.channel_key,
    name,
    fieldsCiphertext: seal(secrets.payoutKey, JSON.stringify(values), ctx.org.id),
    fieldsMasked: masked,
    accountTail,
    active: true,
  });
  return createdRecord(ctx, payoutChannels, row);
}

/** Deactivates one of the caller's channels; another member's is not found (404). */
export async function deactivateMyPayoutChannel(ctx: ServiceContext, input: RecordChange): Promise<PayoutChannelAnswer> {
  return deactivateRecord(ctx, payoutChannels, input, () => ({ active: false }));
}
