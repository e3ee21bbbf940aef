import { readFileSync } from 'node:fs';
import type { BuiltInRole } from '../domain/permissions';
import type { DemoMember, DemoOrganization } from './types';

/** What each built-in role's demo person does in the console, for the start-up banner. */
const PART: Record<BuiltInRole, string> = {
  owner: 'owner; signs the KLCC project share; delegates to the accountant',
  accountant: 'approver (superior and finance controller) and payer',
  clerk: 'prepares invoices; files claims',
  employee: 'claimant',
  viewer: 'reads only',
};

/**
 * The banner's sign-in lines: one per active member of the demo's first organization (its owner,
 * accountant, clerk, employee, viewer), with e-mail and password, so a newcomer can sign in to the
 * console as each role.
 */
export function demoLoginLines(org: Pick<DemoOrganization, 'name' | 'members'>): string[] {
  const active = org.members.filter((m) => m.active);
  if (active.length === 0) return [];
  const width = (pick: (m: DemoMember) => string) => Math.max(...active.map((m) => pick(m).length));
  const [role, name, email] = [width((m) => m.role), width((m) => m.name), width((m) => m.email)];
  return [
    `  Demo people of ${org.name} (sign in to the console with e-mail and password):`,
    ...active.map((m) => `    ${m.role.padEnd(role)}  ${m.name.padEnd(name)}  ${m.email.padEnd(email)}  ${m.password}  (${PART[m.role] ?? m.role})`),
  ];
}

/** The first organization of a demo.json written by an earlier start on this data directory, if readable. */
export function readDemoOrganization(file: string): Pick<DemoOrganization, 'name' | 'members'> | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { organizations?: DemoOrganization[] };
    const org = data.organizations?.[0];
    return org && Array.isArray(org.members) ? org : undefined;
  } catch {
    return undefined;
  }
}
