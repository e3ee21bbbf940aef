import type { Database } from '../../db/client';
import { deactivatePayoutChannelRow, insertPayoutChannel } from '../../db/queries/people';
import type { MaskedPayoutField } from '../../db/schema';
import { validationError } from '../../lib/errors';
import { seal } from '../../lib/secret-box';

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

export const PAYOUT_CHANNEL_KINDS: Record<string, { name: { en: string; ms: string; zh: string }; fields: FieldDefinition[] }> = {
  bank_transfer: {
    name: { en: 'Bank transfer', ms: 'Pindahan bank', zh: '银行转账' },
    fields: [
      { key: 'bank_name', label: { en: 'Bank', ms: 'Bank', zh: '银行' }, mask: 'clear' },
      { key: 'account_holder', label: { en: 'Account holder', ms: 'Pemegang akaun', zh: '账户持有人' }, mask: 'initials' },
      { key: 'account_number', label: { en: 'Account number', ms: 'Nombor akaun', zh: '账号' }, mask: 'tail', isAccount: true },
    ],
  },
  duitnow: {
    name: { en: 'DuitNow', ms: 'DuitNow', zh: 'DuitNow' },
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

export function maskFields(kind: string, values: Record<string, string>): { masked: MaskedPayoutField[]; accountTail: string | null } {
  const def = PAYOUT_CHANNEL_KINDS[kind];
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

/** Adds a payout channel of a member; the values are encrypted under `key` (AES-256-GCM). */
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

export async function deactivatePayoutChannel(db: Database, q: { organizationId: string; id: string }) {
  await deactivatePayoutChannelRow(db, q);
}
