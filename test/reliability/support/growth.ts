/**
 * Big-O checks by comparison, not by a clock threshold: how much more work of size `large` costs
 * than work of size `small`. Linear work grows about `large / small` times, quadratic work about its
 * square; a test asserts the ratio stays well under the square.
 */

/** Milliseconds `run` takes `times` times over (the best of three rounds, to shed noise). */
function cost(run: () => unknown, times: number): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    for (let index = 0; index < times; index++) run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * How much more `run(large)` costs than `run(small)`, with enough repetitions that the small one
 * takes a measurable time (20 ms).
 */
export function growth(run: (size: number) => unknown, small: number, large: number): number {
  let times = 1;
  while (cost(() => run(small), times) < 20 && times < 1 << 20) times *= 2;
  return cost(() => run(large), times) / cost(() => run(small), times);
}
