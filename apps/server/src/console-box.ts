/**
 * Lines in a box drawn with box-drawing characters, so that a message the
 * operator must read (the sign-in password) stands out of a terminal's log.
 */
export function boxed(lines: readonly string[]): string {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  const body = lines.map((line) => `│ ${line.padEnd(width)} │`);
  return [`┌${rule}┐`, ...body, `└${rule}┘`].join('\n');
}
