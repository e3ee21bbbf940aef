/**
 * `npm run myinvois:simulator`: runs the MyInvois simulator alone on MYINVOIS_SIMULATOR_PORT (default
 * 8765) with one demo ERP client and its taxpayer, printed at start. Demo credentials only: the
 * simulator holds no real secret.
 */
import { createSimulator } from './index';

const port = Number(process.env['MYINVOIS_SIMULATOR_PORT'] ?? 8765);
const demo = { clientId: 'demo-erp-client', clientSecret: 'demo-erp-secret', tin: 'C1234567890' };

const { app } = createSimulator({
  clients: [demo],
  taxpayers: [
    { tin: demo.tin, idType: 'BRN', idValue: '202001234567', name: 'Contoh Software Sdn. Bhd.' },
    { tin: 'C9876543210', idType: 'BRN', idValue: '201901234567', name: 'Pelanggan Berhad' },
  ],
  logger: true,
});

await app.listen({ port, host: '127.0.0.1' });
console.log(`MyInvois simulator on http://127.0.0.1:${port}`);
console.log(`demo client_id=${demo.clientId} client_secret=${demo.clientSecret} TIN=${demo.tin}`);
