import { ActionIcon, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { CheckIcon, CopyIcon } from './icons.tsx';

export type CopyFieldProps = {
  label: ReactNode;
  value: string;
  /** Accessible name of the copy button, e.g. "Copy UID" (the app translates it). */
  copyLabel: string;
  copiedLabel: string;
  /** The value gets this test id, the button `<testId>-copy`. */
  testId?: string;
  /** Monospace for codes and links. */
  mono?: boolean;
};

/** A labelled value with a copy button; the value stays selectable and wraps no more than one line. */
export function CopyField({ label, value, copyLabel, copiedLabel, testId, mono = false }: CopyFieldProps) {
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between" align="center" miw={0}>
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text
          size="sm"
          fw={500}
          truncate="end"
          ff={mono ? 'monospace' : undefined}
          title={value}
          data-testid={testId}
          style={{ fontVariantNumeric: 'tabular-nums' }}
        >
          {value}
        </Text>
      </Stack>
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? copiedLabel : copyLabel} withArrow position="left">
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={copied ? copiedLabel : copyLabel}
              data-testid={testId ? `${testId}-copy` : undefined}
              data-copied={copied ? 'true' : undefined}
            >
              {copied ? <CheckIcon /> : <CopyIcon />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
