import {
  type TierView,
  VERIFICATION_TIERS,
  type VerificationData,
  type VerificationTier,
} from '@bourse/protocol';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronRightIcon, IdCardIcon } from '../../../components/icons.tsx';
import { useVerification } from '../api.ts';
import { TIER_PATH, tierAction } from '../logic.ts';
import { DemoPrompt, Loading, StateBadge, TierStatus, VerificationPage } from './parts.tsx';

const LEVEL = ['none', 'primary', 'advanced'] as const;

function Unlocks({ view }: { view: TierView }) {
  const { t } = useTranslation(['kyc', 'verification']);
  return (
    <Stack gap={6}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase">
        {t('unlocks')}
      </Text>
      {view.unlocks.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('unlocksNone')}
        </Text>
      ) : (
        <Group gap={6} data-testid={`unlocks-${view.tier}`}>
          {view.unlocks.map((feature) => (
            <Badge key={feature} variant="outline" color="blue" radius="sm" tt="none" fw={500}>
              {t(`verification:feature.${feature}`)}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

function TierCard({ view, real }: { view: TierView; real: boolean }) {
  const { t } = useTranslation(['kyc', 'verification']);
  const action = real ? tierAction(view) : 'locked';
  const tier: VerificationTier = view.tier;
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      data-testid={`tier-${tier}`}
      data-state={view.state}
    >
      <Stack gap="md" h="100%">
        <Stack gap={6}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Title order={2} size="h4" style={{ minWidth: 0 }}>
              {t(`verification:tier.${tier}`)}
            </Title>
            <StateBadge state={view.state} testId={`tier-state-${tier}`} />
          </Group>
          <Text size="sm" c="dimmed">
            {t(`tierIntro.${tier}`)}
          </Text>
        </Stack>
        <Unlocks view={view} />
        {!view.available && view.requires ? (
          <Text size="sm" c="orange" data-testid={`requires-${tier}`}>
            {t('requires', { tier: t(`verification:tier.${view.requires}`) })}
          </Text>
        ) : null}
        <TierStatus view={view} compact />
        <Group mt="auto">
          {action === 'locked' ? (
            <Button variant="default" disabled data-testid={`action-${tier}`}>
              {t('action.locked')}
            </Button>
          ) : (
            <Button
              component={Link}
              to={TIER_PATH[tier]}
              variant={action === 'view' ? 'default' : 'filled'}
              rightSection={<ChevronRightIcon size={16} />}
              data-testid={`action-${tier}`}
              data-action={action}
            >
              {t(`action.${action}`)}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

function Summary({ data }: { data: VerificationData }) {
  const { t } = useTranslation(['kyc', 'verification']);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Group gap="md" wrap="nowrap">
        <ThemeIcon size={48} radius="xl" variant="light" color={data.level > 0 ? 'teal' : 'gray'}>
          <IdCardIcon size={26} />
        </ThemeIcon>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {t('level.label')}
          </Text>
          <Text fw={700} size="lg" data-testid="verification-level">
            {t(`level.${LEVEL[data.level]}`)}
            {data.address.state === 'approved' ? ` · ${t('tierShort.address')} ✓` : ''}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}

/** /sfyz: the verification centre — each tier's state, what it unlocks, and the way to start or continue. */
export function CentrePage() {
  const { t } = useTranslation(['kyc', 'verification']);
  const verification = useVerification();
  const data = verification.data;
  return (
    <VerificationPage title={t('title')} intro={t('intro')} testId="verification-centre" back={false}>
      {!data ? (
        <Loading error={verification.error} onRetry={() => void verification.refetch()} />
      ) : (
        <>
          {data.real === 1 ? <Summary data={data} /> : <DemoPrompt />}
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
            {VERIFICATION_TIERS.map((tier) => (
              <TierCard key={tier} view={data[tier]} real={data.real === 1} />
            ))}
          </SimpleGrid>
          <Group gap="sm">
            <Button component={Link} to="/authenticationrj" variant="subtle" data-testid="link-deposit-needs">
              {t('requirement.deposit.title')}
            </Button>
            <Button
              component={Link}
              to="/authenticationcj"
              variant="subtle"
              data-testid="link-withdraw-needs"
            >
              {t('requirement.withdraw.title')}
            </Button>
          </Group>
        </>
      )}
    </VerificationPage>
  );
}
