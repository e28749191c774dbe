import type { FundEligibilityData, FundModelData } from '@bourse/protocol';
import { Button, Paper, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ORDERS_PATH, useBuyForm } from '../hooks/useBuyForm.ts';
import { cut } from '../logic.ts';
import { BuyConfirm } from './BuyConfirm.tsx';
import { PreviewTable } from './PreviewTable.tsx';

/** The amount, the server's preview with fees, and the confirm step; refusals are the server's words. */
export function BuyForm({ model, eligibility }: { model: FundModelData; eligibility: FundEligibilityData }) {
  const { t } = useTranslation('funds');
  const form = useBuyForm(model);
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }} data-testid="etf-buy-form">
      <Stack gap="sm">
        <TextInput
          label={t('buy.amount')}
          inputMode="decimal"
          value={form.amount}
          onChange={(e) => form.setAmount(e.currentTarget.value)}
          error={
            form.typedBad
              ? t('buy.limits', { min: model.min_amount, max: model.max_amount })
              : (form.refused ?? undefined)
          }
          description={t('buy.available', { amount: cut(eligibility.available, 2) })}
          data-testid="etf-amount"
        />
        {form.preview.data && !form.typedBad && !form.refused ? (
          <PreviewTable preview={form.preview.data} />
        ) : null}
        <Button size="md" disabled={!form.canReview} onClick={form.review} data-testid="etf-review">
          {t('buy.submit')}
        </Button>
        <Button component={Link} to={ORDERS_PATH[model.model_id]} variant="subtle" size="xs">
          {t('buy.myOrders')}
        </Button>
      </Stack>
      <BuyConfirm model={model} form={form} />
    </Paper>
  );
}
