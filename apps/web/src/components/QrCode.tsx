import { Text } from '@mantine/core';
import QRCode from 'qrcode';
import { useMemo } from 'react';

const QUIET_ZONE = 4;

/** The QR matrix of `text` as rows of dark modules, or null when it cannot be encoded. */
export function qrModules(text: string): boolean[][] | null {
  try {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    return Array.from({ length: modules.size }, (_, row) =>
      Array.from({ length: modules.size }, (_, col) => modules.get(row, col) === 1),
    );
  } catch (error) {
    console.error('[qr] QR code failed', error);
    return null;
  }
}

/**
 * A QR code drawn as SVG from the `qrcode` library's matrix (no canvas, no HTML string): one path
 * of unit squares, black on white with the standard quiet zone so any camera reads it. Used by
 * `/downLoad` (the app's address) and `/invite` (the invitation link).
 */
export function QrCode(props: {
  text: string;
  label: string;
  failedText: string;
  size?: number;
  testId?: string;
}) {
  const rows = useMemo(() => qrModules(props.text), [props.text]);
  if (!rows) return <Text c="red">{props.failedText}</Text>;
  const span = rows.length + QUIET_ZONE * 2;
  const path = rows
    .flatMap((cells, y) =>
      cells.map((dark, x) => (dark ? `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z` : '')),
    )
    .join('');
  return (
    <svg
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${span} ${span}`}
      width={props.size ?? 200}
      height={props.size ?? 200}
      shapeRendering="crispEdges"
      data-testid={props.testId ?? 'download-qr'}
      data-modules={rows.length}
    >
      <rect width={span} height={span} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
