export * from './organizations';
export * from './customers';
export * from './workflows';
