// Counts as people write them: "1 object", "2 objects", "1,000 objects".

export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;
}
