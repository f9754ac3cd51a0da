/** Project roles, most to least powerful. What each may do is defined with governance. */
export const roles = ['admin', 'development_lead', 'developer', 'operations_lead', 'member'] as const;
export type Role = (typeof roles)[number];
