export { fileTransport, MailNotConfigured, mailTransportOf, noTransport, smtpTransport, type MailTransport, type OutgoingMail } from './transport';
