import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown beside a value whose reference price is stale (the feed went quiet). */
export function StaleBadge({ show }: { show: boolean }) {
  const { t } = useTranslation('assets');
  if (!show) return null;
  return (
    <Badge color="orange" variant="light" size="sm" data-testid="price-stale">
      {t('overview.priceStale')}
    </Badge>
  );
}
