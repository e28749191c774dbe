import { STAFF_PERMISSIONS, type StaffPermission, type StaffRole } from '../../http/staff.ts';

/** What each role may do. A staff member's permissions are the union over their roles. */
export const ROLE_PERMISSIONS: Readonly<Record<StaffRole, readonly StaffPermission[]>> = {
  administrator: STAFF_PERMISSIONS,
  finance: [
    'customers.read',
    'deposits.read',
    'deposits.confirm',
    'withdrawals.read',
    'withdrawals.decide',
    'adjustments.create',
    'adjustments.approve',
    'ledger.verify',
    'risk.read',
    'earn.read',
    'earn.fund',
    'funds.read',
    'launchpad.read',
    'loans.read',
    'loans.decide',
    'c2c.read',
    'c2c.decide',
    'referral.read',
  ],
  compliance: [
    'customers.read',
    'customers.disable',
    'audit.read',
    'withdrawals.read',
    'risk.read',
    'verification.read',
    'verification.decide',
    'customers.verify',
    'earn.read',
    'funds.read',
    'launchpad.read',
    'loans.read',
    'c2c.read',
    'referral.read',
    'referral.write',
  ],
  support: ['customers.read', 'outbox.read', 'customers.verify', 'support.read', 'support.write'],
  content: ['content.write'],
};

export function permissionsOf(roles: readonly StaffRole[]): StaffPermission[] {
  const granted = new Set<StaffPermission>();
  for (const role of roles) for (const p of ROLE_PERMISSIONS[role] ?? []) granted.add(p);
  return STAFF_PERMISSIONS.filter((p) => granted.has(p));
}

export function can(roles: readonly StaffRole[], permission: StaffPermission): boolean {
  return roles.some((role) => ROLE_PERMISSIONS[role]?.includes(permission));
}
