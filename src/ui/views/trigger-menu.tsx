import { Box, Text } from 'ink';
import { EVENT_NAMES } from '../../bus/events.js';

/** The `t` menu: every event of the API's list, made to happen through real state changes. */
export function TriggerMenu(props: { index: number; height: number; source: string }) {
  const rows = Math.max(3, props.height - 1);
  const start = Math.min(Math.max(0, props.index - Math.floor(rows / 2)), Math.max(0, EVENT_NAMES.length - rows));
  return (
    <Box flexDirection="column">
      <Text bold>
        Trigger an event <Text dimColor>(as {props.source} in test mode; Enter triggers, Esc closes)</Text>
      </Text>
      {EVENT_NAMES.slice(start, start + rows).map((name, i) => {
        const selected = start + i === props.index;
        return (
          <Text key={name} inverse={selected}>
            {selected ? '› ' : '  '}
            {name}
          </Text>
        );
      })}
    </Box>
  );
}
