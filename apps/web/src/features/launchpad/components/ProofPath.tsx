import type { Verification } from '@bourse/proof';
import type { LaunchpadLeafData } from '@bourse/protocol';
import { Badge, Code, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { countOf } from '../logic.ts';
import { type StepStatus, shortHash } from '../proof.ts';
import { useLaunchpadWords, WIDE } from './parts.tsx';

const mono = { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } as const;

const STATUS_COLORS: Record<StepStatus, string> = { ok: 'teal', failed: 'red', unchecked: 'gray' };

/** A step's result: passed, failed, or not reached because an earlier step failed. */
export function StatusBadge({ status }: { status: StepStatus }) {
  const { t } = useTranslation('launchpad');
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant={status === 'failed' ? 'filled' : 'light'}
      data-testid="step-status"
    >
      {t(`proof.status.${status}`)}
    </Badge>
  );
}

/** One numbered step of the check, with its status. */
export function StepCard({
  step,
  index,
  title,
  status,
  children,
}: {
  step: string;
  index: number;
  title: string;
  status: StepStatus;
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      data-testid={`proof-step-${step}`}
      data-status={status}
      style={status === 'failed' ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={700}>
            {index}. {title}
          </Text>
          <StatusBadge status={status} />
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** A leaf as the customer got it: the salted id, the tree's tag, the nonce and the lots. */
export function LeafFacts({ leaf, label }: { leaf: LaunchpadLeafData; label: string }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  return (
    <Stack gap={4} data-testid={`proof-leaf-${leaf.currency}`}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Code>{leaf.currency}</Code>
        <Text size="sm" data-testid="proof-leaf-lots">
          {t('proof.lots', { count: countOf(leaf.balance), lots: words.whole(leaf.balance) })}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {t('proof.nonce')}
      </Text>
      <Text size="xs" style={mono}>
        {leaf.nonce}
      </Text>
    </Stack>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="xs" ta="right" component="div" style={{ minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  );
}

type PathProps = {
  check: Verification;
  root: { hash: string; sum: string };
  testId: string;
};

/** The path from the leaf to the root on a phone: one small card per level. */
function PathCards({ check, root, testId }: PathProps) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  return (
    <Stack gap="xs" data-testid={testId}>
      {check.leaf ? (
        <Paper withBorder radius="md" p="xs">
          <Text size="xs" fw={700} mb={4}>
            {t('proof.path.leaf')}
          </Text>
          <Row label={t('proof.path.sum')}>{words.whole(check.leaf.sum.toString())}</Row>
          <Row label={t('proof.path.hash')}>
            <span style={mono}>{shortHash(check.leaf.hash, 8)}</span>
          </Row>
        </Paper>
      ) : null}
      {check.steps.map((step) => (
        <Paper key={step.level} withBorder radius="md" p="xs" data-testid="proof-path-step">
          <Text size="xs" fw={700} mb={4}>
            {t('proof.path.levelSide', {
              level: step.level + 1,
              side: step.side === 'left' ? t('proof.path.left') : t('proof.path.right'),
            })}
          </Text>
          <Row label={t('proof.path.siblingHash')}>
            <span style={mono}>{shortHash(step.siblingHash, 8)}</span>
          </Row>
          <Row label={t('proof.path.siblingSum')}>{words.whole(step.siblingSum.toString())}</Row>
          <Row label={t('proof.path.sum')}>{words.whole(step.sum.toString())}</Row>
          <Row label={t('proof.path.hash')}>
            <span style={mono}>{shortHash(step.hash, 8)}</span>
          </Row>
        </Paper>
      ))}
      <Paper withBorder radius="md" p="xs">
        <Row label={t('proof.path.root')}>
          <span style={{ ...mono, fontWeight: 700 }}>{shortHash(root.hash, 8)}</span>
        </Row>
        <Row label={t('proof.path.rootSum')}>{words.whole(root.sum)}</Row>
      </Paper>
    </Stack>
  );
}

/** The path from the leaf to the root on a desktop: one table row per level, then the published root. */
function PathTable({ check, root, testId }: PathProps) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder fz="xs" verticalSpacing={6} data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('proof.path.level')}</Table.Th>
            <Table.Th>{t('proof.path.side')}</Table.Th>
            <Table.Th>{t('proof.path.siblingHash')}</Table.Th>
            <Table.Th ta="right">{t('proof.path.siblingSum')}</Table.Th>
            <Table.Th ta="right">{t('proof.path.sum')}</Table.Th>
            <Table.Th>{t('proof.path.hash')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {check.leaf ? (
            <Table.Tr>
              <Table.Td colSpan={2}>{t('proof.path.leaf')}</Table.Td>
              <Table.Td>—</Table.Td>
              <Table.Td ta="right">—</Table.Td>
              <Table.Td ta="right">{words.whole(check.leaf.sum.toString())}</Table.Td>
              <Table.Td style={mono} title={check.leaf.hash}>
                {shortHash(check.leaf.hash)}
              </Table.Td>
            </Table.Tr>
          ) : null}
          {check.steps.map((step) => (
            <Table.Tr key={step.level} data-testid="proof-path-step">
              <Table.Td>{step.level + 1}</Table.Td>
              <Table.Td>{step.side === 'left' ? t('proof.path.left') : t('proof.path.right')}</Table.Td>
              <Table.Td style={mono} title={step.siblingHash}>
                {shortHash(step.siblingHash)}
              </Table.Td>
              <Table.Td ta="right">{words.whole(step.siblingSum.toString())}</Table.Td>
              <Table.Td ta="right">{words.whole(step.sum.toString())}</Table.Td>
              <Table.Td style={mono} title={step.hash}>
                {shortHash(step.hash)}
              </Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td colSpan={4} fw={700}>
              {t('proof.path.root')}
            </Table.Td>
            <Table.Td ta="right" fw={700}>
              {words.whole(root.sum)}
            </Table.Td>
            <Table.Td style={mono} title={root.hash} fw={700}>
              {shortHash(root.hash)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A leaf's path recomputed in the browser against the published root, and why it failed if it did. */
export function PathCheck({ check, root, testId }: PathProps) {
  const { t } = useTranslation('launchpad');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  return (
    <Stack gap="xs">
      {wide ? (
        <PathTable check={check} root={root} testId={testId} />
      ) : (
        <PathCards check={check} root={root} testId={testId} />
      )}
      {check.failure ? (
        <Text size="sm" c="red" data-testid={`${testId}-failure`} data-failure={check.failure}>
          {t(`proof.pathFailure.${check.failure}`)}
        </Text>
      ) : (
        <Text size="sm" c="teal" data-testid={`${testId}-ok`}>
          {t('proof.pathOk')}
        </Text>
      )}
    </Stack>
  );
}
