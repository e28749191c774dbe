import { compareDecimal } from '@bourse/money';
import type { SubscriptionInfoData, SubscriptionQuoteData } from '@bourse/protocol';
import {
  Alert,
  Button,
  Checkbox,
  Divider,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useNow } from '../../../lib/serverClock.ts';
import { useToken } from '../../../lib/session.ts';
import { useSubscribe, useSubscriptionQuote } from '../api.ts';
import {
  LAUNCHPAD_ROUTES,
  lotsOf,
  maxAsk,
  maxQuantity,
  type QuantityProblem,
  quantityProblem,
  type SubscribeBlocker,
  subscribeBlocker,
} from '../logic.ts';
import { Amount, Coins, Line, RefusalNote, useLaunchpadWords } from './parts.tsx';

/** The form's state, the live quote and the call: confirm, subscribe, the refusal in place, then my records. */
function useSubscribeFlow(info: SubscriptionInfoData) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const navigate = useNavigate();
  const token = useToken();
  const call = useSubscribe();
  const { project, eligibility } = info;
  const [quantity, setQuantity] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const now = useNow(project.state === 'announced' || project.state === 'open', 5_000);
  const blocker = subscribeBlocker({ project, eligibility, signedIn: token !== null, now });
  const problem = quantityProblem(quantity, project, eligibility?.may_subscribe ?? null);
  const [settled] = useDebouncedValue(quantity, 250);
  const quotable = lotsOf(settled, project.lot_size, project.coin_scale) !== null ? settled : null;
  const quote = useSubscriptionQuote(project.project_id, quotable);
  // The figures shown are the quote of exactly the quantity in the field (never the previous one's).
  const current =
    quote.data && !quote.isPlaceholderData && quotable !== null && settled === quantity ? quote.data : null;
  const ready = blocker === null && problem === null && accepted && current !== null;
  const submit = () => {
    if (!ready) return;
    setRefusal(null);
    call.mutate(
      { project_id: project.project_id, quantity },
      {
        onSuccess: (record) => {
          setConfirming(false);
          notifications.show({
            color: 'teal',
            message: t('subscribe.done', {
              quantity: words.coins(record.quantity, project.lot_size),
              coin: record.coin,
              frozen: words.usdt(record.frozen),
            }),
          });
          navigate(LAUNCHPAD_ROUTES.records);
        },
        onError: (error) => {
          setConfirming(false);
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };
  return {
    quantity,
    setQuantity,
    accepted,
    setAccepted,
    confirming,
    setConfirming,
    refusal,
    blocker,
    problem,
    quote,
    current,
    ready,
    submit,
    pending: call.isPending,
  };
}

type Flow = ReturnType<typeof useSubscribeFlow>;

/** Why the form is off (other than a refusal, which the eligibility card names, or a login). */
function BlockerNote({ blocker, info }: { blocker: SubscribeBlocker | null; info: SubscriptionInfoData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  if (blocker === null || blocker === 'refused' || blocker === 'login') return null;
  const text =
    blocker === 'notStarted'
      ? t('subscribe.notStarted', { date: words.time(info.project.opens_at) })
      : blocker === 'soldOut'
        ? t('subscribe.soldOut')
        : t('subscribe.closed');
  return (
    <Alert color="gray" variant="light" p="sm" data-testid="launchpad-blocked" data-blocker={blocker}>
      {text}
    </Alert>
  );
}

function problemText(
  problem: QuantityProblem,
  info: SubscriptionInfoData,
  words: ReturnType<typeof useLaunchpadWords>,
  t: ReturnType<typeof useTranslation<'launchpad'>>['t'],
): string {
  const p = info.project;
  const c = (value: string) => words.coins(value, p.lot_size);
  return t(`subscribe.problem.${problem}`, {
    scale: p.coin_scale,
    lot: c(p.lot_size),
    min: c(p.min_subscription),
    cap: c(maxAsk(p)),
    may: c(info.eligibility?.may_subscribe ?? '0'),
    coin: p.coin,
  });
}

/** The quantity, in lots of the project's lot size, with Max and the broken rule named while typing. */
function QuantityField({ info, flow }: { info: SubscriptionInfoData; flow: Flow }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const p = info.project;
  const c = (value: string) => words.coins(value, p.lot_size);
  const max = maxQuantity(p, info.eligibility?.may_subscribe ?? null);
  const showProblem = flow.problem !== null && flow.problem !== 'empty';
  return (
    <TextInput
      label={t('subscribe.quantity', { coin: p.coin })}
      description={t('subscribe.hint', {
        lot: c(p.lot_size),
        min: c(p.min_subscription),
        cap: c(maxAsk(p)),
        coin: p.coin,
      })}
      value={flow.quantity}
      onChange={(e) => flow.setQuantity(e.currentTarget.value.trim())}
      inputMode="decimal"
      maxLength={40}
      disabled={flow.blocker !== null}
      error={showProblem && flow.problem ? problemText(flow.problem, info, words, t) : undefined}
      errorProps={{ 'data-testid': 'launchpad-quantity-error', 'data-problem': flow.problem ?? '' }}
      rightSectionWidth={64}
      rightSection={
        <Button
          size="compact-xs"
          variant="light"
          disabled={max === null || flow.blocker !== null}
          onClick={() => max && flow.setQuantity(max)}
          data-testid="launchpad-quantity-max"
        >
          {t('subscribe.max')}
        </Button>
      }
      data-testid="launchpad-quantity"
    />
  );
}

/** The cost preview from `getSubscriptionQuote`: cost, margin, fee, what is frozen, and what is available. */
function CostPreview({ info, flow }: { info: SubscriptionInfoData; flow: Flow }) {
  const { t } = useTranslation('launchpad');
  const q: SubscriptionQuoteData | null = flow.current;
  const available = info.eligibility?.available ?? null;
  const short = q !== null && available !== null && compareDecimal(q.frozen, available) > 0;
  const failure =
    flow.quote.error instanceof ApiError && flow.quote.error.kind === 'refused' ? flow.quote.error : null;
  return (
    <Stack gap={6} data-testid="launchpad-preview" data-ready={q ? '1' : '0'}>
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          {t('subscribe.previewTitle')}
        </Text>
        {flow.quote.isFetching ? <Loader size="xs" /> : null}
      </Group>
      <Line label={t('subscribe.lots')}>
        <Text size="sm" fw={600} data-testid="preview-lots">
          {q ? q.lots : '--'}
        </Text>
      </Line>
      <Line label={t('subscribe.cost')}>
        <Amount value={q?.cost} currency="USDT" testId="preview-cost" />
      </Line>
      <Line label={t('subscribe.margin')}>
        <Amount value={q?.margin} currency="USDT" testId="preview-margin" />
      </Line>
      <Line label={t('subscribe.fee')}>
        <Amount value={q?.fee} currency="USDT" testId="preview-fee" />
      </Line>
      <Line label={t('subscribe.frozen')}>
        <Amount value={q?.frozen} currency="USDT" testId="preview-frozen" fw={700} />
      </Line>
      <Line label={t('subscribe.available')}>
        <Amount value={available} currency="USDT" testId="preview-available" />
      </Line>
      {short ? (
        <Alert color="orange" variant="light" p="xs" data-testid="preview-short">
          {t('subscribe.short')}
        </Alert>
      ) : null}
      {failure ? (
        <RefusalNote
          code={failure.reason ?? 'REFUSED'}
          params={failure.params}
          message={failure.message}
          testId="preview-refusal"
        />
      ) : null}
      <Text size="xs" c="dimmed">
        {t('subscribe.previewNote')}
      </Text>
    </Stack>
  );
}

/** The confirm step: what is subscribed and the amount frozen now. */
function SubscribeConfirm({ info, flow }: { info: SubscriptionInfoData; flow: Flow }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const p = info.project;
  const q = flow.current;
  return (
    <Modal
      opened={flow.confirming && q !== null}
      onClose={() => flow.setConfirming(false)}
      title={t('subscribe.confirmTitle')}
      centered
      data-testid="launchpad-confirm"
    >
      {q ? (
        <Stack gap="xs" data-testid="launchpad-confirm-body">
          <Line label={t('subscribe.confirmProject')}>
            <Text size="sm" fw={600}>
              {p.name}
            </Text>
          </Line>
          <Line label={t('subscribe.quantityShort')}>
            <Coins value={q.quantity} project={p} testId="confirm-quantity" />
          </Line>
          <Line label={t('project.price')}>
            <Amount value={p.price} currency="USDT" />
          </Line>
          <Line label={t('subscribe.cost')}>
            <Amount value={q.cost} currency="USDT" />
          </Line>
          <Line label={t('subscribe.fee')}>
            <Amount value={q.fee} currency="USDT" />
          </Line>
          <Line label={t('subscribe.frozen')}>
            <Amount value={q.frozen} currency="USDT" fw={700} testId="confirm-frozen" />
          </Line>
          <Alert color="blue" variant="light" p="sm" data-testid="confirm-statement">
            {t('subscribe.confirmStatement', { frozen: words.usdt(q.frozen), coin: p.coin })}
          </Alert>
          <Group grow mt="sm">
            <Button
              variant="default"
              onClick={() => flow.setConfirming(false)}
              data-testid="launchpad-confirm-back"
            >
              {t('subscribe.confirmBack')}
            </Button>
            <Button loading={flow.pending} onClick={flow.submit} data-testid="launchpad-confirm-submit">
              {t('subscribe.confirmSubmit')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

/** The subscribe form: quantity, live preview, the rules accepted, and the button (held at the bottom on phones). */
export function SubscribePanel({ info, wide }: { info: SubscriptionInfoData; wide: boolean }) {
  const { t } = useTranslation('launchpad');
  const flow = useSubscribeFlow(info);
  const button = (
    <Button
      size="md"
      fullWidth
      disabled={!flow.ready}
      onClick={() => flow.setConfirming(true)}
      data-testid="launchpad-subscribe"
    >
      {t('subscribe.submit')}
    </Button>
  );
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="launchpad-subscribe-form">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('subscribe.title')}
        </Title>
        <BlockerNote blocker={flow.blocker} info={info} />
        {flow.refusal ? (
          <RefusalNote
            code={flow.refusal.reason ?? 'REFUSED'}
            params={flow.refusal.params}
            message={flow.refusal.message}
            testId="launchpad-subscribe-refusal"
          />
        ) : null}
        <QuantityField info={info} flow={flow} />
        <CostPreview info={info} flow={flow} />
        <Divider />
        <Checkbox
          label={t('subscribe.terms')}
          checked={flow.accepted}
          disabled={flow.blocker !== null}
          onChange={(e) => flow.setAccepted(e.currentTarget.checked)}
          data-testid="launchpad-terms"
        />
        {wide ? (
          button
        ) : (
          <Paper
            p="xs"
            radius="md"
            shadow="md"
            withBorder
            style={{
              position: 'sticky',
              bottom: 'calc(var(--app-shell-footer-offset, 0px) + 8px)',
              zIndex: 5,
            }}
            data-testid="launchpad-phone-actions"
          >
            {button}
          </Paper>
        )}
      </Stack>
      <SubscribeConfirm info={info} flow={flow} />
    </Paper>
  );
}
