import { type FeatureRequirementView, VERIFICATION_TIERS, type VerificationData } from '@bourse/protocol';
import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useVerification } from '../api.ts';
import { nextStep, TIER_PATH } from '../logic.ts';
import { DemoPrompt, Loading, StateBadge, TierLink, VerificationPage } from './parts.tsx';

function MetBadge({ met, testId }: { met: boolean; testId?: string }) {
  const { t } = useTranslation('kyc');
  return (
    <Badge color={met ? 'teal' : 'orange'} variant="light" data-testid={testId} data-met={met ? '1' : '0'}>
      {met ? t('requirement.met') : t('requirement.notMet')}
    </Badge>
  );
}

function NextStep({ requirement, data }: { requirement: FeatureRequirementView; data: VerificationData }) {
  const { t } = useTranslation(['kyc', 'verification']);
  const step = nextStep(requirement, data);
  switch (step.kind) {
    case 'none':
      return <Text data-testid="next-step">{t('requirement.none')}</Text>;
    case 'met':
      return <Text data-testid="next-step">{t('requirement.met')}</Text>;
    case 'wait':
      return (
        <Text data-testid="next-step">
          {t('requirement.waiting', { tier: t(`verification:tier.${step.tier}`) })}
        </Text>
      );
    case 'go':
      return (
        <Group data-testid="next-step">
          <TierLink
            tier={step.tier}
            to={TIER_PATH[step.tier]}
            label={t('requirement.goTo', { tier: t(`verification:tier.${step.tier}`) })}
          />
        </Group>
      );
  }
}

function Requirement({ feature }: { feature: 'deposit' | 'withdraw' }) {
  const { t } = useTranslation(['kyc', 'verification']);
  const verification = useVerification();
  const data = verification.data;
  return (
    <VerificationPage
      title={t(`requirement.${feature}.title`)}
      intro={t(`requirement.${feature}.intro`)}
      testId={`requirement-${feature}`}
    >
      {!data ? (
        <Loading error={verification.error} onRetry={() => void verification.refetch()} />
      ) : data.real !== 1 ? (
        <DemoPrompt />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
            <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
              <Stack gap="sm">
                <Text size="sm" c="dimmed">
                  {t('requirement.required')}
                </Text>
                <Text fw={700} size="lg" data-testid="required-tier">
                  {t(`verification:requiredTier.${data[feature].tier}`)}
                </Text>
                <MetBadge met={data[feature].met} testId="requirement-met" />
              </Stack>
            </Paper>
            <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
              <Stack gap="sm">
                <Text size="sm" c="dimmed">
                  {t('requirement.yourLevel')}
                </Text>
                {VERIFICATION_TIERS.map((tier) => (
                  <Group key={tier} justify="space-between" wrap="nowrap">
                    <Text size="sm">{t(`verification:tier.${tier}`)}</Text>
                    <StateBadge state={data[tier].state} />
                  </Group>
                ))}
              </Stack>
            </Paper>
            <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
              <Stack gap="sm">
                <Text size="sm" c="dimmed">
                  {t('requirement.nextStep')}
                </Text>
                <NextStep requirement={data[feature]} data={data} />
              </Stack>
            </Paper>
          </SimpleGrid>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
            <Title order={2} size="h4" mb="sm">
              {t('requirement.allFeatures')}
            </Title>
            <Table verticalSpacing="sm" data-testid="features-table">
              <Table.Tbody>
                {data.features.map((f) => (
                  <Table.Tr key={f.feature} data-feature={f.feature}>
                    <Table.Td>
                      <Text size="sm" fw={f.feature === feature ? 700 : 400}>
                        {t(`verification:feature.${f.feature}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {t(`verification:requiredTier.${f.tier}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      <MetBadge met={f.met} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        </>
      )}
    </VerificationPage>
  );
}

/** /authenticationrj: what deposits require and where the customer stands, with the step to take. */
export function DepositRequirementPage() {
  return <Requirement feature="deposit" />;
}

/** /authenticationcj: what withdrawals require and where the customer stands, with the step to take. */
export function WithdrawRequirementPage() {
  return <Requirement feature="withdraw" />;
}
