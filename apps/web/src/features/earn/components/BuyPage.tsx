import type { EarnProductData, ProfitInfoData } from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Divider,
  Grid,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { useBuyProfit, useProfitInfo } from '../api.ts';
import { amountProblem, ledgerScale, maturityAmount, maxAmount, rewardExample } from '../logic.ts';
import { LoginPrompt } from './ProductsPage.tsx';
import {
  Fact,
  KIND_ROUTES,
  Line,
  Money,
  ProductStateBadge,
  Rate,
  RefusalNote,
  useEarnWords,
  WIDE,
} from './parts.tsx';
import { RuleList } from './RuleList.tsx';

/** Whether the customer may buy, shown before the form: the refusing rule named, with the way to fix it. */
function EligibilityCard({ info }: { info: ProfitInfoData }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const token = useToken();
  const { product, eligibility } = info;
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      data-testid="earn-eligibility"
      data-eligible={eligibility?.eligible ? '1' : '0'}
    >
      <Stack gap="xs">
        <Title order={2} fz="lg">
          {t('eligibility.title')}
        </Title>
        {product.state !== 'active' ? (
          <Alert color="gray" variant="light" p="sm" data-testid="earn-not-on-sale">
            {t('eligibility.notOnSale', { state: words.state(product.state) })}
          </Alert>
        ) : null}
        {token === null || eligibility === null ? (
          <LoginPrompt text={t('eligibility.login')} />
        ) : eligibility.eligible ? (
          <Text size="sm" data-testid="earn-eligible">
            {t('eligibility.eligible', {
              amount: words.money(eligibility.may_buy, product.currency),
              available: words.money(eligibility.available, product.currency),
              currency: product.currency,
            })}
          </Text>
        ) : eligibility.refusal ? (
          <Stack gap={6}>
            <Text size="sm">{t('eligibility.refused')}</Text>
            <RefusalNote code={eligibility.refusal.code} params={eligibility.refusal.params} />
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The live example of the typed amount: a day's and the term's reward, and what comes back at maturity. */
function LiveExample({ product, amount }: { product: EarnProductData; amount: string }) {
  const { t } = useTranslation('earn');
  const example = rewardExample({
    amount,
    annualRate: product.annual_rate,
    termDays: product.term_days,
    currency: product.currency,
  });
  const back = example ? maturityAmount(amount, example.total, product.currency) : null;
  return (
    <Stack gap={6} data-testid="earn-example">
      <Text size="sm" fw={600}>
        {t('buy.exampleTitle')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        <Fact label={t('buy.daily')}>
          <Money value={example?.daily ?? null} currency={product.currency} testId="example-daily" />
        </Fact>
        <Fact label={t('buy.total')}>
          <Money value={example?.total ?? null} currency={product.currency} testId="example-total" />
        </Fact>
        <Fact label={t('buy.atMaturity')}>
          <Money value={back} currency={product.currency} testId="example-maturity" />
        </Fact>
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('buy.exampleNote')}
      </Text>
    </Stack>
  );
}

type FormState = {
  amount: string;
  setAmount: (value: string) => void;
  accepted: boolean;
  setAccepted: (value: boolean) => void;
  problem: ReturnType<typeof amountProblem>;
  ready: boolean;
};

/** The amount field with Max and the rule it breaks, named while typing. */
function AmountField({ info, form }: { info: ProfitInfoData; form: FormState }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const { product, eligibility } = info;
  const cur = product.currency;
  const mayBuy = eligibility?.may_buy ?? null;
  const showProblem = form.problem !== null && form.problem !== 'empty';
  return (
    <TextInput
      label={t('buy.amount')}
      description={t('buy.hintRange', {
        min: words.money(product.min_amount, cur),
        max: words.money(product.max_amount, cur),
        currency: cur,
      })}
      value={form.amount}
      onChange={(e) => form.setAmount(e.currentTarget.value.trim())}
      inputMode="decimal"
      maxLength={40}
      error={
        showProblem && form.problem
          ? t(`buy.problem.${form.problem}`, {
              min: words.money(product.min_amount, cur),
              max: words.money(product.max_amount, cur),
              mayBuy: mayBuy ? words.money(mayBuy, cur) : '',
              scale: ledgerScale(cur),
              currency: cur,
            })
          : undefined
      }
      rightSectionWidth={64}
      rightSection={
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => form.setAmount(maxAmount(mayBuy, product.max_amount))}
          data-testid="earn-amount-max"
        >
          {t('buy.max')}
        </Button>
      }
      data-testid="earn-amount"
    />
  );
}

/** The buy form: amount, live example, terms, and the buy button (held at the bottom on phones). */
function BuyForm({
  info,
  form,
  onBuy,
  wide,
}: {
  info: ProfitInfoData;
  form: FormState;
  onBuy: () => void;
  wide: boolean;
}) {
  const { t } = useTranslation('earn');
  const button = (
    <Button size="md" fullWidth disabled={!form.ready} onClick={onBuy} data-testid="earn-buy">
      {t('buy.submit')}
    </Button>
  );
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="earn-buy-form">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('buy.title')}
        </Title>
        <AmountField info={info} form={form} />
        <LiveExample product={info.product} amount={form.amount} />
        <Divider />
        <Checkbox
          label={t('buy.terms')}
          checked={form.accepted}
          onChange={(e) => form.setAccepted(e.currentTarget.checked)}
          data-testid="earn-terms"
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
            data-testid="earn-phone-actions"
          >
            {button}
          </Paper>
        )}
      </Stack>
    </Paper>
  );
}

