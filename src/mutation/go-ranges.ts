/** `--mutate workflow.go:171-177,context.go:396-412` (a file alone: all of it) for `npm run mutation:go`. */

export interface MutateRange {
  file: string;
  from: number;
  to: number;
}

export function parseMutateRanges(text: string): MutateRange[] {
  return text.split(',').map((part) => {
    const match = /^([\w.-]+\.go)(?::(\d+)(?:-(\d+))?)?$/.exec(part.trim());
    if (!match) throw new Error(`--mutate ${part}: expected file.go, file.go:line or file.go:from-to`);
    const from = match[2] ? Number(match[2]) : 1;
    const to = match[3] ? Number(match[3]) : match[2] ? from : Number.MAX_SAFE_INTEGER;
    if (to < from) throw new Error(`--mutate ${part}: the range ends before it starts`);
    return { file: match[1] as string, from, to };
  });
}
