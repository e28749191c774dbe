import type { OptionDirection } from '@bourse/protocol';
import { Badge } from '@mantine/core';
import { useOptionWords } from './labels.ts';

/** Up ▲ / Down ▼ in the customer's up/down colours. */
export function DirectionBadge({
  direction,
  size = 'sm',
}: {
  direction: OptionDirection;
  size?: 'sm' | 'md' | 'lg';
}) {
  const words = useOptionWords();
  return (
    <Badge
      color={words.directionColor(direction)}
      variant="light"
      size={size}
      data-testid="option-direction"
      data-direction={direction}
    >
      {direction === 'up' ? '▲ ' : '▼ '}
      {words.direction(direction)}
    </Badge>
  );
}
