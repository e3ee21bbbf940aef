/**
 * The PAYOUT_ENCRYPTION_KEY every test app and test server process runs with (64 hex digits). A
 * PostgreSQL deployment refuses to start without one, so the tests configure one on both databases.
 */
export const TEST_PAYOUT_ENCRYPTION_KEY = '5eed'.repeat(16);
