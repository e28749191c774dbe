import { Badge, Card, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { useCustomerRating } from './api.ts';

/** The customer's risk rating on the staff customer detail (`customers.read`). */
export function CustomerRatingCard({ customerId }: { customerId: string }) {
  const { t } = useTranslation('suitability');
  const lang = useLang();
  const rating = useCustomerRating(customerId);
  const d = rating.data;
  const current = d?.history[0];
  return (
    <Card withBorder data-testid="customer-rating">
      <Group gap="sm" mb={4}>
        <Title order={4}>{t('admin.customerTitle')}</Title>
        {d ? (
          <Badge variant="light" data-testid="customer-rating-badge" data-rating={d.rating}>
            {t(`rating.${d.rating}`)}
          </Badge>
        ) : null}
      </Group>
      <ErrorNote error={rating.error} />
      {d ? (
        <Text size="sm" c="dimmed">
          {current
            ? t('admin.customerAssessed', {
                date: formatTime(current.taken_at, lang),
                points: current.points,
                version: current.scoring_version,
              })
            : t('admin.customerNever')}
        </Text>
      ) : null}
    </Card>
  );
}
