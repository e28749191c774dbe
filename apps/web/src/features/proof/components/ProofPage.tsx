import type { ProofLeaf, ProofRoot } from '@bourse/protocol';
import { CopyField, formatNum, Num, useNumSettings } from '@bourse/ui';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  List,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInfo } from '../../../api/info.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useProofLeaves, useProofRoots } from '../api.ts';
import { type BrowserVerification, shortHash, unitsToDecimal, verifyInBrowser } from '../logic.ts';

const mono = { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } as const;

function Explainer() {
  const { t } = useTranslation('proof');
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Paper withBorder radius="lg" p="lg" data-testid="proof-proves">
        <Title order={2} size="h4" mb="sm">
          {t('proves.title')}
        </Title>
        <List spacing="xs" size="sm">
          <List.Item>{t('proves.counted')}</List.Item>
          <List.Item>{t('proves.sums')}</List.Item>
          <List.Item>{t('proves.sameForAll')}</List.Item>
          <List.Item>{t('proves.private')}</List.Item>
        </List>
      </Paper>
      <Paper withBorder radius="lg" p="lg" data-testid="proof-not-proves">
        <Title order={2} size="h4" mb="sm">
          {t('notProves.title')}
        </Title>
        <List spacing="xs" size="sm">
          <List.Item>
            <Text span fw={700} size="sm">
              {t('notProves.reserves')}
            </Text>
          </List.Item>
          <List.Item>{t('notProves.everyone')}</List.Item>
          <List.Item>{t('notProves.between')}</List.Item>
          <List.Item>{t('notProves.demo')}</List.Item>
        </List>
      </Paper>
    </SimpleGrid>
  );
}

