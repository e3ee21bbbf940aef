export * from './organizations';
export * from './customers';
export * from './workflows';
export * from './reference-data';
export * from './receivables';
export * from './files';
export * from './server-secrets';
