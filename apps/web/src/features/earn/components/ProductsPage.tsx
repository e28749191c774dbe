import type { EarnKind, EarnProductData, ProfitTotalRow, VipLevelData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { useToken } from '../../../lib/session.ts';
import { useProfitInfo, useProfitList, useProfitTotal } from '../api.ts';
import {
  CapacityBar,
  Fact,
  FundingSource,
  KIND_ROUTES,
  Money,
  ProductStateBadge,
  Rate,
  useEarnWords,
  WIDE,
} from './parts.tsx';

const buyLink = (product: EarnProductData) =>
  `/profit_buy?product_id=${encodeURIComponent(product.product_id)}`;

/** A logged-out visitor: what they would see, and a way to log in and come back. */
export function LoginPrompt({ text }: { text: string }) {
  const { t } = useTranslation('earn');
  const location = useLocation();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" data-testid="earn-login">
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      <Button
        component={Link}
        to="/login"
        size="xs"
        onClick={() => rememberReturnTo(`${location.pathname}${location.search}`)}
      >
        {t('totals.loginButton')}
      </Button>
    </Group>
  );
}

function TotalRow({ row }: { row: ProfitTotalRow }) {
  const { t } = useTranslation('earn');
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" data-testid="earn-total" data-currency={row.currency}>
      <Fact label={t('totals.principal')}>
        <Money value={row.principal} currency={row.currency} testId="total-principal" />
      </Fact>
      <Fact label={t('totals.accrued')}>
        <Money value={row.accrued} currency={row.currency} testId="total-accrued" />
      </Fact>
      <Fact label={t('totals.earned')}>
        <Money value={row.earned} currency={row.currency} testId="total-earned" />
      </Fact>
      <Fact label=" ">
        <Text size="sm" c="dimmed">
          {t('totals.running', { count: row.running })}
        </Text>
      </Fact>
    </SimpleGrid>
  );
}

/** The signed-in customer's totals of this kind, per currency, and the link to their orders. */
function TotalsCard({ kind }: { kind: EarnKind }) {
  const { t } = useTranslation('earn');
  const token = useToken();
  const totals = useProfitTotal(kind);
  const rows = totals.data?.items ?? [];
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="earn-totals">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} fz="lg">
            {t('totals.title')}
          </Title>
          {token ? (
            <Anchor
              component={Link}
              to={KIND_ROUTES[kind].orders}
              size="sm"
              fw={600}
              data-testid="earn-my-orders"
            >
              {t('index.myOrders')}
            </Anchor>
          ) : null}
        </Group>
        {token === null ? (
          <LoginPrompt text={t('totals.login')} />
        ) : totals.isPending ? (
          <Loader size="sm" />
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="earn-totals-empty">
            {t('totals.empty')}
          </Text>
        ) : (
          rows.map((row) => <TotalRow key={row.currency} row={row} />)
        )}
      </Stack>
    </Paper>
  );
}

