import type { LoanQuoteData } from '@bourse/protocol';
import { Divider, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Line, Usdt, useLoanWords } from './parts.tsx';

/**
 * The server's quote, whole, before anything is submitted: the APR (all costs) largest, then the
 * daily rate, interest, total and the repayment date, then what lateness costs and its caps.
 */
export function QuotePanel({ quote }: { quote: LoanQuoteData }) {
  const { t } = useTranslation('loans');
  const words = useLoanWords();
  return (
    <Paper withBorder radius="lg" p="md" data-testid="loan-quote">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('quote.title')}
        </Title>
        <SimpleGrid cols={2} spacing="md">
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {t('quote.apr')}
            </Text>
            <Text fz={34} fw={800} lh={1.1} data-testid="quote-apr" data-value={quote.apr}>
              {words.percent(quote.apr)}
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {t('quote.dailyRate')}
            </Text>
            <Text fz="sm" fw={600} data-testid="quote-daily" data-value={quote.daily_rate}>
              {t('common.perDay', { rate: words.percent(quote.daily_rate) })}
            </Text>
          </Stack>
        </SimpleGrid>
        <Line label={t('quote.interest')}>
          <Usdt value={quote.interest} testId="quote-interest" />
        </Line>
        <Line label={t('quote.total')}>
          <Usdt value={quote.total_repayable} fw={800} testId="quote-total" />
        </Line>
        <Line label={t('quote.repaymentDate')}>
          <Text size="sm" fw={600} data-testid="quote-date">
            {words.date(quote.repayment_at)}
          </Text>
        </Line>
        <Line label={t('quote.freeDays')}>
          <Text size="sm" fw={600} data-testid="quote-free-days">
            {t('common.days', { days: quote.interest_free_days })}
          </Text>
        </Line>
        <Line label={t('quote.chargeableDays')}>
          <Text size="sm" fw={600}>
            {t('common.days', { days: quote.chargeable_days })}
          </Text>
        </Line>
        <Divider label={t('quote.lateTitle')} labelPosition="left" />
        <Line label={t('quote.overduePerDay')}>
          <Stack gap={0} align="flex-end">
            <Usdt value={quote.overdue_interest_per_day} testId="quote-overdue-day" />
            <Text size="xs" c="dimmed">
              {t('common.perDay', { rate: words.percent(quote.overdue_rate) })}
            </Text>
          </Stack>
        </Line>
        <Line label={t('quote.lateFee')}>
          <Usdt value={quote.late_fee} testId="quote-late-fee" />
        </Line>
        <Line label={t('quote.overdueMax')}>
          <Usdt value={quote.overdue_charges_max} testId="quote-overdue-max" />
        </Line>
        <Line label={t('quote.costCap')}>
          <Stack gap={0} align="flex-end">
            <Usdt value={quote.cost_cap} testId="quote-cost-cap" />
            {quote.cap_reached_on_day !== null ? (
              <Text size="xs" c="dimmed">
                {t('quote.capReached', { day: quote.cap_reached_on_day })}
              </Text>
            ) : null}
          </Stack>
        </Line>
        <Line label={t('quote.worstCase')}>
          <Usdt value={quote.worst_case_total} fw={800} testId="quote-worst" />
        </Line>
        <Text size="xs" c="dimmed" data-testid="quote-caps">
          {t('quote.caps', {
            // The profile's name in the reader's language, not its id ("permissive").
            profile: String(t(`common:label.profile.${quote.caps.profile}` as never)),
            rate: words.percent(quote.caps.daily_rate_max),
            cost: words.percent(quote.caps.total_cost_max),
            fee: words.usdt(quote.caps.late_fee_max),
          })}
        </Text>
      </Stack>
    </Paper>
  );
}
