import { createField, deleteField, removeOwnProfileData, reorderFields, updateField, updateOwnProfileData } from '../core/profile-fields/actions';
import { listFields } from '../core/profile-fields/queries';
import { fieldDataValidator, profileDataValidator, ProfileValue } from '../core/profile-fields/validation';
import { requireAdmin } from '../core/users/access';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

const adminOnly = ({ user }: { user: Parameters<typeof requireAdmin>[0] }) => requireAdmin(user);

export const profileFieldRoutes: Route[] = [
  {
    method: 'GET',
    path: '/realm/profile_fields',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps }) => ({ custom_fields: await listFields(deps) }),
    }),
  },
  {
    method: 'POST',
    path: '/realm/profile_fields',
    endpoint: endpoint({
      guard: adminOnly,
      params: {
        name: p.string().default(''),
        hint: p.string().default(''),
        field_type: p.int(),
        field_data: p.json(fieldDataValidator).optional(),
        display_in_profile_summary: p.bool().default(false),
        required: p.bool().default(false),
        editable_by_user: p.bool().default(true),
        use_for_user_matching: p.bool().default(false),
      },
      handler: async ({ deps, user, params }) => ({
        id: await createField(deps, user, {
          name: params.name,
          hint: params.hint,
          fieldType: params.field_type,
          fieldData: params.field_data,
          displayInProfileSummary: params.display_in_profile_summary,
          required: params.required,
          editableByUser: params.editable_by_user,
          useForUserMatching: params.use_for_user_matching,
        }),
      }),
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/profile_fields',
    endpoint: endpoint({
      guard: adminOnly,
      params: { order: p.intList() },
      handler: async ({ deps, user, params }) => {
        await reorderFields(deps, user, params.order);
      },
    }),
  },
  {
    method: 'PATCH',
    path: '/realm/profile_fields/:field_id',
    endpoint: endpoint({
      guard: adminOnly,
      params: {
        field_id: p.path.int(),
        name: p.string().optional(),
        hint: p.string().optional(),
        field_data: p.json(fieldDataValidator).optional(),
        display_in_profile_summary: p.bool().optional(),
        required: p.bool().optional(),
        editable_by_user: p.bool().optional(),
        use_for_user_matching: p.bool().optional(),
      },
      handler: async ({ deps, user, params }) => {
        await updateField(deps, user, params.field_id, {
          name: params.name,
          hint: params.hint,
          fieldData: params.field_data,
          displayInProfileSummary: params.display_in_profile_summary,
          required: params.required,
          editableByUser: params.editable_by_user,
          useForUserMatching: params.use_for_user_matching,
        });
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/realm/profile_fields/:field_id',
    endpoint: endpoint({
      guard: adminOnly,
      params: { field_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await deleteField(deps, user, params.field_id);
      },
    }),
  },
  {
    method: 'PATCH',
    path: '/users/me/profile_data',
    endpoint: endpoint({
      params: { data: p.json(profileDataValidator(false)) },
      handler: async ({ deps, user, params }) => {
        await updateOwnProfileData(deps, user, params.data as { id: number; value: ProfileValue }[]);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/users/me/profile_data',
    endpoint: endpoint({
      params: { data: p.intList() },
      handler: async ({ deps, user, params }) => {
        await removeOwnProfileData(deps, user, params.data);
      },
    }),
  },
];
