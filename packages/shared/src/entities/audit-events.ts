import { defineEntity } from './entity.ts';

export const auditEventTypes = [
  'signIn',
  'signInFailed',
  'signOut',
  'passwordChanged',
  'passwordResetRequested',
  'passwordReset',
  'invitationSent',
  'invitationAccepted',
  'accessRequested',
  'accessApproved',
  'accessRejected',
  'userUpdated',
  'roleChanged',
  'userDisabled',
  'userEnabled',
  'userDeleted',
  'roleCreated',
  'roleUpdated',
  'roleDeleted',
  'accessRefused',
  'recordCreated',
  'recordUpdated',
  'recordDeleted',
  'recordsImported',
] as const;
export type AuditEventType = (typeof auditEventTypes)[number];

/**
 * Security events and record changes (which record, which fields; never the
 * values, which the reader may not be allowed to see), listed to
 * administrators. Written by the server only.
 */
export const auditEvents = defineEntity({
  name: 'auditEvents',
  table: 'audit_events',
  kind: 'reference',
  label: 'Audit event',
  labelPlural: 'Audit events',
  display: 'type',
  // No screen reads it.
  clientState: false,
  access: { read: 'users:manage' },
  pathAlias: 'audit-events',
  fields: {
    type: {
      type: 'select',
      label: 'Event',
      options: auditEventTypes,
      required: true,
      filterable: true,
      sortable: true,
    },
    actorId: { type: 'reference', to: 'users', label: 'Actor', filterable: true, onDelete: 'setNull' },
    targetUserId: { type: 'reference', to: 'users', label: 'Target user', filterable: true, onDelete: 'setNull' },
    targetEmail: { type: 'email', label: 'Target email', filterable: true, searchable: true },
    ip: { type: 'text', label: 'Address', filterable: true, maxLength: 100 },
    details: { type: 'text', label: 'Details', maxLength: 1000 },
  },
  list: { defaultShows: ['createdAt', 'type', 'actorId', 'targetUserId', 'ip'], defaultSort: '-createdAt' },
});
