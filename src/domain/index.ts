/**
 * The vocabulary every layer imports downward: closed sets as `as const` arrays with their types.
 * Nothing here imports from another layer.
 */
export * from './documents';
export * from './expenses';
export * from './organization';
export * from './permissions';
export * from './receivables';
export * from './workflow';
export * from './approvals';
export * from './mail';
export * from './events';
