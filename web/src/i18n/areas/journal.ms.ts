import type { journalEn } from './journal.en';

/** The journal export's strings in Bahasa Malaysia (spread into ../ms.ts). */
export const journalMs: Record<keyof typeof journalEn, string> = {
  'nav.journal': 'Jurnal',
  'journal.title': 'Eksport jurnal',
  'journal.intro': 'Catatan jurnal seimbang untuk sistem perakaunan anda (SQL Account, AutoCount, Xero), ditulis apabila invois, penerimaan dan tuntutan berlaku, dieksport dalam kelompok bernombor.',
  'journal.createTitle': 'Eksport kelompok baharu',
  'journal.upTo': 'Catatan bertarikh sehingga',
  'journal.upToHint': 'Setiap catatan pada atau sebelum hari ini yang belum dalam mana-mana kelompok masuk ke kelompok seterusnya.',
  'journal.create': 'Eksport',
  'journal.created': 'Kelompok {number} dieksport dengan {count} catatan.',
  'journal.batches': 'Kelompok',
  'journal.none': 'Belum ada kelompok dieksport.',
  'journal.batch': 'Kelompok {number}',
  'journal.batchFacts': 'Sehingga {upTo} · {count} catatan · dieksport {created}',
  'journal.download': 'Muat turun',
  'journal.format.csv': 'CSV',
  'journal.format.sql_account': 'SQL Account',
  'journal.format.autocount': 'AutoCount',
  'journal.format.xero': 'Xero',
  'journal.downloadOf': 'Muat turun kelompok {number} untuk {format}',
  'journal.more': 'Tunjuk kelompok lebih lama',
};
