export * from './organizations';
export * from './customers';
export * from './workflows';
export * from './idempotency';
export * from './rate-limits';
