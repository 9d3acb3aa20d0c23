/** Cuts text to at most `max` characters, never half a surrogate pair, saying how much was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}
