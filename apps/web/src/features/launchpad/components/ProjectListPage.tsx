import type { LaunchpadProjectData } from '@bourse/protocol';
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
import { Link, useNavigate } from 'react-router';
import { useToken } from '../../../lib/session.ts';
import { useSubscriptionList } from '../api.ts';
import { LAUNCHPAD_ROUTES } from '../logic.ts';
import {
  Amount,
  Coins,
  CountdownText,
  Fact,
  ProgressFigure,
  ProjectBadges,
  useLaunchpadWords,
  WIDE,
} from './parts.tsx';

/** One project as a card (phones): the whole card opens the project. */
function ProjectCard({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      component={Link}
      to={LAUNCHPAD_ROUTES.project(project.project_id)}
      style={{ color: 'inherit', textDecoration: 'none' }}
      data-testid="launchpad-project"
      data-project={project.project_id}
      data-state={project.state}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0} miw={0}>
            <Text fw={700}>{project.name}</Text>
            <Text size="xs" c="dimmed" translate="no">
              {project.coin} · {project.issuer}
            </Text>
          </Stack>
          <ProjectBadges project={project} />
        </Group>
        <CountdownText project={project} />
        <SimpleGrid cols={2} spacing="sm">
          <Fact label={t('project.price')}>
            <Amount value={project.price} currency="USDT" testId="project-price" />
          </Fact>
          <Fact label={t('project.supply')}>
            <Coins value={project.supply} project={project} testId="project-supply" />
          </Fact>
          <Fact label={t('project.mode')}>{words.mode(project.mode)}</Fact>
          <Fact label={t('project.listing')}>{words.date(project.listing_at)}</Fact>
        </SimpleGrid>
        <Fact label={t('project.progress')}>
          <ProgressFigure project={project} />
        </Fact>
        <Text size="sm" fw={600} c="blue" ta="right">
          {t('list.view')}
        </Text>
      </Stack>
    </Paper>
  );
}

/** Projects as a table (desktop); a row opens its project. */
function ProjectTable({ items }: { items: LaunchpadProjectData[] }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const navigate = useNavigate();
  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table verticalSpacing="sm" fz="sm" highlightOnHover data-testid="launchpad-projects-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('project.name')}</Table.Th>
            <Table.Th>{t('project.state')}</Table.Th>
            <Table.Th>{t('project.window')}</Table.Th>
            <Table.Th ta="right">{t('project.price')}</Table.Th>
            <Table.Th ta="right">{t('project.supply')}</Table.Th>
            <Table.Th w={220}>{t('project.progress')}</Table.Th>
            <Table.Th>{t('project.mode')}</Table.Th>
            <Table.Th>{t('project.listing')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((project) => (
            <Table.Tr
              key={project.project_id}
              onClick={() => navigate(LAUNCHPAD_ROUTES.project(project.project_id))}
              style={{ cursor: 'pointer' }}
              data-testid="launchpad-project"
              data-project={project.project_id}
              data-state={project.state}
            >
              <Table.Td>
                <Stack gap={2}>
                  <Text size="sm" fw={700}>
                    {project.name}
                  </Text>
                  <Text size="xs" c="dimmed" translate="no">
                    {project.coin} · {project.issuer}
                  </Text>
                </Stack>
              </Table.Td>
              <Table.Td>
                <ProjectBadges project={project} />
              </Table.Td>
              <Table.Td>
                <CountdownText project={project} />
              </Table.Td>
              <Table.Td ta="right">
                <Amount value={project.price} currency="USDT" testId="project-price" />
              </Table.Td>
              <Table.Td ta="right">
                <Coins value={project.supply} project={project} testId="project-supply" />
              </Table.Td>
              <Table.Td>
                <ProgressFigure project={project} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{words.mode(project.mode)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{words.date(project.listing_at)}</Table.Td>
              <Table.Td>
                <Button
                  component={Link}
                  to={LAUNCHPAD_ROUTES.project(project.project_id)}
                  size="xs"
                  onClick={(event) => event.stopPropagation()}
                  data-testid="launchpad-project-view"
                >
                  {t('list.view')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /subscription: every announced project, its window, price, supply and progress. */
export function ProjectListPage() {
  const { t } = useTranslation('launchpad');
  const token = useToken();
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const list = useSubscriptionList();
  const items = list.data?.items ?? [];
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="launchpad-list">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Title order={1} fz={{ base: 22, sm: 28 }}>
            {t('list.title')}
          </Title>
          <Text size="sm" c="dimmed" maw={900}>
            {t('list.lead')}
          </Text>
        </Stack>
        {token ? (
          <Anchor
            component={Link}
            to={LAUNCHPAD_ROUTES.records}
            size="sm"
            fw={600}
            data-testid="launchpad-my-records"
          >
            {t('list.myRecords')}
          </Anchor>
        ) : null}
      </Group>
      <Paper withBorder={wide} radius="lg" p={wide ? 'lg' : 0}>
        {list.isPending ? (
          <Loader size="sm" />
        ) : list.isError ? (
          <Alert color="red" variant="light" data-testid="launchpad-projects-failed">
            <Group justify="space-between">
              <Text size="sm">{t('list.failed')}</Text>
              <Button size="xs" variant="light" onClick={() => void list.refetch()}>
                {t('list.retry')}
              </Button>
            </Group>
          </Alert>
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="launchpad-projects-empty">
            {t('list.empty')}
          </Text>
        ) : wide ? (
          <ProjectTable items={items} />
        ) : (
          <Stack gap="sm" data-testid="launchpad-projects-cards">
            {items.map((project) => (
              <ProjectCard key={project.project_id} project={project} />
            ))}
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
