import { CopyField } from '@bourse/ui';
import { Container, Grid, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QrCode } from '../../../components/QrCode.tsx';
import { INVITE_PAGE_SIZE, useIncome, useInvitees, usePromotion } from '../api.ts';
import { pagesOf } from '../logic.ts';
import {
  ErrorNote,
  IncomeCards,
  IncomeTable,
  InviteeCards,
  InviteeTable,
  Levels,
  NotOffered,
  Pager,
  Rules,
} from './parts.tsx';

/** Tables from this width; cards below (phones). */
const WIDE = '(min-width: 62em)';

function ShareCard({ code, link }: { code: string; link: string }) {
  const { t } = useTranslation('invite');
  return (
    <Paper withBorder radius="lg" p="md" data-testid="invite-share">
      <Grid gap="md" align="center">
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <Stack gap="md">
            <CopyField
              label={t('code')}
              value={code}
              copyLabel={t('copy', { what: t('code') })}
              copiedLabel={t('copied')}
              testId="invite-code"
              mono
            />
            <CopyField
              label={t('link')}
              value={link}
              copyLabel={t('copy', { what: t('link') })}
              copiedLabel={t('copied')}
              testId="invite-link"
              mono
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }} style={{ display: 'flex', justifyContent: 'center' }}>
          <QrCode
            text={link}
            label={t('qrAlt', { url: link })}
            failedText={t('qrFailed')}
            size={168}
            testId="invite-qr"
          />
        </Grid.Col>
      </Grid>
    </Paper>
  );
}

function InviteesSection({ wide }: { wide: boolean }) {
  const { t } = useTranslation('invite');
  const [page, setPage] = useState(1);
  const list = useInvitees(page);
  return (
    <Paper withBorder radius="lg" p="md" data-testid="invite-invitees">
      <Stack gap="sm">
        <Title order={4}>{t('invitees.title')}</Title>
        {list.isPending ? (
          <Loader size="sm" />
        ) : list.isError ? (
          <ErrorNote error={list.error} retry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="invite-invitees-empty">
            {t('invitees.empty')}
          </Text>
        ) : wide ? (
          <InviteeTable items={list.data.items} />
        ) : (
          <InviteeCards items={list.data.items} />
        )}
        <Pager
          page={page}
          pages={pagesOf(list.data?.total ?? 0, INVITE_PAGE_SIZE)}
          onPage={setPage}
          testId="invite-invitees-pager"
        />
      </Stack>
    </Paper>
  );
}

function IncomeSection({ wide }: { wide: boolean }) {
  const { t } = useTranslation('invite');
  const [page, setPage] = useState(1);
  const list = useIncome(page);
  return (
    <Paper withBorder radius="lg" p="md" data-testid="invite-income">
      <Stack gap="sm">
        <Title order={4}>{t('income.title')}</Title>
        {list.isPending ? (
          <Loader size="sm" />
        ) : list.isError ? (
          <ErrorNote error={list.error} retry={() => void list.refetch()} />
        ) : list.data.items.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="invite-income-empty">
            {t('income.empty')}
          </Text>
        ) : wide ? (
          <IncomeTable items={list.data.items} />
        ) : (
          <IncomeCards items={list.data.items} />
        )}
        <Pager
          page={page}
          pages={pagesOf(list.data?.total ?? 0, INVITE_PAGE_SIZE)}
          onPage={setPage}
          testId="invite-income-pager"
        />
      </Stack>
    </Paper>
  );
}

/**
 * `/invite`: my code and link (copy, QR), per level my friends and income, the rules (a share of
 * fees actually paid, the depth, what is excluded), my invitees and my income lines.
 */
export function InvitePage() {
  const { t } = useTranslation('invite');
  const wide = useMediaQuery(WIDE, true, { getInitialValueInEffect: false });
  const promotion = usePromotion();
  return (
    <Container size="xl" py="md" data-testid="invite-page">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2}>{t('title')}</Title>
          <Text c="dimmed" size="sm">
            {t('lead')}
          </Text>
        </Stack>
        {promotion.isPending ? (
          <Loader />
        ) : promotion.isError ? (
          <ErrorNote error={promotion.error} retry={() => void promotion.refetch()} />
        ) : (
          <>
            {promotion.data.offered ? null : <NotOffered />}
            <Grid gap="md">
              <Grid.Col span={{ base: 12, lg: 7 }}>
                <Stack gap="md">
                  <ShareCard code={promotion.data.invitation_code} link={promotion.data.invite_link} />
                  <Levels data={promotion.data} />
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 5 }}>
                <Rules data={promotion.data} />
              </Grid.Col>
            </Grid>
          </>
        )}
        <IncomeSection wide={wide} />
        <InviteesSection wide={wide} />
      </Stack>
    </Container>
  );
}
