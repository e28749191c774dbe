import { moneyScaleOf } from '@bourse/money';
import type { FundModelData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Button, Divider, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BuyFormState } from '../hooks/useBuyForm.ts';

const USDT = moneyScaleOf('USDT');

/** The confirm step: the portfolio, the amount, what each asset buys, the fees, the cash kept. */
export function BuyConfirm({ model, form }: { model: FundModelData; form: BuyFormState }) {
  const { t } = useTranslation('funds');
  const preview = form.preview.data;
  return (
    <Modal opened={form.confirming} onClose={form.close} title={t('confirm.title')} centered>
      {preview ? (
        <Stack gap="xs" data-testid="etf-confirm">
          <Group justify="space-between">
            <Text size="sm">{t('confirm.portfolio')}</Text>
            <Text fw={600}>{model.name}</Text>
          </Group>
          <Group justify="space-between">
            <Text size="sm">{t('confirm.amount')}</Text>
            <Num value={preview.amount} kind="money" scale={USDT} suffix=" USDT" fw={700} />
          </Group>
          {preview.legs
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
            <Num value={preview.fees} kind="money" scale={USDT} suffix=" USDT" />
          </Group>
          <Group justify="space-between">
            <Text size="sm">{t('confirm.cash')}</Text>
            <Num value={preview.cash} kind="money" scale={USDT} suffix=" USDT" />
          </Group>
          <Divider />
          <Text size="xs" c="dimmed">
            {t('noReturn')}
          </Text>
          {form.buyError ? (
            <Alert color="red" data-testid="etf-buy-error">
              {form.buyError}
            </Alert>
          ) : null}
          <Group grow mt="xs">
            <Button variant="default" onClick={form.close}>
              {t('confirm.back')}
            </Button>
            <Button loading={form.pending} onClick={form.submit} data-testid="etf-confirm-submit">
              {t('confirm.submit')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
