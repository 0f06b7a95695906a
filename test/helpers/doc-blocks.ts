import fs from 'node:fs';

/** A fenced code block of a Markdown file: its info string's language, its text, its first line. */
export interface CodeBlock {
  lang: string;
  text: string;
  line: number;
}

/** The fenced code blocks of `file` (a path or URL), in order. */
export function codeBlocks(file: string | URL): CodeBlock[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(```+|~~~+)\s*(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.startsWith(fence); j++) body.push(lines[j]!);
    blocks.push({ lang: open[2] ?? '', text: `${body.join('\n')}\n`, line: i + 1 });
    i = j;
  }
  return blocks;
}

/**
 * The shell commands of a block: one per line, `\` continuations joined, comments and blank
 * lines left out.
 */
export function shellCommands(block: CodeBlock): string[] {
  return block.text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
