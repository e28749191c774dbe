import { type ComponentType, lazy } from 'react';
import type { AdminNamespace } from './i18n.ts';

/**
 * The back office's screens, one row each. To add a screen: a folder `src/features/<yours>/`
 * exporting a default component, and one row here — its path (under /admin/), the nav label key in
 * your namespace (e.g. `admin.queue.title` in `withdraw`), the permission it needs, and the lazy
 * loader. The nav shows only the screens the staff member's permissions allow; a deep link to a
 * screen they may not open shows "forbidden". `nav: false` keeps a screen out of the menu (details).
 */
export type ScreenRow = {
  path: string;
  label: { ns: AdminNamespace; key: string };
  /** One of STAFF_PERMISSIONS (apps/server/src/http/staff.ts), e.g. `withdrawals.decide`. */
  permission: string;
  load: () => Promise<{ default: ComponentType }>;
  nav?: boolean;
};

export const SCREENS: readonly ScreenRow[] = [
  {
    path: 'deposits',
    label: { ns: 'assets', key: 'admin.queue' },
    permission: 'deposits.read',
    load: () => import('../features/deposits/DepositsScreen.tsx'),
  },
  {
    path: 'deposits/channels',
    label: { ns: 'assets', key: 'admin.channels' },
    permission: 'settings.write',
    load: () => import('../features/deposits/ChannelsScreen.tsx'),
  },
  {
    path: 'withdrawals',
    label: { ns: 'withdraw', key: 'admin.queueTitle' },
    permission: 'withdrawals.read',
    load: () => import('../features/withdrawals/WithdrawalsScreen.tsx'),
  },
  {
    path: 'withdrawals/rules',
    label: { ns: 'withdraw', key: 'admin.rulesTitle' },
    permission: 'settings.write',
    load: () => import('../features/withdrawals/WithdrawalRulesScreen.tsx'),
  },
  {
    path: 'customers',
    label: { ns: 'admin', key: 'nav.customers' },
    permission: 'customers.read',
    load: () => import('../features/customers/CustomersScreen.tsx'),
  },
  {
    path: 'customers/detail',
    label: { ns: 'admin', key: 'nav.customers' },
    permission: 'customers.read',
    load: () => import('../features/customers/CustomerDetailScreen.tsx'),
    nav: false,
  },
  {
    path: 'adjustments',
    label: { ns: 'admin', key: 'nav.adjustments' },
    permission: 'adjustments.create',
    load: () => import('../features/adjustments/AdjustmentsScreen.tsx'),
  },
  {
    path: 'outbox',
    label: { ns: 'admin', key: 'nav.outbox' },
    permission: 'outbox.read',
    load: () => import('../features/outbox/OutboxScreen.tsx'),
  },
  {
    path: 'ledger',
    label: { ns: 'admin', key: 'nav.ledger' },
    permission: 'ledger.verify',
    load: () => import('../features/ledger/LedgerScreen.tsx'),
  },
  {
    path: 'audit',
    label: { ns: 'admin', key: 'nav.audit' },
    permission: 'audit.read',
    load: () => import('../features/audit/AuditScreen.tsx'),
  },
  {
    path: 'staff',
    label: { ns: 'admin', key: 'nav.staff' },
    permission: 'staff.manage',
    load: () => import('../features/staff/StaffScreen.tsx'),
  },
  {
    path: 'markets',
    label: { ns: 'trade', key: 'admin.nav' },
    permission: 'markets.write',
    load: () => import('../features/markets/MarketsScreen.tsx'),
  },
  {
    path: 'markets/hours',
    label: { ns: 'admin', key: 'hours.nav' },
    permission: 'markets.write',
    load: () => import('../features/markets/TradingHoursScreen.tsx'),
  },
  {
    path: 'derivatives/contracts',
    label: { ns: 'admin', key: 'derivatives.nav.contracts' },
    permission: 'risk.read',
    load: () => import('../features/derivatives/ContractSettingsScreen.tsx'),
  },
  {
    path: 'derivatives/options',
    label: { ns: 'admin', key: 'derivatives.nav.options' },
    permission: 'risk.read',
    load: () => import('../features/derivatives/OptionSettingsScreen.tsx'),
  },
  {
    path: 'derivatives/exposure',
    label: { ns: 'admin', key: 'derivatives.nav.exposure' },
    permission: 'risk.read',
    load: () => import('../features/derivatives/ExposureScreen.tsx'),
  },
  {
    path: 'derivatives/positions',
    label: { ns: 'admin', key: 'derivatives.nav.positions' },
    permission: 'risk.read',
    load: () => import('../features/derivatives/PositionsScreen.tsx'),
  },
  {
    path: 'derivatives/insurance',
    label: { ns: 'admin', key: 'derivatives.nav.insurance' },
    permission: 'risk.read',
    load: () => import('../features/derivatives/InsuranceScreen.tsx'),
  },
  {
    path: 'derivatives/jurisdiction',
    label: { ns: 'admin', key: 'derivatives.nav.jurisdiction' },
    permission: 'risk.read',
    load: () => import('../features/derivatives/JurisdictionScreen.tsx'),
  },
  {
    path: 'suitability',
    label: { ns: 'suitability', key: 'admin.nav' },
    permission: 'risk.read',
    load: () => import('../features/suitability/SuitabilityScreen.tsx'),
  },
  {
    path: 'verification',
    label: { ns: 'adminKyc', key: 'nav.queue' },
    permission: 'verification.read',
    load: () => import('../features/verification/VerificationQueueScreen.tsx'),
  },
  {
    path: 'verification/detail',
    label: { ns: 'adminKyc', key: 'nav.queue' },
    permission: 'verification.read',
    load: () => import('../features/verification/VerificationDetailScreen.tsx'),
    nav: false,
  },
  {
    path: 'verification/rules',
    label: { ns: 'adminKyc', key: 'nav.rules' },
    permission: 'verification.read',
    load: () => import('../features/verification/VerificationRulesScreen.tsx'),
  },
  {
    path: 'earn/products',
    label: { ns: 'adminEarn', key: 'nav.products' },
    permission: 'earn.read',
    load: () => import('../features/earn/ProductsScreen.tsx'),
  },
  {
    path: 'earn/funding',
    label: { ns: 'adminEarn', key: 'nav.funding' },
    permission: 'earn.read',
    load: () => import('../features/earn/FundingScreen.tsx'),
  },
  {
    path: 'earn/orders',
    label: { ns: 'adminEarn', key: 'nav.orders' },
    permission: 'earn.read',
    load: () => import('../features/earn/OrdersScreen.tsx'),
  },
  {
    path: 'earn/accruals',
    label: { ns: 'adminEarn', key: 'nav.accruals' },
    permission: 'earn.read',
    load: () => import('../features/earn/AccrualsScreen.tsx'),
  },
  {
    path: 'earn/settings',
    label: { ns: 'adminEarn', key: 'nav.settings' },
    permission: 'earn.read',
    load: () => import('../features/earn/SettingsScreen.tsx'),
  },
  {
    path: 'funds',
    label: { ns: 'adminFunds', key: 'nav' },
    permission: 'funds.read',
    load: () => import('../features/funds/FundsScreen.tsx'),
  },
  {
    path: 'launchpad/projects',
    label: { ns: 'adminLaunchpad', key: 'nav.projects' },
    permission: 'launchpad.read',
    load: () => import('../features/launchpad/ProjectsScreen.tsx'),
  },
  {
    path: 'launchpad/subscriptions',
    label: { ns: 'adminLaunchpad', key: 'nav.subscriptions' },
    permission: 'launchpad.read',
    load: () => import('../features/launchpad/SubscriptionsScreen.tsx'),
  },
  {
    path: 'launchpad/runs',
    label: { ns: 'adminLaunchpad', key: 'nav.runs' },
    permission: 'launchpad.read',
    load: () => import('../features/launchpad/RunsScreen.tsx'),
  },
  {
    path: 'loans/queue',
    label: { ns: 'adminLoans', key: 'nav.queue' },
    permission: 'loans.read',
    load: () => import('../features/loans/QueueScreen.tsx'),
  },
  {
    path: 'loans/loans',
    label: { ns: 'adminLoans', key: 'nav.loans' },
    permission: 'loans.read',
    load: () => import('../features/loans/LoansScreen.tsx'),
  },
  {
    path: 'loans/repayments',
    label: { ns: 'adminLoans', key: 'nav.repayments' },
    permission: 'loans.read',
    load: () => import('../features/loans/RepaymentsScreen.tsx'),
  },
  {
    path: 'loans/products',
    label: { ns: 'adminLoans', key: 'nav.products' },
    permission: 'loans.read',
    load: () => import('../features/loans/ProductsScreen.tsx'),
  },
  {
    path: 'loans/lenders',
    label: { ns: 'adminLoans', key: 'nav.lenders' },
    permission: 'loans.read',
    load: () => import('../features/loans/LendersScreen.tsx'),
  },
  {
    path: 'loans/score',
    label: { ns: 'adminLoans', key: 'nav.score' },
    permission: 'loans.read',
    load: () => import('../features/loans/ScoreScreen.tsx'),
  },
  {
    path: 'c2c/merchants',
    label: { ns: 'adminC2c', key: 'nav.merchants' },
    permission: 'c2c.read',
    load: () => import('../features/c2c/MerchantsScreen.tsx'),
  },
  {
    path: 'c2c/offers',
    label: { ns: 'adminC2c', key: 'nav.offers' },
    permission: 'c2c.read',
    load: () => import('../features/c2c/OffersScreen.tsx'),
  },
  {
    path: 'c2c/orders',
    label: { ns: 'adminC2c', key: 'nav.orders' },
    permission: 'c2c.read',
    load: () => import('../features/c2c/OrdersScreen.tsx'),
  },
  {
    path: 'c2c/disputes',
    label: { ns: 'adminC2c', key: 'nav.disputes' },
    permission: 'c2c.read',
    load: () => import('../features/c2c/DisputesScreen.tsx'),
  },
  {
    path: 'signin',
    label: { ns: 'adminSignin', key: 'nav.programme' },
    permission: 'content.write',
    load: () => import('../features/signin/ProgrammeScreen.tsx'),
  },
  {
    path: 'signin/budget',
    label: { ns: 'adminSignin', key: 'nav.budget' },
    permission: 'ledger.verify',
    load: () => import('../features/signin/BudgetScreen.tsx'),
  },
  {
    path: 'support',
    label: { ns: 'adminSupport', key: 'nav.console' },
    permission: 'support.read',
    load: () => import('../features/support/ConsoleScreen.tsx'),
  },
  {
    path: 'support/canned',
    label: { ns: 'adminSupport', key: 'nav.canned' },
    permission: 'support.read',
    load: () => import('../features/support/CannedScreen.tsx'),
  },
  {
    path: 'support/metrics',
    label: { ns: 'adminSupport', key: 'nav.metrics' },
    permission: 'support.read',
    load: () => import('../features/support/MetricsScreen.tsx'),
  },
  {
    path: 'referral',
    label: { ns: 'adminReferral', key: 'nav.title' },
    permission: 'referral.read',
    load: () => import('../features/referral/ReferralScreen.tsx'),
  },
  {
    path: 'agreements',
    label: { ns: 'adminAgreements', key: 'nav.agreements' },
    permission: 'content.write',
    load: () => import('../features/agreements/AgreementsScreen.tsx'),
  },
  {
    path: 'content',
    label: { ns: 'adminContent', key: 'nav' },
    permission: 'content.write',
    load: () => import('../features/content/ContentScreen.tsx'),
  },
  {
    path: 'notices',
    label: { ns: 'adminNotice', key: 'title' },
    permission: 'content.write',
    load: () => import('../features/notices/NoticesScreen.tsx'),
  },
  {
    path: 'health',
    label: { ns: 'admin', key: 'nav.health' },
    permission: 'risk.read',
    load: () => import('../features/health/HealthScreen.tsx'),
  },
];

/** Lazy components, made once per row. */
export const SCREEN_COMPONENTS: ReadonlyMap<string, ComponentType> = new Map(
  SCREENS.map((row) => [row.path, lazy(row.load)]),
);
