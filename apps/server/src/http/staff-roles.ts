/** The staff roles (a leaf file: the staff tables' types need it without the rest of http/staff.ts). */
export const STAFF_ROLES = ['administrator', 'finance', 'compliance', 'support', 'content'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
