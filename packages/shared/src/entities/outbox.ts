import { defineEntity } from './entity.ts';

/** Mails kept when no SMTP server is configured, listed to administrators. */
export const outbox = defineEntity({
  name: 'outbox',
  table: 'outbox',
  kind: 'reference',
  label: 'Mail',
  labelPlural: 'Outbox',
  display: 'subject',
  access: { read: 'users:manage' },
  fields: {
    to: { type: 'email', label: 'To', required: true, filterable: true, searchable: true, sortable: true },
    subject: { type: 'text', label: 'Subject', required: true, filterable: true, searchable: true },
    text: { type: 'longText', label: 'Text', required: true },
  },
  list: { defaultShows: ['createdAt', 'to', 'subject'], defaultSort: '-createdAt' },
});
