import type { Tone } from '../format.js';

/** Ink <Text> props for a tone: one palette for every view. */
export function toneProps(tone: Tone): { color?: string; dimColor?: boolean } {
  switch (tone) {
    case 'ok':
      return { color: 'green' };
    case 'warn':
      return { color: 'yellow' };
    case 'bad':
      return { color: 'red' };
    case 'dim':
      return { dimColor: true };
    case 'plain':
      return {};
  }
}