/** The confirm step: the product, the amount, the fixed rate, the reward, the early-redemption rule. */
function BuyConfirm({
  info,
  amount,
  opened,
  onClose,
  onConfirm,
  pending,
}: {
  info: ProfitInfoData;
  amount: string;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  const p = info.product;
  const example = rewardExample({
    amount,
    annualRate: p.annual_rate,
    termDays: p.term_days,
    currency: p.currency,
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('buy.confirmTitle')}
      centered
      data-testid="earn-confirm"
    >
      <Stack gap="xs" data-testid="earn-confirm-body">
        <Line label={t('buy.confirmProduct')}>
          <Text size="sm" fw={600}>
            {p.name}
          </Text>
        </Line>
        <Line label={t('buy.confirmAmount')}>
          <Money value={amount} currency={p.currency} testId="confirm-amount" />
        </Line>
        <Line label={t('product.term')}>
          <Text size="sm" fw={600}>
            {words.days(p.term_days)}
          </Text>
        </Line>
        <Line label={t('buy.confirmRate')}>
          <Text size="sm" fw={600}>
            {t('product.perYear', { rate: words.rate(p.annual_rate) })} ·{' '}
            {t('product.perDay', { rate: words.rate(p.daily_rate) })}
          </Text>
        </Line>
        <Line label={t('buy.daily')}>
          <Money value={example?.daily ?? null} currency={p.currency} />
        </Line>
        <Line label={t('buy.total')}>
          <Money value={example?.total ?? null} currency={p.currency} testId="confirm-total" />
        </Line>
        <Line label={t('buy.confirmRedeem')}>
          <Text size="sm" fw={600}>
            {words.ruleName(p.redeem_rule, p.penalty_rate)}
          </Text>
        </Line>
        <Group grow mt="sm">
          <Button variant="default" onClick={onClose} data-testid="earn-confirm-back">
            {t('buy.confirmBack')}
          </Button>
          <Button loading={pending} onClick={onConfirm} data-testid="earn-confirm-submit">
            {t('buy.confirmSubmit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Header: name, state, and the key figures of the product. */
function ProductHeader({ product }: { product: EarnProductData }) {
  const { t } = useTranslation('earn');
  const words = useEarnWords();
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      data-testid="earn-product-header"
      data-product={product.product_id}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={1} fz={{ base: 20, sm: 26 }}>
            {product.name}
          </Title>
          <ProductStateBadge state={product.state} />
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md">
          <Fact label={t('product.currency')}>{product.currency}</Fact>
          <Fact label={t('product.term')}>{words.days(product.term_days)}</Fact>
          <Fact label={t('product.annualRate')}>
            <Rate value={product.annual_rate} testId="product-annual-rate" />
          </Fact>
          <Fact label={t('product.dailyRate')}>
            <Rate value={product.daily_rate} testId="product-daily-rate" />
          </Fact>
          <Fact label={t('product.capacityLeft')}>
            <Money value={product.capacity_left} currency={product.currency} testId="product-capacity-left" />
          </Fact>
          <Fact label={t('product.reserved')}>
            <Money value={product.reserved} currency={product.currency} testId="product-reserved" />
          </Fact>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/** The purchase: form state, confirm, the call, the refusal in place, then my orders. */
function useBuyFlow(info: ProfitInfoData | undefined) {
  const { t } = useTranslation('earn');
  const navigate = useNavigate();
  const buy = useBuyProfit();
  const [amount, setAmount] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const product = info?.product;
  const eligibility = info?.eligibility ?? null;
  const problem = product
    ? amountProblem({
        amount,
        currency: product.currency,
        min: product.min_amount,
        max: product.max_amount,
        mayBuy: eligibility?.may_buy ?? null,
      })
    : 'empty';
  const ready = problem === null && accepted && product?.state === 'active' && eligibility?.eligible === true;
  const submit = () => {
    if (!product || !ready) return;
    setRefusal(null);
    buy.mutate(
      { product_id: product.product_id, amount },
      {
        onSuccess: (order) => {
          setConfirming(false);
          notifications.show({
            color: 'teal',
            message: t('buy.bought', {
              amount: order.amount,
              currency: order.currency,
              days: order.term_days,
            }),
          });
          navigate(KIND_ROUTES[product.kind].orders);
        },
        onError: (error) => {
          setConfirming(false);
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };
  const form: FormState = { amount, setAmount, accepted, setAccepted, problem, ready };
  return { form, confirming, setConfirming, refusal, setRefusal, submit, pending: buy.isPending };
}

/** A purchase the server refused: its reason in place, with the way to fix it. */
function BuyRefusal({ refusal }: { refusal: ApiError | null }) {
  if (!refusal) return null;
  return (
    <RefusalNote
      code={refusal.reason ?? 'REFUSED'}
      params={refusal.params}
      message={refusal.message}
      testId="earn-buy-refusal"
    />
  );
}

/** /profit_buy?product_id=…: the rule page, eligibility, the form with the live example, confirm. */
export function BuyPage() {
  const { t } = useTranslation('earn');
  const [params] = useSearchParams();
  const productId = params.get('product_id');
  const wide = useMediaQuery(WIDE, window.matchMedia(WIDE).matches, { getInitialValueInEffect: false });
  const info = useProfitInfo(productId);
  const flow = useBuyFlow(info.data);
  const kind = info.data?.product.kind ?? 'custody';
  return (
    <Stack gap="md" py={{ base: 'md', sm: 'xl' }} data-testid="earn-buy-page">
      <Anchor component={Link} to={KIND_ROUTES[kind].index} size="sm" data-testid="earn-buy-back">
        {t('buy.back')}
      </Anchor>
      {!productId || info.isError ? (
        <Alert color="orange" variant="light" data-testid="earn-buy-not-found">
          {t('buy.notFound')}
        </Alert>
      ) : !info.data ? (
        <Loader size="sm" />
      ) : (
        <>
          <ProductHeader product={info.data.product} />
          {wide ? (
            <Grid gap="md" align="flex-start">
              <Grid.Col span={7}>
                <RuleList info={info.data} />
              </Grid.Col>
              <Grid.Col span={5}>
                <Stack gap="md">
                  <EligibilityCard info={info.data} />
                  <BuyRefusal refusal={flow.refusal} />
                  <BuyForm info={info.data} form={flow.form} wide onBuy={() => flow.setConfirming(true)} />
                </Stack>
              </Grid.Col>
            </Grid>
          ) : (
            <>
              <EligibilityCard info={info.data} />
              <RuleList info={info.data} />
              <BuyRefusal refusal={flow.refusal} />
              <BuyForm
                info={info.data}
                form={flow.form}
                wide={false}
                onBuy={() => flow.setConfirming(true)}
              />
            </>
          )}
          <BuyConfirm
            info={info.data}
            amount={flow.form.amount}
            opened={flow.confirming}
            onClose={() => flow.setConfirming(false)}
            onConfirm={flow.submit}
            pending={flow.pending}
          />
        </>
      )}
    </Stack>
  );
}
