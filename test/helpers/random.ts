/**
 * A fixed pseudo-random sequence (xorshift32) for generated test inputs: every run checks the same
 * cases, so a failure can be reproduced. Returns integers from 0 to 1,000,002.
 */
export function seededSequence(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % 1_000_003;
  };
}
