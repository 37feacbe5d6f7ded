import { z } from 'zod';
import { emailSchema } from './password-policy.ts';

/** A role picked for someone: the id of an existing role. */
export const roleIdSchema = z.number({ error: 'Choose a role' }).int().positive();

/** Send invitation: who, and with which role. */
export const invitationSchema = z.strictObject({ email: emailSchema, roleId: roleIdSchema });
export type Invitation = z.infer<typeof invitationSchema>;

/** Approve an access request: the role the person gets. */
export const approvalSchema = z.strictObject({ roleId: roleIdSchema });

/** The statuses an administrator can switch an account between. */
export const switchableUserStatuses = ['active', 'disabled'] as const;

/** What an edit of a user may change: name, role, status. */
export const userChangesSchema = z.strictObject({
  firstName: z.string().trim().min(1, 'Required').max(150).optional(),
  lastName: z.string().trim().min(1, 'Required').max(150).optional(),
  roleId: roleIdSchema.optional(),
  status: z.enum(switchableUserStatuses).optional(),
});
export type UserChanges = z.infer<typeof userChangesSchema>;
