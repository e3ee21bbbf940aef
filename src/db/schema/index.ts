export * from './organizations';
export * from './customers';
