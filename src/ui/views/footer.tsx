import { Box } from 'ink';
import { textWidth } from '../format.js';
import type { Notice, Screen } from '../state.js';
import { Line } from './line.js';

/** The latest notices: config reloads and rejected edits, results of keys, errors. */
export function Notices(props: { notices: readonly Notice[]; width: number }) {
  return (
    <Box flexDirection="column">
      {props.notices.map((n) => (
        <Line
          key={n.id}
          width={props.width}
          spans={[{ text: `${n.tone === 'error' ? '✗' : '•'} ${n.text}`, style: n.tone === 'error' ? 'error' : 'notice' }]}
        />
      ))}
    </Box>
  );
}

/**
 * Each screen's keys: the key, what it does, a shorter word for a narrow terminal, and whether
 * the line may leave it out when even the short words do not fit (a key the list's line names).
 */
type Key = [key: string, does: string, short?: string, spare?: boolean];

/** The keys of an event, in the list as in its detail: resend it, move the clock, trigger, the dashboard, quit. */
const EVENT_KEYS: Key[] = [
  ['r', 'resend'],
  ['c', 'clock +1 day', '+1 day'],
  ['t', 'trigger'],
  ['d', 'dashboard URL', 'dashboard'],
  ['q', 'quit'],
];

const KEYS: Record<Screen, Key[]> = {
  list: [['↑↓', 'select'], ['Enter', 'open'], ...EVENT_KEYS],
  // Its own keys first: on 80 columns the dashboard's is left out (the list's line names it).
  detail: [['Esc', 'back'], ['↑↓', 'previous/next', 'prev/next'], ['PgUp/PgDn', 'scroll'], ...EVENT_KEYS.map(spareKey('t', 'd'))],
  trigger: [
    ['↑↓', 'choose'],
    ['Enter', 'trigger'],
    ['Esc', 'close'],
    ['q', 'quit'],
  ],
};

/** The key line: in full when it fits, else with shorter words, else without its spare keys (last first), else cut at its end. */
export function keyHints(screen: Screen, width: number): string {
  const full = KEYS[screen].map(([key, does]) => `${key} ${does}`).join('  ');
  if (textWidth(full) <= width) return full;
  const short = (keys: Key[]) => keys.map(([key, does, word]) => `${key} ${word ?? does}`).join('  ');
  let keys = KEYS[screen];
  while (textWidth(short(keys)) > width && keys.some((k) => k[3])) {
    const last = keys.findLastIndex((k) => k[3]);
    keys = keys.filter((_, i) => i !== last);
  }
  return short(keys);
}

/** The keys named `names` marked spare. */
function spareKey(...names: string[]): (key: Key) => Key {
  return (key) => (names.includes(key[0]) ? [key[0], key[1], key[2], true] : key);
}

export function KeyHints(props: { screen: Screen; width: number }) {
  return <Line width={props.width} spans={[{ text: keyHints(props.screen, props.width), style: 'dim' }]} />;
}
