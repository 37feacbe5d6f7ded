import type { Invitation, UserChanges } from '@data-platform/shared/auth/user-schemas';
import type { Permission } from '@data-platform/shared/permissions';
import type { ListResponse } from '@data-platform/shared/query/list-query';
import { api } from '../../store/api.ts';
import { queryString } from '../../store/http.ts';
import type { Row } from '../../store/resource-slices.ts';

/** A role as the roles screens use it. */
export interface RoleRow {
  id: number;
  version: number;
  name: string;
  description: string | null;
  permissions: Permission[];
  builtIn: boolean;
}

/** What a role is made of in the role form and the API's create/update body. */
export interface RoleBody {
  name: string;
  description: string | null;
  permissions: Permission[];
}

/** One security event of a user's recent activity. */
export interface ActivityRow {
  id: number;
  createdAt: string;
  type: string;
  ip: string | null;
  details: string | null;
  actorId: number | null;
  targetUserId: number | null;
  actor: { id: number; fullName: string } | null;
  targetUser: { id: number; fullName: string } | null;
}

/** More roles than any team keeps; the role pickers show them all. */
const ROLES_PAGE_SIZE = 1000;
const REQUESTS_PAGE_SIZE = 100;
const ACTIVITY_PAGE_SIZE = 20;

const userTag = (id: number) => ({ type: 'Record' as const, id: `users:${id}` });

/**
 * The users and roles screens' calls: invitations, access request decisions,
 * changes to users, roles, and a user's activity from the audit events.
 */
export const usersApi = api.enhanceEndpoints({ addTagTypes: ['Record', 'Roles', 'AccessRequests'] }).injectEndpoints({
  endpoints: (build) => ({
    roles: build.query<RoleRow[], void>({
      query: () => ({
        path: `/roles?${queryString([
          ['select', 'version,name,description,permissions,builtIn'],
          ['sort', 'name'],
          ['pageSize', String(ROLES_PAGE_SIZE)],
        ])}`,
      }),
      transformResponse: (answer: ListResponse<RoleRow>) => answer.data,
      providesTags: ['Roles'],
    }),
    createRole: build.mutation<RoleRow, RoleBody>({
      query: (body) => ({ path: '/roles', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Roles']),
    }),
    updateRole: build.mutation<RoleRow, { id: number; version: number; body: RoleBody }>({
      query: ({ id, version, body }) => ({
        path: `/roles/${id}`,
        method: 'PATCH',
        body,
        headers: { 'if-match': String(version) },
      }),
      invalidatesTags: (_result, error) => (error ? [] : ['Roles']),
    }),
    deleteRole: build.mutation<void, number>({
      query: (id) => ({ path: `/roles/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['Roles']),
    }),
    accessRequests: build.query<ListResponse<Row>, void>({
      query: () => ({
        path: `/users?${queryString([
          ['select', 'fullName,email,createdAt,version'],
          ['filter[status][eq]', 'pending'],
          ['sort', 'createdAt'],
          ['pageSize', String(REQUESTS_PAGE_SIZE)],
        ])}`,
      }),
      providesTags: ['AccessRequests'],
    }),
    inviteUser: build.mutation<Row, Invitation>({
      query: (body) => ({ path: '/users/invitations', method: 'POST', body }),
    }),
    resendInvitation: build.mutation<Row, number>({
      query: (id) => ({ path: `/users/${id}/resend-invitation`, method: 'POST' }),
      invalidatesTags: (_result, error, id) => (error ? [] : [userTag(id)]),
    }),
    decideAccess: build.mutation<Row, { id: number; decision: 'approve' | 'reject'; roleId?: number }>({
      query: ({ id, decision, roleId }) => ({
        path: `/users/${id}/${decision}`,
        method: 'POST',
        body: decision === 'approve' ? { roleId } : {},
      }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : ['AccessRequests', userTag(id)]),
    }),
    updateUser: build.mutation<Row, { id: number; version: number; body: UserChanges }>({
      query: ({ id, version, body }) => ({
        path: `/users/${id}`,
        method: 'PATCH',
        body,
        headers: { 'if-match': String(version) },
      }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [userTag(id)]),
    }),
    deleteUser: build.mutation<void, number>({
      query: (id) => ({ path: `/users/${id}`, method: 'DELETE' }),
    }),
    userActivity: build.infiniteQuery<ListResponse<ActivityRow>, number, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg: id, pageParam }) => ({
        path: '/audit-events/query',
        method: 'POST',
        body: {
          select: ['createdAt', 'type', 'ip', 'details', 'actorId', 'targetUserId'],
          join: ['actor(fullName)', 'targetUser(fullName)'],
          where: {
            or: [
              { field: 'actorId', op: 'eq', value: id },
              { field: 'targetUserId', op: 'eq', value: id },
            ],
          },
          sort: ['-createdAt'],
          pageSize: ACTIVITY_PAGE_SIZE,
          ...(pageParam ? { cursor: pageParam } : {}),
        },
      }),
      providesTags: (_result, _error, id) => [userTag(id)],
    }),
  }),
});

export const {
  useRolesQuery,
  useCreateRoleMutation,
  useUpdateRoleMutation,
  useDeleteRoleMutation,
  useAccessRequestsQuery,
  useInviteUserMutation,
  useResendInvitationMutation,
  useDecideAccessMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useUserActivityInfiniteQuery,
} = usersApi;
