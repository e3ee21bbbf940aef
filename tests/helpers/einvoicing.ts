import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/client';
import { organizations, type SellerIdentity } from '../../src/db/schema';

/**
 * E-invoicing test helpers: a complete seller identity written on an organization, and a throwaway
 * self-signed certificate generated with the openssl CLI for each run (never a key in the repository).
 */

export const COMPLETE_SELLER: SellerIdentity = {
  name: 'Contoh Software Sdn. Bhd.',
  tin: 'C1234567890',
  registration_no: '202001234567',
  sst_no: 'NA',
  tourism_tax_no: 'NA',
  msic: '62010',
  business_activity: 'Computer programming activities',
  address: { line1: 'Lot 66, Bangunan Merdeka', city: 'Kuala Lumpur', postcode: '50480', state: '14', country_code: 'MY' },
  phone: '+60123456789',
  email: 'billing@contoh.my',
};

export async function setSeller(db: Database, organizationId: string, seller: SellerIdentity = COMPLETE_SELLER) {
  await db.update(organizations).set({ seller }).where(eq(organizations.id, organizationId));
}

export interface TestCertificate {
  pem: string;
  private_key: string;
}

/** A self-signed RSA certificate whose subject is `subject` (OpenSSL -subj form); the key optionally encrypted. */
export function makeCertificate(subject: string, passphrase?: string): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-cert-'));
  try {
    const keyArgs = passphrase ? ['-passout', `pass:${passphrase}`] : ['-nodes'];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', ...keyArgs, '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'), '-days', '30', '-subj', subject], { stdio: 'ignore' });
    return { pem: readFileSync(join(dir, 'c.pem'), 'utf8'), private_key: readFileSync(join(dir, 'k.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const SELLER_SUBJECT = '/CN=Contoh Software/O=Contoh Software Sdn Bhd/C=MY/serialNumber=202001234567/organizationIdentifier=C1234567890';
