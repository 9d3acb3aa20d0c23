/** The code points in printed text that a terminal would act on (newline aside), as U+XXXX: [] when it is safe to print. */
export function terminalControls(text: string): string[] {
  return [...text]
    .map((c) => c.codePointAt(0) ?? 0)
    .filter(
      (code) =>
        (code < 0x20 && code !== 0x0a) ||
        (code >= 0x7f && code <= 0x9f) ||
        code === 0x2028 ||
        code === 0x2029 ||
        (code >= 0x202a && code <= 0x202e) ||
        (code >= 0x2066 && code <= 0x2069),
    )
    .map((code) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
}
