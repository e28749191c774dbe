import type { SpotMarketData } from '@bourse/protocol';
import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ConversionStep } from '../hooks/useConversion.ts';

/**
 * The parts /exchange and quick buy (/kjmbSelect) share around `useConversion`: the page frame,
 * the quote rows and notes, the refusal, the confirm step and the result panel.
 */

/** While the markets load. */
export function ConversionLoader() {
  return (
    <Stack align="center" py={80}>
      <Loader size="sm" />
    </Stack>
  );
}

/** The page: heading, then the form or the result; `data-step` tells which step is showing. */
export function ConversionPage({
  testId,
  maw,
  step,
  title,
  subtitle,
  children,
}: {
  testId: string;
  maw: number;
  step: ConversionStep;
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <Stack
      gap="md"
      py={{ base: 'md', sm: 'xl' }}
      maw={maw}
      mx="auto"
      w="100%"
      data-testid={testId}
      data-step={step}
    >
      <Stack gap={2}>
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {subtitle}
        </Text>
      </Stack>
      {children}
    </Stack>
  );
}

/** A label on the left, a value on the right; `loose` keeps Mantine's default gap and wrapping. */
export function Line({
  label,
  children,
  testId,
  loose = false,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  loose?: boolean;
}) {
  const spacing = loose ? {} : { gap: 'xs', wrap: 'nowrap' as const };
  return (
    <Group justify="space-between" {...spacing} data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** The book is too thin to fill the whole amount. */
export function ThinBookNote() {
  const { t } = useTranslation('trade');
  return (
    <Text size="xs" c="orange.7">
      {t('exchange.thin')}
    </Text>
  );
}

/** How the quote is made and the price band that protects the market order. */
export function QuoteNote({ market }: { market: SpotMarketData }) {
  const { t } = useTranslation('trade');
  return (
    <Text size="xs" c="dimmed">
      {t('exchange.quoteNote', { band: `${market.price_band_bps / 100}%` })}
    </Text>
  );
}

/** The server's refusal of the last attempt. */
export function RefusalAlert({ refusal, testId }: { refusal: string | null; testId: string }) {
  return refusal ? (
    <Alert color="red" variant="light" data-testid={testId}>
      {refusal}
    </Alert>
  ) : null;
}

/** The confirm step: what is paid and received, back to the form or place the order. */
export function ConfirmPanel({
  testId,
  bg,
  title,
  summary,
  backLabel,
  backTestId,
  onBack,
  confirmLabel,
  confirmTestId,
  onConfirm,
  submitting,
  color,
  disabled,
}: {
  testId: string;
  bg?: string;
  title: string;
  summary: string | null;
  backLabel: string;
  backTestId: string;
  onBack: () => void;
  confirmLabel: string;
  confirmTestId: string;
  onConfirm: () => void;
  submitting: boolean;
  color?: string;
  disabled?: boolean;
}) {
  return (
    <Paper withBorder radius="md" p="md" bg={bg} data-testid={testId}>
      <Stack gap="sm">
        <Text fw={600}>{title}</Text>
        <Text size="sm">{summary}</Text>
        <Group grow>
          <Button variant="default" onClick={onBack} data-testid={backTestId}>
            {backLabel}
          </Button>
          <Button
            color={color}
            onClick={onConfirm}
            loading={submitting}
            disabled={disabled}
            data-testid={confirmTestId}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The settled order: a sentence, any extra rows (`children`), convert again or the records. */
export function ConversionResult({
  testId,
  status,
  title,
  text,
  textTestId,
  againLabel,
  againTestId,
  onAgain,
  children,
}: {
  testId: string;
  status: string;
  title: string;
  text: string;
  textTestId: string;
  againLabel: string;
  againTestId: string;
  onAgain: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('trade');
  return (
    <Paper withBorder radius="md" p="lg" data-testid={testId} data-status={status}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text data-testid={textTestId}>{text}</Text>
        {children}
        <Group>
          <Button onClick={onAgain} data-testid={againTestId}>
            {againLabel}
          </Button>
          <Anchor component={Link} to="/currencyRecord" size="sm">
            {t('exchange.records')}
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}
