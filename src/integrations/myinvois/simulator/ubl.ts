/**
 * Reading LHDN's UBL 2.1 JSON: every element is an array of objects, the value in `_`, attributes
 * as sibling keys. `node(x, 'A', 'B')` walks the first element of each step.
 */

export type UblNode = Record<string, unknown>;

export function isNode(value: unknown): value is UblNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The elements named `key` under `parent` (an empty list when absent or not a list of objects). */
export function list(parent: unknown, key: string): UblNode[] {
  if (!isNode(parent)) return [];
  const value = parent[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

/** The first element along `path`, or undefined. */
export function node(parent: unknown, ...path: string[]): UblNode | undefined {
  let current: unknown = parent;
  for (const key of path) {
    const next = list(current, key)[0];
    if (!next) return undefined;
    current = next;
  }
  return current as UblNode;
}

/** The text value (`_`) of the first element along `path`, as a trimmed string, or undefined. */
export function text(parent: unknown, ...path: string[]): string | undefined {
  const found = node(parent, ...path);
  const value = found?.['_'];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The raw `_` of an element as written (number or string), for the amount checks. */
export function rawValue(parent: unknown, ...path: string[]): unknown {
  return node(parent, ...path)?.['_'];
}

/** A party's identification of `scheme` (TIN, BRN, NRIC, PASSPORT, ARMY, SST, TTX). */
export function partyId(party: unknown, scheme: string): string | undefined {
  for (const ident of list(party, 'PartyIdentification')) {
    const id = list(ident, 'ID')[0];
    if (id && id['schemeID'] === scheme) return typeof id['_'] === 'string' ? id['_'].trim() : undefined;
  }
  return undefined;
}

/** The Invoice root of a document, or undefined when it is not `{"Invoice":[{...}]}`. */
export function invoiceRoot(document: unknown): UblNode | undefined {
  return node(document, 'Invoice');
}

export function supplierParty(invoice: UblNode): UblNode | undefined {
  return node(invoice, 'AccountingSupplierParty', 'Party');
}

export function customerParty(invoice: UblNode): UblNode | undefined {
  return node(invoice, 'AccountingCustomerParty', 'Party');
}

/** Self-billed types (11–14): the buyer issues the document. */
export function isSelfBilled(typeCode: string): boolean {
  return ['11', '12', '13', '14'].includes(typeCode);
}

/** Notes (credit, debit, refund, normal or self-billed) that must reference a valid invoice. */
export function isNote(typeCode: string): boolean {
  return ['02', '03', '04', '12', '13', '14'].includes(typeCode);
}
