/** Every permission the service knows; a role or key may only carry these. */
export const PERMISSIONS = [
  'receivables.invoice.create',
  'receivables.invoice.read',
  'receivables.invoice.issue',
  'receivables.customer.read',
  'receivables.customer.create',
  'expenses.claim.create',
  // Authority on the claim workflow's reject edge and sign-off steps; reads every claim of the organization.
  'expenses.claim.approve',
  // Authority on the claim workflow's pay edge; reads every claim of the organization.
  'expenses.claim.pay',
  'documents.create',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(p: string): p is Permission {
  return (PERMISSIONS as readonly string[]).includes(p);
}

/** The built-in roles every organization starts with. */
export const BUILT_IN_ROLES: Record<string, { name: string; permissions: readonly Permission[] }> = {
  owner: { name: 'Owner', permissions: PERMISSIONS },
  accountant: {
    name: 'Accountant',
    permissions: [
      'receivables.invoice.create',
      'receivables.invoice.read',
      'receivables.invoice.issue',
      'receivables.customer.read',
      'receivables.customer.create',
      'expenses.claim.create',
      'expenses.claim.approve',
      'expenses.claim.pay',
      'documents.create',
    ],
  },
  clerk: {
    name: 'Clerk',
    permissions: [
      'receivables.invoice.create',
      'receivables.invoice.read',
      'receivables.customer.read',
      'expenses.claim.create',
      'documents.create',
    ],
  },
  employee: { name: 'Employee', permissions: ['expenses.claim.create', 'documents.create'] },
  viewer: { name: 'Viewer', permissions: ['receivables.invoice.read', 'receivables.customer.read'] },
};

export type BuiltInRole = keyof typeof BUILT_IN_ROLES;
