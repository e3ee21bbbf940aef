/** The MyInvois UBL 2.1 JSON document: input types, builder and arithmetic check. */
export { buildDocument, UBL_NAMESPACES, type UblDocument } from './build';
export { arithmeticProblems } from './arithmetic';
export * from './types';
