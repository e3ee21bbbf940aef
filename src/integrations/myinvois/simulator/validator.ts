/**
 * LHDN's asynchronous validation of one document, in the documented order: Structure, Core Fields,
 * Signature, Taxpayer, Referenced Documents, Code, Duplicate Document, Currency. Each step answers
 * Valid, or Invalid with `{errorCode: 'ErrorNN', error: <step>, innerError: [...]}` (the documented
 * shape). Step names follow LHDN's "StepNN-… Validator" pattern; only Step03 (duplicate) and Step08
 * (signature) are attested, the other numbers are the simulator's.
 */
import { newLongId } from './ids';
import { vError } from './errors';
import { signatureStep } from './signature';
import type { SimStore } from './store';
import type { SignatureVerifier, SimDocument, ValidationError, ValidationStep } from './types';
import { invoiceRoot } from './ubl';
import { codesStep } from './validate-codes';
import { coreFieldsStep } from './validate-core';
import { currencyStep, duplicateStep } from './validate-duplicate';
import { referencedDocumentsStep, taxpayerStep } from './validate-parties';
import { structureStep } from './validate-structure';

interface StepDef {
  name: string;
  errorCode: string;
  title: string;
  run: () => ValidationError[];
}

function stepResult(def: StepDef): ValidationStep {
  const inner = def.run();
  if (inner.length === 0) return { name: def.name, status: 'Valid' };
  const error = vError(def.errorCode, def.title, null, inner);
  return { name: def.name, status: 'Invalid', error };
}

export function validateDocument(doc: SimDocument, store: SimStore, verify: SignatureVerifier, now: number): void {
  const structure = stepResult({ name: 'Step01-Structure Validator', errorCode: 'Error01', title: 'Structure Validator', run: () => structureStep(doc.json) });
  const steps: ValidationStep[] = [structure];
  const invoice = invoiceRoot(doc.json);
  if (structure.status === 'Valid' && invoice) {
    const defs: StepDef[] = [
      { name: 'Step02-Core Fields Validator', errorCode: 'Error02', title: 'Core Fields Validator', run: () => coreFieldsStep(invoice, doc.dateTimeReceived) },
      { name: 'Step08-Document Signature Validator', errorCode: 'Error08', title: 'Document Signature Validator', run: () => signatureStep(doc.json, doc.typeVersion, verify) },
      { name: 'Step04-Taxpayer Validator', errorCode: 'Error04', title: 'Taxpayer Validator', run: () => taxpayerStep(invoice, store) },
      { name: 'Step05-Referenced Documents Validator', errorCode: 'Error05', title: 'Referenced Documents Validator', run: () => referencedDocumentsStep(invoice, store) },
      { name: 'Step06-Code Validator', errorCode: 'Error06', title: 'Code Validator', run: () => codesStep(invoice) },
      { name: 'Step03-Duplicated Submission Validator', errorCode: 'Error03', title: 'Duplicated Submission Validator', run: () => duplicateStep(doc, store) },
      { name: 'Step07-Currency Validator', errorCode: 'Error07', title: 'Currency Validator', run: () => currencyStep(invoice) },
    ];
    for (const def of defs) steps.push(stepResult(def));
  }
  doc.validationSteps = steps;
  if (steps.every((step) => step.status === 'Valid')) {
    doc.status = 'Valid';
    doc.dateTimeValidated = now;
    doc.longId = newLongId();
  } else {
    doc.status = 'Invalid';
  }
}

/** Validates, oldest first, every `Submitted` document received at least `delayMs` before `now` (all of them when `force`). */
export function settle(store: SimStore, verify: SignatureVerifier, now: number, delayMs: number, force = false): void {
  for (const doc of store.pending()) {
    if (force || (now > doc.dateTimeReceived && now - doc.dateTimeReceived >= delayMs)) validateDocument(doc, store, verify, Math.max(now, doc.dateTimeReceived));
  }
}
