import { bpsPercentText } from '@bourse/money';
import type { JurisdictionProfileId } from '@bourse/protocol';
import type { LoanCaps } from '@bourse/risk';
import { Alert, Card, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAmountText } from '../../app/ui.tsx';
import { capsText, limitText, type ProductForm, productPreview, usdtText } from './productForm.ts';

/** The profile's caps, then either every cap the product breaks or the quote a customer would read. */
export function ProductPreview({
  form,
  caps,
  profile,
}: {
  form: ProductForm;
  caps: LoanCaps;
  profile: JurisdictionProfileId | null;
}) {
  const { t } = useTranslation('adminLoans');
  const amountText = useAmountText();
  const c = capsText(caps);
  const preview = productPreview(form, caps);
  return (
    <Card withBorder data-testid="loans-form-preview">
      <Stack gap="xs">
        <Text size="sm" data-testid="loans-form-caps">
          {t('form.caps', {
            profile: profile ? t(`profile.${profile}`) : t('form.profileUnknown'),
            daily: c.daily_rate_max,
            total: c.total_cost_max,
            fee: amountText(c.late_fee_max, 'USDT'),
          })}
        </Text>
        {preview.kind === 'unreadable' ? (
          <Alert color="red" variant="light" p="xs" data-testid="loans-form-unreadable">
            {t('form.unreadable', { fields: preview.fields.map((f) => t(`field.${f}`)).join(', ') })}
          </Alert>
        ) : null}
        {preview.kind === 'breaks' ? (
          <Alert color="red" variant="light" p="xs" data-testid="loans-form-breaks">
            <Text size="sm" fw={600}>
              {t('form.breaks')}
            </Text>
            <List size="sm">
              {preview.violations.map((v) => (
                <List.Item key={`${v.field}-${v.rule}`} data-field={v.field} data-rule={v.rule}>
                  {t(`violation.${v.rule}`, { field: t(`field.${v.field}`), limit: limitText(v) })}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        {preview.kind === 'sample' ? (
          <Alert color="yellow" variant="light" p="xs" data-testid="loans-form-sample-problem">
            {preview.problem === 'unreadable'
              ? t('form.sampleUnreadable')
              : t(`requestProblem.${preview.problem.rule}`, {
                  limit: preview.problem.limit === null ? '' : usdtText(preview.problem.limit),
                })}
          </Alert>
        ) : null}
        {preview.kind === 'quote' ? (
          <Text size="sm" data-testid="loans-form-quote">
            {t('form.quote', {
              amount: amountText(usdtText(preview.quote.principalUnits), 'USDT'),
              days: preview.quote.termDays,
              apr: bpsPercentText(preview.quote.aprBps),
              daily: form.daily_rate.trim(),
              free: preview.quote.interestFreeDays,
              interest: amountText(usdtText(preview.quote.interestUnits), 'USDT'),
              total: amountText(usdtText(preview.quote.totalRepayableUnits), 'USDT'),
              overdue: amountText(usdtText(preview.quote.overdueInterestPerDayUnits), 'USDT'),
              fee: amountText(usdtText(preview.quote.lateFeeUnits), 'USDT'),
              worst: amountText(usdtText(preview.quote.worstCaseTotalUnits), 'USDT'),
            })}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}
