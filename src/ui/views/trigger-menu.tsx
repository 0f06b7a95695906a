import { Box } from 'ink';
import { Line, Title } from './line.js';

/** The `t` menu: every event of the API's list, made to happen through real state changes. */
export function TriggerMenu(props: { events: readonly string[]; index: number; height: number; width: number; source: string }) {
  const { width } = props;
  const rows = Math.max(1, props.height - 1);
  const start = Math.min(Math.max(0, props.index - Math.floor(rows / 2)), Math.max(0, props.events.length - rows));
  return (
    <Box flexDirection="column">
      <Title width={width} title="Trigger an event" note={`as ${props.source} in test mode; Enter triggers, Esc closes`} />
      {props.events.slice(start, start + rows).map((name, i) => {
        const selected = start + i === props.index;
        return <Line key={name} width={width} inverse={selected} spans={[{ text: `${selected ? '› ' : '  '}${name}` }]} />;
      })}
    </Box>
  );
}
