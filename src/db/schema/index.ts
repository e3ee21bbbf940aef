export * from './organizations';
export * from './customers';
export * from './workflows';
export * from './people';
export * from './expenses';
