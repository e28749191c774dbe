import { moneyScaleOf } from '@bourse/money';
import type { FundEligibilityData, FundModelData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Button, Divider, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { newClientOid, useBuyEtf } from '../api/orders.ts';
import { usePreviewEtf } from '../api/previewEtf.ts';
import { cut, isAmountText } from '../logic.ts';
import { PreviewTable } from './PreviewTable.tsx';

const USDT = moneyScaleOf('USDT');
export const ORDERS_PATH = { balanced: '/etf_wdtg', low_risk: '/etflow_wdtg' } as const;

/** The amount, the server's preview with fees, and the confirm step; refusals are the server's words. */
export function BuyForm({ model, eligibility }: { model: FundModelData; eligibility: FundEligibilityData }) {
  const { t } = useTranslation('funds');
  const navigate = useNavigate();
  const [amount, setAmount] = useState(model.min_amount);
  const [debounced] = useDebouncedValue(amount.trim(), 300);
  const valid = isAmountText(debounced);
  const preview = usePreviewEtf(model.model_id, valid ? debounced : '');
  const [confirming, setConfirming] = useState(false);
  const [clientOid, setClientOid] = useState(newClientOid);
  const buy = useBuyEtf();
  const refused =
    preview.error instanceof ApiError && preview.error.kind === 'refused' ? preview.error.message : null;
  const buyError = buy.error instanceof ApiError && buy.error.kind === 'refused' ? buy.error.message : null;

  const submit = () =>
    buy.mutate(
      { model_id: model.model_id, amount: debounced, client_oid: clientOid },
      {
        onSuccess: () => {
          setConfirming(false);
          setClientOid(newClientOid());
          notifications.show({ color: 'green', message: t('confirm.done') });
          void navigate(ORDERS_PATH[model.model_id]);
        },
      },
    );

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} data-testid="etf-buy-form">
      <Stack gap="sm">
        <TextInput
          label={t('buy.amount')}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
          error={
            amount.trim() !== '' && !isAmountText(amount)
              ? t('buy.limits', { min: model.min_amount, max: model.max_amount })
              : (refused ?? undefined)
          }
          description={t('buy.available', { amount: cut(eligibility.available, 2) })}
          data-testid="etf-amount"
        />
        {preview.data && valid && !refused ? <PreviewTable preview={preview.data} /> : null}
        <Button
          size="md"
          disabled={!valid || !preview.data || preview.isPlaceholderData || Boolean(refused)}
          onClick={() => {
            buy.reset();
            setConfirming(true);
          }}
          data-testid="etf-review"
        >
          {t('buy.submit')}
        </Button>
        <Button component={Link} to={ORDERS_PATH[model.model_id]} variant="subtle" size="xs">
          {t('buy.myOrders')}
        </Button>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('confirm.title')} centered>
        {preview.data ? (
          <Stack gap="xs" data-testid="etf-confirm">
            <Group justify="space-between">
              <Text size="sm">{t('confirm.portfolio')}</Text>
              <Text fw={600}>{model.name}</Text>
            </Group>
            <Group justify="space-between">
              <Text size="sm">{t('confirm.amount')}</Text>
              <Num value={preview.data.amount} kind="money" scale={USDT} suffix=" USDT" fw={700} />
            </Group>
            {preview.data.legs
              .filter((l) => /[1-9]/.test(l.quantity))
              .map((l) => (
                <Group
                  key={l.asset}
                  justify="space-between"
                  wrap="nowrap"
                  data-testid={`etf-confirm-${l.asset}`}
                >
                  <Text size="sm" translate="no">
                    {t('confirm.buy', { quantity: l.quantity, asset: l.asset })}
                  </Text>
                  <Num value={l.value} kind="money" scale={USDT} suffix=" USDT" size="sm" />
                </Group>
              ))}
            <Group justify="space-between">
              <Text size="sm">{t('confirm.fees')}</Text>
              <Num value={preview.data.fees} kind="money" scale={USDT} suffix=" USDT" />
            </Group>
            <Group justify="space-between">
              <Text size="sm">{t('confirm.cash')}</Text>
              <Num value={preview.data.cash} kind="money" scale={USDT} suffix=" USDT" />
            </Group>
            <Divider />
            <Text size="xs" c="dimmed">
              {t('noReturn')}
            </Text>
            {buyError ? (
              <Alert color="red" data-testid="etf-buy-error">
                {buyError}
              </Alert>
            ) : null}
            <Group grow mt="xs">
              <Button variant="default" onClick={() => setConfirming(false)}>
                {t('confirm.back')}
              </Button>
              <Button loading={buy.isPending} onClick={submit} data-testid="etf-confirm-submit">
                {t('confirm.submit')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Paper>
  );
}
