/**
 * Split by entity (accounts.ts, tax-codes.ts, analytic-axes.ts, analytic-accounts.ts,
 * custom-field-definitions.ts, trade-lines.ts; customerExists in customers.ts). Kept as re-exports
 * only for the set-up services still importing this path; new code imports the entity's file.
 */
export * from './accounts';
export * from './analytic-accounts';
export * from './analytic-axes';
export * from './custom-field-definitions';
export * from './tax-codes';
export * from './trade-lines';
export { customerExists } from './customers';
export type { KeysetAfter } from './keyset';
