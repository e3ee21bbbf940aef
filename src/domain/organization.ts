/** The organization vocabulary: closed sets of its profile. */

/**
 * Languages an organization may keep its records in (ISO 639-1): English, Bahasa Malaysia, Chinese,
 * Tamil. English is always one of them (MyInvois documents and the API's own texts are English).
 */
export const RECORD_LANGUAGES = ['en', 'ms', 'zh', 'ta'] as const;
export type RecordLanguage = (typeof RECORD_LANGUAGES)[number];
