import { Button, Group, Loader } from '@mantine/core';
import { type ComponentType, lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DepositSheet } from '../../deposit/components/DepositSheet.tsx';

type WithdrawSheetProps = { currency: string; opened: boolean; onClose: () => void };

/** The withdrawals feature's sheet, loaded when first opened. */
const WithdrawSheet = lazy(async (): Promise<{ default: ComponentType<WithdrawSheetProps> }> => {
  const m = await import('../../withdraw/components/WithdrawSheet.tsx');
  return { default: m.WithdrawSheet };
});

export type SheetState = { kind: 'deposit' | 'withdraw'; currency: string } | null;

/** Deposit and withdraw sheets, shared by the overview and the account screens. */
export function useAssetSheets() {
  const [sheet, setSheet] = useState<SheetState>(null);
  const close = () => setSheet(null);
  const node = (
    <>
      {sheet?.kind === 'deposit' && <DepositSheet currency={sheet.currency} opened onClose={close} />}
      {sheet?.kind === 'withdraw' && (
        <Suspense fallback={<Loader size="sm" />}>
          <WithdrawSheet currency={sheet.currency} opened onClose={close} />
        </Suspense>
      )}
    </>
  );
  return { open: setSheet, node };
}

/** Deposit / Withdraw / Transfer for one currency (or the account as a whole). */
export function AssetActions({
  currency,
  from,
  open,
  size = 'xs',
  testId,
}: {
  currency: string;
  from?: string;
  open: (s: SheetState) => void;
  size?: 'xs' | 'sm' | 'md';
  testId?: string;
}) {
  const { t } = useTranslation('assets');
  const navigate = useNavigate();
  const suffix = testId ? `-${testId}` : '';
  return (
    <Group gap={6} wrap="nowrap">
      <Button
        size={size}
        onClick={() => open({ kind: 'deposit', currency })}
        data-testid={`action-deposit${suffix}`}
      >
        {t('overview.deposit')}
      </Button>
      <Button
        size={size}
        variant="light"
        onClick={() => open({ kind: 'withdraw', currency })}
        data-testid={`action-withdraw${suffix}`}
      >
        {t('overview.withdraw')}
      </Button>
      <Button
        size={size}
        variant="default"
        onClick={() => navigate(`/transfer?currency=${currency}${from ? `&from=${from}` : ''}`)}
        data-testid={`action-transfer${suffix}`}
      >
        {t('overview.transfer')}
      </Button>
    </Group>
  );
}
