import type { LaunchpadAllocationData, LaunchpadProjectData } from '@bourse/protocol';
import { CopyField } from '@bourse/ui';
import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { countOf, fillPercent, LAUNCHPAD_ROUTES, lotsToCoins } from '../logic.ts';
import { Fact, useLaunchpadWords } from './parts.tsx';

function RootFacts({
  label,
  root,
  testId,
}: {
  label: string;
  root: LaunchpadAllocationData['commitment_root'];
  testId: string;
}) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  return (
    <Paper withBorder radius="md" p="sm" data-testid={testId}>
      <Stack gap={6}>
        <CopyField
          label={label}
          value={root.hash}
          copyLabel={t('allocation.copy')}
          copiedLabel={t('allocation.copied')}
          testId={`${testId}-hash`}
          mono
        />
        <Group gap="xl">
          <Fact label={t('allocation.rootSum')}>
            {t('allocation.lotsValue', { count: countOf(root.sum), lots: words.whole(root.sum) })}
          </Fact>
          <Fact label={t('allocation.leaves')}>{words.whole(root.leaf_count)}</Fact>
        </Group>
      </Stack>
    </Paper>
  );
}

type Props = { project: LaunchpadProjectData; allocation: LaunchpadAllocationData };

/** The published figures, in lots: supply, cap, commitments, fill ratio, capped, remainder rule, allocated. */
function AllocationFigures({ project, allocation }: Props) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const lots = (value: string) =>
    t('allocation.lotsValue', { count: countOf(value), lots: words.whole(value) });
  const coins = (value: string) =>
    `${words.coins(lotsToCoins(value, project.lot_size, project.coin_scale), project.lot_size)} ${project.coin}`;
  const cut = allocation.remainder_cut;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
      <Fact label={t('allocation.supply')} testId="allocation-supply">
        {lots(allocation.supply_lots)}
      </Fact>
      <Fact label={t('allocation.cap')}>{lots(allocation.cap_lots)}</Fact>
      <Fact label={t('allocation.commitments')} testId="allocation-commitments">
        {t('allocation.commitmentsValue', {
          count: allocation.commitments,
          lots: lots(allocation.committed_lots),
        })}
      </Fact>
      <Fact label={t('allocation.fill')} testId="allocation-fill">
        {t('allocation.fillValue', {
          percent: words.percent(fillPercent(allocation)),
          s: words.whole(allocation.fill_numerator),
          c: words.whole(allocation.fill_denominator),
        })}
      </Fact>
      <Fact label={t('allocation.capped')} testId="allocation-capped">
        {t('allocation.cappedValue', {
          count: allocation.capped,
          lots: lots(allocation.capped_committed_lots),
        })}
      </Fact>
      <Fact label={t('allocation.remainder')} testId="allocation-remainder">
        {lots(allocation.remainder_lots)}
      </Fact>
      <Fact label={t('allocation.cut')} testId="allocation-cut">
        {cut
          ? t('allocation.cutValue', { remainder: words.whole(cut.remainder), seq: cut.seq })
          : t('allocation.noCut')}
      </Fact>
      <Fact label={t('allocation.allocated')} testId="allocation-allocated">
        {lots(allocation.allocated_lots)} · {coins(allocation.allocated_lots)}
      </Fact>
    </SimpleGrid>
  );
}

/**
 * The published result of the allocation run: everything a customer needs to recompute their own
 * line (fill ratio S′ / C′, who was capped, the lots the remainder rule handed out and its last cut)
 * and the two Merkle roots, with the way to the browser check.
 */
export function AllocationCard({ project, allocation }: Props) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const token = useToken();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="launchpad-allocation">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="lg">
            {t('allocation.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('allocation.publishedAt', { date: words.time(allocation.published_at) })}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t('allocation.unit', { lot: words.coins(project.lot_size, project.lot_size), coin: project.coin })}
        </Text>
        <AllocationFigures project={project} allocation={allocation} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <RootFacts
            label={t('allocation.commitmentRoot')}
            root={allocation.commitment_root}
            testId="allocation-commitment-root"
          />
          <RootFacts
            label={t('allocation.allocationRoot')}
            root={allocation.allocation_root}
            testId="allocation-allocation-root"
          />
        </SimpleGrid>
        {token ? (
          <Group>
            <Button
              component={Link}
              to={LAUNCHPAD_ROUTES.proof(project.project_id)}
              variant="light"
              data-testid="launchpad-verify-link"
            >
              {t('allocation.verify')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
