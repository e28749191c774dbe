import { Button, Group } from '@mantine/core';
import { type ComponentType, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export type SheetState = { kind: 'deposit' | 'withdraw'; currency: string } | null;

/**
 * The open deposit or withdraw sheet. Those sheets belong to the deposit and withdraw features, so
 * the asset screens take them as a prop from app/ (app/screens/AssetScreens.tsx).
 */
export type AssetSheets = ComponentType<{ sheet: NonNullable<SheetState>; onClose: () => void }>;

/** Deposit and withdraw sheets, shared by the overview and the account screens. */
export function useAssetSheets(Sheets: AssetSheets) {
  const [sheet, setSheet] = useState<SheetState>(null);
  const close = () => setSheet(null);
  const node = sheet ? <Sheets sheet={sheet} onClose={close} /> : null;
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
