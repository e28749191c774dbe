import { CREDIT_SCORE_FACTORS, type CreditTableData, LOAN_LIMITS } from '@bourse/protocol';
import {
  Alert,
  Button,
  Card,
  Group,
  List,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, ReasonDialog } from '../../app/ui.tsx';
import { useCloseReview, usePublishTable, useScoreReviews, useScoreTable } from './api.ts';
import { NoPermission, Usdt, useLoanStaff, WRITE_PERMISSION } from './parts.tsx';
import { formOfTable, type ScoreFormProblem, type ScoreTableForm, scoreTableBody } from './scoreTableForm.ts';

function TableView({ table }: { table: CreditTableData }) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  return (
    <Stack gap="xs" data-testid="loans-score-table" data-version={table.version}>
      <Text size="sm">
        {t('score.version', {
          version: table.version,
          base: table.base_points,
          date: formatTime(table.published_at, lang),
        })}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 4 }}>
        {CREDIT_SCORE_FACTORS.map((f) => (
          <Card key={f} withBorder p="xs" data-factor={f}>
            <Text size="sm" fw={600}>
              {t(`factor.${f}`)}
            </Text>
            {(table.bands[f] ?? []).map((b) => (
              <Text key={b.from} size="xs">
                {t('score.band', { from: b.from, points: b.points })}
              </Text>
            ))}
          </Card>
        ))}
        <Card withBorder p="xs" data-testid="loans-score-limits">
          <Text size="sm" fw={600}>
            {t('score.limits')}
          </Text>
          {table.limits.map((l) => (
            <Text key={l.score_min} size="xs">
              {t('score.limitFrom', { score: l.score_min })} <Usdt value={l.limit} suffix />
            </Text>
          ))}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

function problemText(t: ReturnType<typeof useTranslation<'adminLoans'>>['t'], p: ScoreFormProblem): string {
  const field = CREDIT_SCORE_FACTORS.includes(p.field as never)
    ? t(`factor.${p.field as 'deposits'}`)
    : t(`score.field.${p.field as 'limits'}`);
  // `_zero` would read as an i18next plural suffix: the rule has its own key.
  const rule = p.rule === 'first_from_not_zero' ? 'first_band_at_0' : p.rule;
  return t(`scoreRule.${rule as 'unreadable'}`, { field, line: p.line ?? '—' });
}

