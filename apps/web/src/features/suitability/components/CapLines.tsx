import type { CapData, CapsByRating, ProductClass, RiskRating } from '@bourse/protocol';
import { PRODUCT_CLASSES, RISK_RATINGS } from '@bourse/protocol';
import { formatNum, useNumSettings } from '@bourse/ui';
import { Badge, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { capLines, ratingColor } from '../logic.ts';

/** A rating as a coloured badge, in the reader's language. */
export function RatingBadge({
  rating,
  size = 'md',
}: {
  rating: RiskRating;
  size?: 'sm' | 'md' | 'lg' | 'xl';
}) {
  const { t } = useTranslation('suitability');
  return (
    <Badge
      color={ratingColor(rating)}
      variant="light"
      size={size}
      data-testid="rating-badge"
      data-rating={rating}
    >
      {t(`rating.${rating}`)}
    </Badge>
  );
}

/** What one cap allows, one line per limit (leverage and margin for contracts). */
export function CapText({ product, cap }: { product: ProductClass; cap: CapData | undefined }) {
  const { t } = useTranslation('suitability');
  const { locale } = useNumSettings();
  return (
    <Stack gap={0}>
      {capLines(product, cap).map((line) => (
        <Text
          key={line.key}
          size="sm"
          c={line.key === 'notAllowed' ? 'dimmed' : undefined}
          data-testid={`cap-${product}-${line.key}`}
        >
          {t(`cap.${line.key}`, {
            max: line.max,
            amount: line.amount === undefined ? undefined : formatNum(line.amount, { locale }),
          })}
        </Text>
      ))}
    </Stack>
  );
}

/** What every rating allows: a table on wide screens (products × ratings), a card per rating on phones. */
export function CapsTable({ caps, current }: { caps: CapsByRating; current?: RiskRating }) {
  const { t } = useTranslation('suitability');
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });
  if (!wide)
    return (
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" data-testid="caps-cards">
        {RISK_RATINGS.map((rating) => (
          <Paper
            key={rating}
            withBorder
            radius="md"
            p="sm"
            data-testid={`caps-card-${rating}`}
            style={
              rating === current
                ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 }
                : undefined
            }
          >
            <Stack gap="xs">
              <RatingBadge rating={rating} />
              {PRODUCT_CLASSES.map((product) => (
                <Stack key={product} gap={0}>
                  <Text size="xs" c="dimmed">
                    {t(`product.${product}`)}
                  </Text>
                  <CapText product={product} cap={caps[rating]?.[product]} />
                </Stack>
              ))}
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    );
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table withTableBorder striped verticalSpacing="sm" data-testid="caps-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            {RISK_RATINGS.map((rating) => (
              <Table.Th key={rating} data-current={rating === current ? 'true' : undefined}>
                <RatingBadge rating={rating} size={rating === current ? 'lg' : 'md'} />
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {PRODUCT_CLASSES.map((product) => (
            <Table.Tr key={product}>
              <Table.Td>
                <Text fw={600} size="sm">
                  {t(`product.${product}`)}
                </Text>
              </Table.Td>
              {RISK_RATINGS.map((rating) => (
                <Table.Td
                  key={rating}
                  style={
                    rating === current ? { background: 'var(--mantine-primary-color-light)' } : undefined
                  }
                >
                  <CapText product={product} cap={caps[rating]?.[product]} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
