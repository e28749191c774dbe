import { Num, trendColor, useNumSettings } from '@bourse/ui';
import type { CSSProperties } from 'react';
import type { Move } from '../../../lib/marketStore.ts';
import classes from './PriceCell.module.css';

/** The last price, flashing up or down (in the customer's rise colour) each time it moves. */
export function PriceCell({
  value,
  scale,
  move,
  updatedAt,
  size = 'sm',
  testId,
}: {
  value: string;
  /** The instrument's price scale: the price shows exactly that many digits (@bourse/money formatPrice). */
  scale?: number;
  move: Move;
  updatedAt: number;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
  testId?: string;
}) {
  const { rise } = useNumSettings();
  const style = {
    '--flash-up': `var(--mantine-color-${trendColor('up', rise)}-6)`,
    '--flash-down': `var(--mantine-color-${trendColor('down', rise)}-6)`,
  } as CSSProperties;
  const flash = move === 'up' ? classes.flashUp : move === 'down' ? classes.flashDown : undefined;
  return (
    <span style={style}>
      {/* Re-keyed on every tick so the flash animation plays again. */}
      <Num
        key={updatedAt}
        className={flash}
        value={value}
        kind={scale === undefined ? undefined : 'price'}
        scale={scale}
        size={size}
        fw={600}
        trend={move ?? 'none'}
        data-testid={testId}
        data-move={move ?? 'none'}
      />
    </span>
  );
}
