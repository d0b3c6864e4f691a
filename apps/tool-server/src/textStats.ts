/** Local statistics of a text, computed before the model is asked. */
export interface TextStats {
  readonly words: number;
  readonly sentences: number;
  /** The five most frequent words of four letters or more, most frequent first (ties alphabetical). */
  readonly topTerms: readonly string[];
}

/** Counts words and sentences and finds the most frequent terms of `text`. */
export function analyzeText(text: string): TextStats {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  const sentences = text.split(/[.!?]+/).filter((s) => s.trim() !== '').length;
  const counts = new Map<string, number>();
  for (const word of words) if (word.length >= 4) counts.set(word, (counts.get(word) ?? 0) + 1);
  const topTerms = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 5)
    .map(([word]) => word);
  return { words: words.length, sentences, topTerms };
}