function RootCard({ root }: { root: ProofRoot }) {
  const { t } = useTranslation('proof');
  const lang = useLang();
  return (
    <Paper withBorder radius="lg" p="lg" data-testid={`proof-root-${root.currency}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700} size="lg">
            {root.currency}
          </Text>
          <Text size="xs" c="dimmed">
            {t('roots.publishedAt')} {formatDateTime(root.published_at, lang)}
          </Text>
        </Group>
        <Group gap="xl" wrap="wrap">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('roots.total')}
            </Text>
            <Num value={root.total} fw={700} size="lg" data-testid={`proof-root-total-${root.currency}`} />
          </Stack>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('roots.leaves')}
            </Text>
            <Num value={root.leaf_count} fw={700} size="lg" />
          </Stack>
        </Group>
        <CopyField
          label={t('roots.rootHash')}
          value={root.root_hash}
          copyLabel={t('roots.copy')}
          copiedLabel={t('roots.copied')}
          testId={`proof-root-hash-${root.currency}`}
          mono
        />
        {root.ledger_total === root.total && (
          <Badge
            variant="light"
            color="teal"
            radius="sm"
            style={{ alignSelf: 'flex-start', textTransform: 'none' }}
          >
            {t('roots.ledgerMatch')}
          </Badge>
        )}
      </Stack>
    </Paper>
  );
}

function Steps({ leaf, check, rootHash }: { leaf: ProofLeaf; check: BrowserVerification; rootHash: string }) {
  const { t } = useTranslation('proof');
  const cur = leaf.currency;
  const narrow = useMediaQuery('(max-width: 48em)');
  if (narrow) return <StepList leaf={leaf} check={check} rootHash={rootHash} />;
  return (
    <Stack gap="xs" data-testid={`proof-steps-${cur}`}>
      <Text fw={700} size="sm">
        {t('steps.title')}
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder fz="xs" verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('steps.level')}</Table.Th>
              <Table.Th>{t('steps.side')}</Table.Th>
              <Table.Th>{t('steps.siblingHash')}</Table.Th>
              <Table.Th ta="right">{t('steps.siblingSum')}</Table.Th>
              <Table.Th ta="right">{t('steps.sum')}</Table.Th>
              <Table.Th>{t('steps.hash')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {check.leaf && (
              <Table.Tr>
                <Table.Td colSpan={2}>{t('steps.leaf')}</Table.Td>
                <Table.Td>—</Table.Td>
                <Table.Td ta="right">—</Table.Td>
                <Table.Td ta="right">
                  <Num value={unitsToDecimal(check.leaf.sum, cur)} size="xs" />
                </Table.Td>
                <Table.Td style={mono} title={check.leaf.hash}>
                  {shortHash(check.leaf.hash)}
                </Table.Td>
              </Table.Tr>
            )}
            {check.steps.map((step) => (
              <Table.Tr key={step.level} data-testid={`proof-step-${cur}-${step.level}`}>
                <Table.Td>{step.level + 1}</Table.Td>
                <Table.Td>{step.side === 'left' ? t('steps.sideLeft') : t('steps.sideRight')}</Table.Td>
                <Table.Td style={mono} title={step.siblingHash}>
                  {shortHash(step.siblingHash)}
                </Table.Td>
                <Table.Td ta="right">
                  <Num value={unitsToDecimal(step.siblingSum, cur)} size="xs" />
                </Table.Td>
                <Table.Td ta="right">
                  <Num value={unitsToDecimal(step.sum, cur)} size="xs" />
                </Table.Td>
                <Table.Td style={mono} title={step.hash}>
                  {shortHash(step.hash)}
                </Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td colSpan={4} fw={700}>
                {t('steps.root')}
              </Table.Td>
              <Table.Td />
              <Table.Td style={mono} title={rootHash} fw={700}>
                {shortHash(rootHash.trim().toLowerCase())}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="xs" ta="right" style={{ minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  );
}

/** The steps on a phone: one small card per level instead of a wide table. */
function StepList({
  leaf,
  check,
  rootHash,
}: {
  leaf: ProofLeaf;
  check: BrowserVerification;
  rootHash: string;
}) {
  const { t } = useTranslation('proof');
  const cur = leaf.currency;
  return (
    <Stack gap="xs" data-testid={`proof-steps-${cur}`}>
      <Text fw={700} size="sm">
        {t('steps.title')}
      </Text>
      {check.leaf && (
        <Paper withBorder radius="md" p="xs">
          <Text size="xs" fw={700} mb={4}>
            {t('steps.leaf')}
          </Text>
          <Row label={t('steps.sum')}>
            <Num value={unitsToDecimal(check.leaf.sum, cur)} size="xs" span />
          </Row>
          <Row label={t('steps.hash')}>
            <span style={mono}>{shortHash(check.leaf.hash, 8)}</span>
          </Row>
        </Paper>
      )}
      {check.steps.map((step) => (
        <Paper key={step.level} withBorder radius="md" p="xs" data-testid={`proof-step-${cur}-${step.level}`}>
          <Text size="xs" fw={700} mb={4}>
            {t('steps.level')} {step.level + 1} · {t('steps.side')}{' '}
            {step.side === 'left' ? t('steps.sideLeft') : t('steps.sideRight')}
          </Text>
          <Row label={t('steps.siblingHash')}>
            <span style={mono}>{shortHash(step.siblingHash, 8)}</span>
          </Row>
          <Row label={t('steps.siblingSum')}>
            <Num value={unitsToDecimal(step.siblingSum, cur)} size="xs" span />
          </Row>
          <Row label={t('steps.sum')}>
            <Num value={unitsToDecimal(step.sum, cur)} size="xs" span />
          </Row>
          <Row label={t('steps.hash')}>
            <span style={mono}>{shortHash(step.hash, 8)}</span>
          </Row>
        </Paper>
      ))}
      <Paper withBorder radius="md" p="xs">
        <Row label={t('steps.root')}>
          <span style={{ ...mono, fontWeight: 700 }}>{shortHash(rootHash.trim().toLowerCase(), 8)}</span>
        </Row>
      </Paper>
    </Stack>
  );
}

function LeafCard({ leaf, root }: { leaf: ProofLeaf; root: ProofRoot | undefined }) {
  const { t } = useTranslation('proof');
  const [rootHash, setRootHash] = useState(root?.root_hash ?? '');
  const [check, setCheck] = useState<BrowserVerification | null>(null);
  const cur = leaf.currency;
  const stale = !root || root.snapshot_id !== leaf.snapshot_id;
  const { locale } = useNumSettings();
  const total = root ? formatNum(unitsToDecimal(root.total_units, cur), { locale }) : '';
  return (
    <Paper withBorder radius="lg" p="lg" data-testid={`proof-leaf-${cur}`}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('mine.balance')}
            </Text>
            <Group gap={6} align="baseline">
              <Num value={leaf.balance} fw={700} fz={24} data-testid={`proof-leaf-balance-${cur}`} />
              <Text fw={700}>{cur}</Text>
            </Group>
          </Stack>
          <Text size="sm" c="dimmed">
            {t('mine.position', { index: leaf.leaf_index + 1, count: leaf.leaf_count })}
          </Text>
        </Group>
        <details>
          <summary style={{ cursor: 'pointer' }}>
            <Text span size="sm" fw={500}>
              {t('mine.details')}
            </Text>
          </summary>
          <Stack gap={6} mt="xs">
            <Text size="xs" c="dimmed">
              {t('mine.leafId')}
            </Text>
            <Code block style={mono}>
              {leaf.leaf_id}
            </Code>
            <Text size="xs" c="dimmed">
              {t('mine.nonce')}
            </Text>
            <Code block style={mono}>
              {leaf.nonce}
            </Code>
            <Text size="xs" c="dimmed">
              {t('mine.salt')}
            </Text>
            <Code block style={mono}>
              {leaf.salt}
            </Code>
          </Stack>
        </details>
        {stale ? (
          <Alert color="yellow" data-testid={`proof-stale-${cur}`}>
            {t('mine.stale')}
          </Alert>
        ) : (
          <>
            <TextInput
              label={t('mine.rootToCheck')}
              description={t('mine.rootToCheckHint')}
              value={rootHash}
              onChange={(event) => {
                setRootHash(event.currentTarget.value);
                setCheck(null);
              }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
              rightSectionWidth={80}
              rightSection={
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => {
                    setRootHash(root.root_hash);
                    setCheck(null);
                  }}
                  data-testid={`proof-root-reset-${cur}`}
                >
                  {t('mine.reset')}
                </Button>
              }
              data-testid={`proof-root-input-${cur}`}
            />
            <Group>
              <Button
                onClick={() => setCheck(verifyInBrowser(leaf, root, rootHash))}
                data-testid={`proof-verify-${cur}`}
              >
                {t('mine.verify')}
              </Button>
            </Group>
          </>
        )}
        {check && (
          <Stack gap="md">
            <Text size="sm" c={check.idMatches ? 'teal' : 'red'} data-testid={`proof-id-check-${cur}`}>
              {check.idMatches ? t('mine.idOk') : t('mine.idBad')}
            </Text>
            <Steps leaf={leaf} check={check} rootHash={rootHash} />
            {check.ok ? (
              <Alert color="teal" variant="light" data-testid={`proof-result-ok-${cur}`}>
                {t('result.ok', { balance: formatNum(leaf.balance, { locale }), total, currency: cur })}
              </Alert>
            ) : (
              <Alert
                color="red"
                variant="light"
                data-testid={`proof-result-failed-${cur}`}
                data-failure={check.failure}
              >
                {t('result.failed', { reason: t(`result.failure.${check.failure ?? 'malformed_path'}`) })}
              </Alert>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function MyLeaves({ roots }: { roots: ProofRoot[] }) {
  const { t } = useTranslation('proof');
  const info = useInfo();
  const leaves = useProofLeaves();
  if (info.data?.is_demo === 1) {
    return (
      <Alert color="blue" variant="light" data-testid="proof-demo">
        {t('mine.demo')}
      </Alert>
    );
  }
  if (leaves.isPending) {
    return (
      <Group gap="sm">
        <Loader size="sm" />
        <Text size="sm">{t('mine.loading')}</Text>
      </Group>
    );
  }
  const list = leaves.data?.leaves ?? [];
  if (list.length === 0) {
    return (
      <Text c="dimmed" data-testid="proof-mine-empty">
        {t('mine.empty')}
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
      {list.map((leaf) => (
        <LeafCard
          // A new published root starts the check afresh.
          key={`${leaf.snapshot_id}:${roots.find((r) => r.currency === leaf.currency)?.snapshot_id ?? ''}`}
          leaf={leaf}
          root={roots.find((r) => r.currency === leaf.currency)}
        />
      ))}
    </SimpleGrid>
  );
}

/** /proof: the published Merkle sum tree roots and, for the customer, their own leaf checked in the browser. */
export function ProofPage() {
  const { t } = useTranslation('proof');
  const roots = useProofRoots();
  const list = roots.data?.roots ?? [];
  return (
    <Stack gap="xl" py={{ base: 'md', sm: 40 }} data-testid="proof-page">
      <Stack gap="xs">
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" maw={900}>
          {t('intro')}
        </Text>
      </Stack>
      <Explainer />
      <Stack gap="md">
        <Title order={2} size="h3">
          {t('roots.title')}
        </Title>
        {roots.isPending ? (
          <Loader size="sm" />
        ) : list.length === 0 ? (
          <Text c="dimmed" data-testid="proof-roots-empty">
            {t('roots.empty')}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="lg" data-testid="proof-roots">
            {list.map((root) => (
              <RootCard key={root.snapshot_id} root={root} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      <Stack gap="md">
        <Title order={2} size="h3">
          {t('mine.title')}
        </Title>
        {roots.isPending ? <Loader size="sm" /> : <MyLeaves roots={list} />}
      </Stack>
      <Paper withBorder radius="lg" p="lg">
        <Title order={2} size="h4" mb="xs">
          {t('how.title')}
        </Title>
        <Text size="sm">{t('how.body')}</Text>
      </Paper>
    </Stack>
  );
}
