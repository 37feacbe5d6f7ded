import { defineEntity } from './entity.ts';

/**
 * Mails kept when no SMTP server is configured. They carry invitation and
 * password reset links: each is shown only to administrators who hold every
 * permission of the user it is for.
 */
export const outbox = defineEntity({
  name: 'outbox',
  table: 'outbox',
  kind: 'reference',
  label: 'Mail',
  labelPlural: 'Outbox',
  display: 'subject',
  access: { read: 'users:manage' },
  privateTo: 'to',
  fields: {
    to: { type: 'email', label: 'To', required: true, filterable: true, searchable: true, sortable: true },
    subject: { type: 'text', label: 'Subject', required: true, filterable: true, searchable: true },
    text: { type: 'longText', label: 'Text', required: true },
  },
  list: { defaultShows: ['createdAt', 'to', 'subject'], defaultSort: '-createdAt' },
});