function PublishModal({
  table,
  onClose,
  onDone,
}: {
  table: CreditTableData | null;
  onClose: () => void;
  onDone: (v: number) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const publish = usePublishTable();
  const [form, setForm] = useState<ScoreTableForm | null>(null);
  const [problems, setProblems] = useState<ScoreFormProblem[]>([]);
  const current = form ?? (table ? formOfTable(table) : null);
  if (!table || !current) return null;
  const close = () => {
    setForm(null);
    setProblems([]);
    publish.reset();
    onClose();
  };
  return (
    <Modal
      opened
      onClose={close}
      title={t('score.publishTitle', { version: table.version + 1 })}
      size="xl"
      centered
    >
      <Stack data-testid="loans-score-form">
        <Text size="sm">{t('score.publishText')}</Text>
        <TextInput
          label={t('score.field.base_points')}
          value={current.base_points}
          onChange={(e) => setForm({ ...current, base_points: e.currentTarget.value })}
          data-testid="loans-score-base"
        />
        <SimpleGrid cols={{ base: 1, md: 4 }}>
          {CREDIT_SCORE_FACTORS.map((f) => (
            <Textarea
              key={f}
              label={t(`factor.${f}`)}
              description={t('score.bandHint')}
              value={current.bands[f]}
              autosize
              minRows={3}
              onChange={(e) =>
                setForm({ ...current, bands: { ...current.bands, [f]: e.currentTarget.value } })
              }
              data-testid={`loans-score-bands-${f}`}
            />
          ))}
          <Textarea
            label={t('score.limits')}
            description={t('score.limitHint')}
            value={current.limits}
            autosize
            minRows={3}
            onChange={(e) => setForm({ ...current, limits: e.currentTarget.value })}
            data-testid="loans-score-limits-input"
          />
        </SimpleGrid>
        <Textarea
          label={t('common.reason')}
          value={current.reason}
          onChange={(e) => setForm({ ...current, reason: e.currentTarget.value })}
          data-testid="loans-score-reason"
        />
        {problems.length > 0 ? (
          <Alert color="red" variant="light" p="xs" data-testid="loans-score-problems">
            <List size="sm">
              {problems.map((p) => (
                <List.Item key={`${p.field}-${p.rule}-${p.line}`}>{problemText(t, p)}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <ErrorNote error={publish.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={publish.isPending}
            data-testid="loans-score-publish"
            onClick={async () => {
              const { body, problems: found } = scoreTableBody(current);
              setProblems(found);
              if (!body) return;
              try {
                const published = await publish.mutateAsync(body);
                close();
                onDone(published.version);
              } catch {
                // shown by ErrorNote
              }
            }}
          >
            {t('score.publish')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The credit score: the published table in force (version, bands, limits), a new version published
 * whole (never edited; audited), and customers' requests for a human review, closed with what was found.
 */
export default function ScoreScreen() {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  const table = useScoreTable();
  const [state, setState] = useState<'' | 'open' | 'closed'>('open');
  const reviews = useScoreReviews(state);
  const closeReview = useCloseReview();
  const { canWrite } = useLoanStaff();
  const [editing, setEditing] = useState(false);
  const [closing, setClosing] = useState<{ id: string; uid: string; score: number } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const items = reviews.data?.items ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('score.title')}</Title>
        {canWrite && table.data ? (
          <Button size="xs" onClick={() => setEditing(true)} data-testid="loans-score-new">
            {t('score.newVersion')}
          </Button>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('score.intro')}
      </Text>
      {!canWrite ? <NoPermission permission={WRITE_PERMISSION} /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="loans-note">
        {note}
      </DoneNote>
      <ErrorNote error={table.error} />
      {table.data ? <TableView table={table.data} /> : null}
      <Title order={4}>{t('reviews.title')}</Title>
      <SegmentedControl
        w="fit-content"
        value={state}
        onChange={(v) => setState(v as typeof state)}
        data={[
          { value: 'open', label: t('reviews.open') },
          { value: 'closed', label: t('reviews.closed') },
          { value: '', label: t('common.all') },
        ]}
      />
      <ErrorNote error={reviews.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table fz="sm" striped data-testid="loans-reviews">
            <Table.Thead>
              <Table.Tr>
                {(['uid', 'score', 'note', 'created', 'closedAt', 'actions'] as const).map((h) => (
                  <Table.Th key={h}>{t(`reviews.${h}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <Table.Tr key={r.review_id} data-testid="loans-review" data-review={r.review_id}>
                  <Table.Td>{r.uid}</Table.Td>
                  <Table.Td>{t('reviews.scoreText', { score: r.score, version: r.version })}</Table.Td>
                  <Table.Td>{r.note || '—'}</Table.Td>
                  <Table.Td>{formatTime(r.created_at, lang)}</Table.Td>
                  <Table.Td>
                    {r.closed_at
                      ? `${r.closed_by ?? ''} · ${formatTime(r.closed_at, lang)} · ${r.closing_note ?? ''}`
                      : '—'}
                  </Table.Td>
                  <Table.Td>
                    {canWrite && r.state === 'open' ? (
                      <Button
                        size="compact-xs"
                        variant="light"
                        onClick={() => setClosing({ id: r.review_id, uid: r.uid, score: r.score })}
                        data-testid="loans-review-close"
                      >
                        {t('reviews.close')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {editing ? (
        <PublishModal
          table={table.data ?? null}
          onClose={() => setEditing(false)}
          onDone={(v) => setNote(t('score.published', { version: v }))}
        />
      ) : null}
      <ReasonDialog
        opened={closing !== null}
        title={closing ? t('reviews.closeTitle', { uid: closing.uid }) : ''}
        text={closing ? t('reviews.closeText', { uid: closing.uid, score: closing.score }) : undefined}
        confirmLabel={t('reviews.close')}
        onClose={() => setClosing(null)}
        onSubmit={async (reason) => {
          if (!closing) return;
          if (reason.trim().length < LOAN_LIMITS.reasonMin)
            throw new Error(t('common.reasonShort', { min: LOAN_LIMITS.reasonMin }));
          await closeReview.mutateAsync({ id: closing.id, reason: reason.trim() });
          setNote(t('reviews.closedDone', { uid: closing.uid }));
        }}
      />
    </Stack>
  );
}
