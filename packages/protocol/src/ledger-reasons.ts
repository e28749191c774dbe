/**
 * Every reason a ledger entry can carry, as data. Record screens and CSV exports show a customer
 * label for each (`records.reason.<key>` in the `assets` catalogues, see `ledgerReasonKey`); the
 * server's `ledger-reasons.test.ts` fails when a reason posted anywhere in the server is missing here
 * or has no label in a language.
 */
export const LEDGER_REASONS = [
  // ledger fallbacks (ledger/service.ts) and generic moves
  'credit',
  'debit',
  'freeze',
  'unfreeze',
  'reversal',
  'transfer',
  // deposits, withdrawals, staff adjustments, demo book
  'deposit.crypto',
  'deposit.bank',
  'withdrawal.request',
  'withdrawal.cancel',
  'withdrawal.reject',
  'withdrawal.settle',
  'withdrawal.fail',
  'adjustment.credit',
  'adjustment.debit',
  'demo.grant',
  'demo.reset',
  // test helpers (assets/testing.ts) fund customers with this reason
  'deposit.test',
  // spot
  'spot.freeze',
  'spot.trade',
  'spot.release',
  'spot.mm.capital',
  // options
  'option.open',
  'option.settle',
  // contracts
  'contract.order',
  'contract.order.cancel',
  'contract.fill',
  'contract.open',
  'contract.margin',
  'contract.funding',
  'contract.close',
  'contract.take_profit',
  'contract.stop_loss',
  'contract.liquidation',
  'contract.delivery',
  'contract.insurance.fund',
  'contract.insurance.seed',
  // earn (modules/earn)
  'earn.buy',
  'earn.accrual',
  'earn.mature',
  'earn.redeem',
  'earn.penalty',
  'earn.release',
  'earn.fund',
  'earn.demo_fund',
  // new-coin subscription (modules/launchpad): cost + fee frozen in spot, released or paid at
  // allocation (coins locked in funding until release), refunds; the issuer's coins and payouts
  'launchpad.subscribe',
  'launchpad.not_passed',
  'launchpad.allocate',
  'launchpad.refund',
  'launchpad.release',
  'launchpad.issue',
  'launchpad.return_supply',
  'launchpad.pay_issuer',
  // loans (modules/loans): disbursement from a lender account, interest and overdue charges (no
  // customer posting: what is owed grows in loan_book), repayments from spot or by bank transfer
  'loan.fund',
  'loan.disburse',
  'loan.interest',
  'loan.overdue',
  'loan.repay',
  'loan.repay_bank',
  'loan.write_off',
  // C2C (modules/c2c): the coin seller's coins into the order's escrow at match, out to the buyer
  // (confirmed or decided for the buyer) or back to the seller (cancelled, expired, decided for the seller)
  'c2c.escrow',
  'c2c.release',
  'c2c.return',
  // the operator's demo desk's play money (demo book only, from the demo faucet)
  'c2c.demo_desk',
  // sign-in reward (modules/signin): promotional credit from the marketing budget, the budget's
  // four-eyes funding, and the demo twin topped up from the demo faucet
  'reward.signin',
  'signin.fund',
  'signin.demo_fund',
  // ETF orders (modules/funds): spot ↔ the customer's own earn account (frozen, tagged to the order)
  'fund.subscribe',
  'fund.trade.out',
  'fund.trade.in',
  'fund.redeem',
  // referral income (modules/referral): a share of a fee an invitee paid, from the account that received it to the inviter's spot
  'reward.referral',
] as const;

export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** Catalogue key (namespace `assets`) of a ledger reason's customer label: dots become underscores. */
export function ledgerReasonKey(reason: string): string {
  return `records.reason.${reason.replaceAll('.', '_')}`;
}

/** Business objects a record can link to (the web has a screen for each). */
export const RECORD_REF_KINDS = [
  'spot_order',
  'deposit',
  'withdrawal',
  'transfer',
  'contract',
  'option',
] as const;
export type RecordRefKind = (typeof RECORD_REF_KINDS)[number];