/** The thresholds as a card per level (phones: four columns do not fit 390 px). */
function VipLevelCards({ levels, mine }: { levels: VipLevelData[]; mine: number | null }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  return (
    <Stack gap="xs" data-testid="vip-levels-table">
      {levels.map((row) => (
        <Paper
          key={row.level}
          withBorder
          radius="md"
          p="sm"
          data-testid="vip-level-row"
          data-level={row.level}
          bg={row.level === mine ? 'var(--mantine-color-blue-light)' : undefined}
        >
          <Group justify="space-between" mb={6}>
            <Text size="sm" fw={700}>
              {t('vip.yourLevelValue', { level: row.level })}
            </Text>
            <Text size="sm">{words.tier(row.min_tier)}</Text>
          </Group>
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <Fact label={t('vip.volume')}>
              <Num value={row.min_volume_30d} size="sm" />
            </Fact>
            <Text size="xs" c="dimmed" pb={2}>
              {t('vip.or')}
            </Text>
            <Fact label={t('vip.balance')}>
              <Num value={row.min_balance} size="sm" />
            </Fact>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** The published VIP thresholds and the level the server computed for the signed-in customer. */
function VipLevelsCard({
  levels,
  probeProduct,
  wide,
}: {
  levels: VipLevelData[];
  probeProduct: string | null;
  wide: boolean;
}) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const token = useToken();
  // The level comes with the eligibility of any VIP product (the server computes it per customer).
  const info = useProfitInfo(token ? probeProduct : null);
  const level = info.data?.eligibility?.vip_level ?? null;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="vip-levels">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="lg">
            {t('vip.levelsTitle')}
          </Title>
          <Group gap={6} data-testid="vip-my-level" data-level={level ?? ''}>
            <Text size="sm" c="dimmed">
              {t('vip.yourLevel')}
            </Text>
            <Text size="sm" fw={700}>
              {token === null
                ? t('vip.loginForLevel')
                : level
                  ? t('vip.yourLevelValue', { level })
                  : probeProduct === null || info.isSuccess
                    ? t('vip.noLevel')
                    : '…'}
            </Text>
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {t('vip.levelsIntro')}
        </Text>
        {levels.length === 0 ? (
          <Text size="sm">{t('vip.noLevels')}</Text>
        ) : !wide ? (
          <VipLevelCards levels={levels} mine={level} />
        ) : (
          <Table.ScrollContainer minWidth={360} maw={900}>
            <Table fz="sm" verticalSpacing={6} data-testid="vip-levels-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('vip.level')}</Table.Th>
                  <Table.Th>{t('vip.minTier')}</Table.Th>
                  <Table.Th ta="right">{t('vip.volume')}</Table.Th>
                  <Table.Th />
                  <Table.Th ta="right">{t('vip.balance')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {levels.map((row) => (
                  <Table.Tr
                    key={row.level}
                    data-testid="vip-level-row"
                    data-level={row.level}
                    fw={row.level === level ? 700 : undefined}
                  >
                    <Table.Td>{row.level}</Table.Td>
                    <Table.Td>{words.tier(row.min_tier)}</Table.Td>
                    <Table.Td ta="right">
                      <Num value={row.min_volume_30d} size="sm" />
                    </Table.Td>
                    <Table.Td ta="center" c="dimmed">
                      {t('vip.or')}
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={row.min_balance} size="sm" />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

/** One product as a card (phones), the buy action at the bottom. */
function ProductCard({ product }: { product: EarnProductData }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  return (
    <Paper withBorder radius="lg" p="md" data-testid="earn-product" data-product={product.product_id}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0}>
            <Text fw={700}>{product.name}</Text>
            <Text size="xs" c="dimmed">
              {product.currency} · {words.days(product.term_days)}
              {product.vip_level !== null
                ? ` · ${t('product.vipLevelValue', { level: product.vip_level })}`
                : ''}
            </Text>
          </Stack>
          <ProductStateBadge state={product.state} />
        </Group>
        <SimpleGrid cols={2} spacing="sm">
          <Fact label={t('product.annualRate')}>
            <Rate value={product.annual_rate} testId="product-annual-rate" />
          </Fact>
          <Fact label={t('product.dailyRate')}>
            <Rate value={product.daily_rate} testId="product-daily-rate" />
          </Fact>
          <Fact label={t('product.limits')}>
            {words.money(product.min_amount, product.currency)} –{' '}
            {words.money(product.max_amount, product.currency)}
          </Fact>
          <Fact label={t('product.reserved')}>
            <Money value={product.reserved} currency={product.currency} testId="product-reserved" />
          </Fact>
        </SimpleGrid>
        <Fact label={t('product.capacityLeft')}>
          <CapacityBar product={product} />
        </Fact>
        <Fact label={t('product.fundedBy')}>
          <FundingSource product={product} />
        </Fact>
        <Button component={Link} to={buyLink(product)} fullWidth data-testid="earn-product-view">
          {t('index.view')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** Products as a table (desktop). */
function ProductTable({ items }: { items: EarnProductData[] }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table verticalSpacing="sm" fz="sm" highlightOnHover data-testid="earn-products-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('product.name')}</Table.Th>
            <Table.Th>{t('product.term')}</Table.Th>
            <Table.Th>{t('product.annualRate')}</Table.Th>
            <Table.Th>{t('product.dailyRate')}</Table.Th>
            <Table.Th>{t('product.limits')}</Table.Th>
            <Table.Th w={200}>{t('product.capacityLeft')}</Table.Th>
            <Table.Th>{t('product.reserved')}</Table.Th>
            <Table.Th w={260}>{t('product.fundedBy')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((product) => (
            <Table.Tr key={product.product_id} data-testid="earn-product" data-product={product.product_id}>
              <Table.Td>
                <Stack gap={2}>
                  <Text size="sm" fw={700}>
                    {product.name}
                  </Text>
                  <Group gap={6}>
                    <Text size="xs" c="dimmed">
                      {product.currency}
                    </Text>
                    {product.vip_level !== null ? (
                      <Text size="xs" c="dimmed">
                        · {t('product.vipLevelValue', { level: product.vip_level })}
                      </Text>
                    ) : null}
                    {product.state !== 'active' ? <ProductStateBadge state={product.state} /> : null}
                  </Group>
                </Stack>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{words.days(product.term_days)}</Table.Td>
              <Table.Td>
                <Rate value={product.annual_rate} testId="product-annual-rate" />
              </Table.Td>
              <Table.Td>
                <Rate value={product.daily_rate} testId="product-daily-rate" />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {words.money(product.min_amount, product.currency)} –{' '}
                {words.money(product.max_amount, product.currency)}
              </Table.Td>
              <Table.Td>
                <CapacityBar product={product} />
              </Table.Td>
              <Table.Td>
                <Money value={product.reserved} currency={product.currency} testId="product-reserved" />
              </Table.Td>
              <Table.Td>
                <FundingSource product={product} />
              </Table.Td>
              <Table.Td>
                <Button component={Link} to={buyLink(product)} size="xs" data-testid="earn-product-view">
                  {t('index.view')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ProductsPage({ kind }: { kind: EarnKind }) {
  const { t } = useTranslation('earn');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const list = useProfitList(kind);
  const items = list.data?.items ?? [];
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="earn-index" data-kind={kind}>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {t(`kind.${kind}`)}
        </Title>
        <Text size="sm" c="dimmed" maw={900}>
          {kind === 'vip' ? t('index.leadVip') : t('index.leadCustody')}
        </Text>
      </Stack>
      <TotalsCard kind={kind} />
      {kind === 'vip' && list.data ? (
        <VipLevelsCard
          levels={list.data.vip_levels}
          probeProduct={items[0]?.product_id ?? null}
          wide={wide}
        />
      ) : null}
      <Paper withBorder={wide} radius="lg" p={wide ? 'lg' : 0}>
        <Stack gap="sm">
          <Title order={2} fz="lg">
            {t('index.products')}
          </Title>
          {list.isPending ? (
            <Loader size="sm" />
          ) : list.isError ? (
            <Alert color="red" variant="light" data-testid="earn-products-failed">
              <Group justify="space-between">
                <Text size="sm">{t('index.failed')}</Text>
                <Button size="xs" variant="light" onClick={() => void list.refetch()}>
                  {t('index.retry')}
                </Button>
              </Group>
            </Alert>
          ) : items.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="earn-products-empty">
              {t('index.empty')}
            </Text>
          ) : wide ? (
            <ProductTable items={items} />
          ) : (
            <Stack gap="sm" data-testid="earn-products-cards">
              {items.map((product) => (
                <ProductCard key={product.product_id} product={product} />
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** /profit_index: custody products and my custody totals. */
export function CustodyIndexPage() {
  return <ProductsPage kind="custody" />;
}

/** /vip_index: VIP products, the published thresholds and my level. */
export function VipIndexPage() {
  return <ProductsPage kind="vip" />;
}
