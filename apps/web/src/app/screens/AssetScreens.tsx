import { Loader } from '@mantine/core';
import { type ComponentType, lazy, Suspense } from 'react';
import { AccountsPage } from '../../features/assets/components/AccountsPage.tsx';
import type { SheetState } from '../../features/assets/components/AssetActions.tsx';
import { AssetOverviewPage } from '../../features/assets/components/AssetOverviewPage.tsx';
import { DepositSheet } from '../../features/deposit/components/DepositSheet.tsx';

type WithdrawSheetProps = { currency: string; opened: boolean; onClose: () => void };

/** The withdrawals feature's sheet, loaded when first opened. */
const WithdrawSheet = lazy(async (): Promise<{ default: ComponentType<WithdrawSheetProps> }> => {
  const m = await import('../../features/withdraw/components/WithdrawSheet.tsx');
  return { default: m.WithdrawSheet };
});

/** The sheet an asset screen opened: deposit (deposit feature) or withdraw (withdraw feature). */
function AssetSheet({ sheet, onClose }: { sheet: NonNullable<SheetState>; onClose: () => void }) {
  return (
    <>
      {sheet.kind === 'deposit' && <DepositSheet currency={sheet.currency} opened onClose={onClose} />}
      {sheet.kind === 'withdraw' && (
        <Suspense fallback={<Loader size="sm" />}>
          <WithdrawSheet currency={sheet.currency} opened onClose={onClose} />
        </Suspense>
      )}
    </>
  );
}

/** /table1: the asset overview (assets feature), its Deposit and Withdraw buttons opening those features' sheets. */
export function AssetOverviewScreen() {
  return <AssetOverviewPage Sheets={AssetSheet} />;
}

/** /table2: one account type (assets feature), with the same sheets. */
export function AccountsScreen() {
  return <AccountsPage Sheets={AssetSheet} />;
}
