import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';

/** Where a recorded price came from (`sim`, `ccxt:<exchange>`, `replay`, …), in words, and when. */
export function PriceSource({ source, at }: { source: string | null; at: number | null }) {
  const { t } = useTranslation('contract');
  const lang = useLang();
  if (!source) return <Text size="sm">--</Text>;
  const [kind, detail] = source.split(':', 2);
  const name =
    kind === 'sim' || kind === 'replay' || kind === 'reference'
      ? t(`source.${kind}`)
      : kind === 'ccxt'
        ? t('source.exchange', { exchange: detail ?? '' })
        : t('source.feed');
  return (
    <Stack gap={0} data-testid="price-source" data-source={source}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {name}
      </Text>
      {at ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(at, lang)}
        </Text>
      ) : null}
    </Stack>
  );
}
