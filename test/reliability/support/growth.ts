/**
 * Big-O checks by comparison, not by a clock threshold: how much more work of size `large` costs
 * than work of size `small`. Linear work grows about `large / small` times, quadratic work about its
 * square; a test asserts the ratio stays well under the square.
 */

/** Milliseconds `run` takes `times` times over. */
function cost(run: () => unknown, times: number): number {
  const started = performance.now();
  for (let index = 0; index < times; index++) run();
  return performance.now() - started;
}

/**
 * How much more `run(large)` costs than `run(small)`, with enough repetitions that the small one
 * takes a measurable time (20 ms). The two are measured in alternation, five rounds each, and the
 * best round of each is compared: a busy machine slows single rounds, rarely all five of one side.
 */
export function growth(run: (size: number) => unknown, small: number, large: number): number {
  let times = 1;
  while (cost(() => run(small), times) < 20 && times < 1 << 20) times *= 2;
  let bestSmall = Infinity;
  let bestLarge = Infinity;
  for (let round = 0; round < 5; round++) {
    bestSmall = Math.min(
      bestSmall,
      cost(() => run(small), times),
    );
    bestLarge = Math.min(
      bestLarge,
      cost(() => run(large), times),
    );
  }
  return bestLarge / bestSmall;
}
