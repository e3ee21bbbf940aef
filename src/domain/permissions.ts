/**
 * The permissions the service knows: dotted strings a role or an API key may carry. A role or key may
 * only carry these; every operation names exactly one.
 */
export const PERMISSIONS = [
  'receivables.invoice.create',
  'receivables.invoice.read',
  // Authority on the issue edge of a receivables document (segregated from the preparer).
  'receivables.invoice.issue',
  // Recording and resolving a customer's dispute of an issued document.
  'receivables.invoice.dispute',
  // Cancelling an issued document while nothing is allocated to it.
  'receivables.invoice.cancel',
  'receivables.customer.read',
  'receivables.customer.create',
  'receivables.customer.update',
  'receivables.receipt.create',
  'receivables.receipt.read',
  // Creating and downloading journal export batches, reading the journal's trial balance and control accounts.
  'receivables.journal.export',
  'expenses.claim.create',
  // Authority on the claim workflow's reject edge and sign-off steps; reads every claim of the organization.
  'expenses.claim.approve',
  // Authority on the claim workflow's pay edge; reads every claim of the organization.
  'expenses.claim.pay',
  // A member's own payout channels (never anybody else's).
  'expenses.payout_channel.manage',
  'documents.create',
  // Reading the organization's reference data (accounts, tax codes, axes, categories, ...).
  'organization.settings.read',
  // Creating, changing and deactivating reference data and the organization's profile.
  'organization.settings.manage',
  // Adding members, setting their roles, deactivating them.
  'organization.members.manage',
  // Creating and changing roles that do not carry organization.roles.manage_owner.
  'organization.roles.manage',
  // Creating, changing or granting a role that carries this very permission (the owner's power).
  'organization.roles.manage_owner',
  // Reading the organization's events (GET /v1/events).
  'organization.events.read',
  // Creating, changing and deleting webhook endpoints, and sending deliveries again.
  'organization.webhooks.manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(p: string): p is Permission {
  return (PERMISSIONS as readonly string[]).includes(p);
}

const READ_SETTINGS: Permission = 'organization.settings.read';

/** The built-in roles every organization starts with. */
export const BUILT_IN_ROLES = {
  owner: { name: 'Owner', permissions: PERMISSIONS },
  accountant: {
    name: 'Accountant',
    permissions: [
      'receivables.invoice.create',
      'receivables.invoice.read',
      'receivables.invoice.issue',
      'receivables.invoice.dispute',
      'receivables.invoice.cancel',
      'receivables.customer.read',
      'receivables.customer.create',
      'receivables.customer.update',
      'receivables.receipt.create',
      'receivables.receipt.read',
      'receivables.journal.export',
      'expenses.claim.create',
      'expenses.claim.approve',
      'expenses.claim.pay',
      'expenses.payout_channel.manage',
      'documents.create',
      READ_SETTINGS,
      'organization.settings.manage',
      'organization.events.read',
    ],
  },
  clerk: {
    name: 'Clerk',
    permissions: [
      'receivables.invoice.create',
      'receivables.invoice.read',
      'receivables.customer.read',
      'receivables.receipt.create',
      'receivables.receipt.read',
      'expenses.claim.create',
      'expenses.payout_channel.manage',
      'documents.create',
      READ_SETTINGS,
    ],
  },
  employee: { name: 'Employee', permissions: ['expenses.claim.create', 'expenses.payout_channel.manage', 'documents.create', READ_SETTINGS] },
  viewer: { name: 'Viewer', permissions: ['receivables.invoice.read', 'receivables.customer.read', 'receivables.receipt.read', READ_SETTINGS] },
} as const satisfies Record<string, { name: string; permissions: readonly Permission[] }>;

export type BuiltInRole = keyof typeof BUILT_IN_ROLES;
export const BUILT_IN_ROLE_KEYS = Object.keys(BUILT_IN_ROLES) as BuiltInRole[];
