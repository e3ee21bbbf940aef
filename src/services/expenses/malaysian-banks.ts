import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { projectPath } from '../../lib/project-root';

/**
 * The banks a bank_transfer payout channel may name (data/malaysian-banks.json): the SWIFT BIC of
 * the bank's head office and the name people know it by. Read once, checked on load like the other
 * code lists, so a damaged file fails at start-up.
 */

const listSchema = z.object({
  source: z.string().min(1),
  entries: z.array(z.object({ code: z.string().regex(/^[A-Z]{4}MY[A-Z0-9]{2}$/), name: z.string().min(1) })).min(1),
});

const list = listSchema.parse(JSON.parse(readFileSync(projectPath('data', 'malaysian-banks.json'), 'utf8')));

export const MALAYSIAN_BANKS: ReadonlyMap<string, string> = new Map(list.entries.map((e) => [e.code, e.name]));

/** The bank's name for a code of the list (case-insensitive), or undefined. */
export function malaysianBankName(code: string): string | undefined {
  return MALAYSIAN_BANKS.get(code.trim().toUpperCase());
}
