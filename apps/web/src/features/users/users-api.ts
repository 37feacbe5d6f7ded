import type { Invitation } from '@data-platform/shared/auth/user-schemas';
import type { Permission } from '@data-platform/shared/permissions';
import type { ListResponse } from '@data-platform/shared/query/list-query';
import { queryString } from '../../store/http.ts';
import { type Row, resourceApi } from '../../store/resource-slices.ts';
import { announcesWrite } from '../../store/written.ts';

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
/** A type, not an interface: the generic create and update take any record of fields. */
export type RoleBody = {
  name: string;
  description: string | null;
  permissions: Permission[];
};

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

/**
 * The roles area's own read: every role with what the role screens show.
 * Its writes are the area's generic create, update and delete.
 */
const rolesArea = resourceApi('roles').injectEndpoints({
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
      providesTags: ['List'],
    }),
  }),
});

/**
 * The users area's calls beyond the generic ones: access requests and their
 * decisions, invitations, and a user's activity from the audit events (read
 * again when the user is written).
 */
const USERS = 'users';

const usersArea = resourceApi(USERS).injectEndpoints({
  endpoints: (build) => ({
    accessRequests: build.query<ListResponse<Row>, void>({
      query: () => ({
        path: `/users?${queryString([
          ['select', 'fullName,email,createdAt,version'],
          ['filter[status][eq]', 'pending'],
          ['sort', 'createdAt'],
          ['pageSize', String(REQUESTS_PAGE_SIZE)],
          // The screen's title tells how many requests wait, beyond the page shown.
          ['count', 'exact'],
        ])}`,
      }),
      providesTags: ['List'],
    }),
    inviteUser: build.mutation<Row, Invitation>({
      query: (body) => ({ path: '/users/invitations', method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['List']),
      onQueryStarted: announcesWrite(USERS),
    }),
    resendInvitation: build.mutation<Row, number>({
      query: (id) => ({ path: `/users/${id}/resend-invitation`, method: 'POST' }),
      invalidatesTags: (_result, error, id) => (error ? [] : ['List', { type: 'Record', id }]),
      onQueryStarted: announcesWrite(USERS),
    }),
    decideAccess: build.mutation<Row, { id: number; decision: 'approve' | 'reject'; roleId?: number }>({
      query: ({ id, decision, roleId }) => ({
        path: `/users/${id}/${decision}`,
        method: 'POST',
        body: decision === 'approve' ? { roleId } : {},
      }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : ['List', { type: 'Record', id }]),
      onQueryStarted: announcesWrite(USERS),
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
      providesTags: (_result, _error, id) => [{ type: 'Record', id }],
    }),
  }),
});

export const {
  useRolesQuery,
  useCreateMutation: useCreateRoleMutation,
  useUpdateMutation: useUpdateRoleMutation,
  useRemoveMutation: useDeleteRoleMutation,
} = rolesArea;

export const {
  useAccessRequestsQuery,
  useInviteUserMutation,
  useResendInvitationMutation,
  useDecideAccessMutation,
  useUpdateMutation: useUpdateUserMutation,
  useRemoveMutation: useDeleteUserMutation,
  useUserActivityInfiniteQuery,
} = usersArea;
