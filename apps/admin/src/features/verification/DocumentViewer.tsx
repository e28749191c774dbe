import type { AdminVerificationDocument } from '@bourse/protocol';
import { ResetIcon, RotateIcon, ZoomInIcon, ZoomOutIcon } from '@bourse/ui';
import { ActionIcon, Anchor, Box, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

const ZOOM_MIN = 0.5;
const ZOOM_MAX = 4;
const ZOOM_STEP = 0.5;

function Tool({
  label,
  onClick,
  disabled,
  testId,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="default"
        aria-label={label}
        onClick={onClick}
        disabled={disabled}
        data-testid={testId}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * One document as staff examine it: zoom in and out (scroll to move around), rotate by quarter
 * turns, reset, or open the image alone; its size in pixels and bytes below. The link is the
 * signed, short-lived one the detail call issued (and audited).
 */
export function DocumentViewer({
  doc,
  label,
  children,
}: {
  doc: AdminVerificationDocument;
  label: string;
  /** The decision controls under the image. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('adminKyc');
  const [zoom, setZoom] = useState(1);
  const [turns, setTurns] = useState(0);
  const testId = `viewer-${doc.slot}`;
  return (
    <Paper withBorder radius="md" p="sm" data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} size="sm">
            {label}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Tool
              label={t('detail.zoomOut')}
              onClick={() => setZoom((z) => Math.max(ZOOM_MIN, z - ZOOM_STEP))}
              disabled={zoom <= ZOOM_MIN}
              testId={`${testId}-zoom-out`}
            >
              <ZoomOutIcon />
            </Tool>
            <Tool
              label={t('detail.zoomIn')}
              onClick={() => setZoom((z) => Math.min(ZOOM_MAX, z + ZOOM_STEP))}
              disabled={zoom >= ZOOM_MAX}
              testId={`${testId}-zoom-in`}
            >
              <ZoomInIcon />
            </Tool>
            <Tool
              label={t('detail.rotate')}
              onClick={() => setTurns((r) => (r + 1) % 4)}
              testId={`${testId}-rotate`}
            >
              <RotateIcon />
            </Tool>
            <Tool
              label={t('detail.reset')}
              onClick={() => {
                setZoom(1);
                setTurns(0);
              }}
              disabled={zoom === 1 && turns === 0}
              testId={`${testId}-reset`}
            >
              <ResetIcon />
            </Tool>
          </Group>
        </Group>
        <Box
          h={320}
          style={{
            overflow: 'auto',
            borderRadius: 'var(--mantine-radius-sm)',
            background: 'var(--mantine-color-default-hover)',
            display: 'grid',
            placeItems: zoom <= 1 ? 'center' : 'start',
          }}
          data-testid={`${testId}-frame`}
        >
          <img
            src={doc.url}
            alt={label}
            draggable={false}
            data-zoom={zoom}
            data-rotation={turns * 90}
            data-testid={`${testId}-image`}
            style={{
              width: zoom <= 1 ? 'auto' : `${zoom * 100}%`,
              maxWidth: zoom <= 1 ? `${zoom * 100}%` : 'none',
              maxHeight: zoom <= 1 ? `${zoom * 100}%` : 'none',
              transform: `rotate(${turns * 90}deg)`,
              transformOrigin: 'center',
              transition: 'transform 120ms ease',
              objectFit: 'contain',
            }}
          />
        </Box>
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {t('detail.imageInfo', {
              width: doc.width,
              height: doc.height,
              kb: Math.max(1, Math.round(doc.size / 1024)),
            })}
          </Text>
          <Anchor href={doc.url} target="_blank" rel="noopener noreferrer" size="xs">
            {t('detail.openFull')}
          </Anchor>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
