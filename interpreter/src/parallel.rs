//! Independent seeded games on several threads, with the result of one.
//!
//! Game `i` of a batch depends on its seed alone, so the range `0..n` is cut
//! into contiguous chunks; threads take the next chunk as they finish one
//! (a short game does not leave a thread idle). Chunks shrink along the
//! range, so that the last ones, which may leave a thread working alone
//! while the others have nothing left, are short; their bounds depend on
//! `n` and the number of threads only. Each chunk folds its indices
//! in increasing order into its own accumulator, and the accumulators come
//! back in chunk order. Merging them in that order gives what one thread
//! playing `0..n` in order gives: the same counts, the same lists in the same
//! order, the same first failure.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The bounds of the chunks of `0..n` for `jobs` threads: each a quarter
/// of what is left per thread, down to a 64th of a thread's share. With 8
/// equal chunks per thread, a thread was left alone with the last for up to
/// an eighth of the time: two threads ran connect four's short games 1.72
/// times as fast as one.
fn chunk_bounds(n: u32, jobs: usize) -> Vec<(u32, u32)> {
    let jobs = u64::try_from(jobs).unwrap_or(u64::MAX).max(1);
    let smallest = (u64::from(n) / jobs.saturating_mul(64)).max(1);
    let mut bounds = Vec::new();
    let mut lo = 0u32;
    while lo < n {
        let left = u64::from(n - lo);
        let size = (left / jobs.saturating_mul(4)).max(smallest).min(left) as u32;
        bounds.push((lo, lo + size));
        lo += size;
    }
    bounds
}

/// Small blocks that a new thread holds until it ends, taken before it
/// allocates anything else. A thread starts by freeing what the thread that
/// spawned it allocated for it (its closure, its handle), and the allocator
/// hands those blocks out again for the thread's next allocations of their
/// size: the workers' first states got them, next to each other in the
/// spawning thread's memory, and two threads writing one cache line ran
/// connect four 1.33 times as fast as one thread instead of 1.8.
fn soak_inherited_blocks() -> Vec<Vec<u8>> {
    // Two blocks of each size up to 256 bytes, in steps of 16.
    (0..32).map(|i| Vec::with_capacity(16 * (i % 16 + 1))).collect()
}

/// Fold `0..n` on up to `jobs` threads. Each chunk starts from `init()` and
/// calls `step` on its indices in increasing order; the chunks' accumulators
/// are returned in order, the first holding index 0. With `jobs <= 1` (or a
/// single index) everything runs on the calling thread, in one chunk.
///
/// A panic in `step` is raised again on the calling thread.
pub fn in_chunks<A, I, S>(n: u32, jobs: usize, init: I, step: S) -> Vec<A>
where
    A: Send,
    I: Fn() -> A + Sync,
    S: Fn(&mut A, u32) + Sync,
{
    in_chunks_until(n, jobs, init, step, &|| false)
}

/// [`in_chunks`], stopping early once `stop()` is true: each thread checks
/// it before each index and then leaves its chunk and takes no other, so the
/// accumulators hold what was done (a prefix of each chunk begun), still in
/// chunk order.
pub fn in_chunks_until<A, I, S>(n: u32, jobs: usize, init: I, step: S, stop: &(dyn Fn() -> bool + Sync)) -> Vec<A>
where
    A: Send,
    I: Fn() -> A + Sync,
    S: Fn(&mut A, u32) + Sync,
{
    if jobs <= 1 || n <= 1 {
        let mut acc = init();
        for i in 0..n {
            if stop() {
                break;
            }
            step(&mut acc, i);
        }
        return vec![acc];
    }
    let bounds = chunk_bounds(n, jobs);
    let chunks = bounds.len();
    let threads = jobs.min(chunks);
    let next = AtomicUsize::new(0);
    // Take chunks until none is left; the results with their chunk numbers.
    let work = || {
        let _soak = soak_inherited_blocks();
        let mut mine = Vec::new();
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= chunks || stop() {
                break mine;
            }
            let Some(&(lo, hi)) = bounds.get(c) else { break mine };
            let mut acc = init();
            for i in lo..hi {
                if stop() {
                    break;
                }
                step(&mut acc, i);
            }
            mine.push((c, acc));
        }
    };
    let mut done: Vec<(usize, A)> = std::thread::scope(|scope| {
        // A thread the system refuses (too many asked for) is one fewer:
        // the others take its chunks, and with none the calling thread does.
        let workers: Vec<_> = (0..threads).map_while(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok()).collect();
        if workers.is_empty() {
            return work();
        }
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    done.sort_unstable_by_key(|(c, _)| *c);
    done.into_iter().map(|(_, acc)| acc).collect()
}

/// [`in_chunks_until`] where a step may cut the range short: `step`
/// returns true to say that nothing after its index is wanted (a game
/// whose rules loop, each one costing the whole fuel). The result is then
/// exactly what one thread playing `0..=k` in order gives, `k` being the
/// smallest index whose step said so, whatever the number of threads:
/// every index up to it is stepped (a cut only ever moves down, and a
/// thread leaves its chunk only past the lowest cut yet), and the chunks
/// that start past it are dropped (a thread that stepped past the final
/// cut before it was known did so only in such a chunk, since the index
/// that made the cut is in the chunk of the thread that found it).
pub fn in_chunks_cut<A, I, S>(n: u32, jobs: usize, init: I, step: S, stop: &(dyn Fn() -> bool + Sync)) -> Vec<A>
where
    A: Send,
    I: Fn() -> A + Sync,
    S: Fn(&mut A, u32) -> bool + Sync,
{
    use std::sync::atomic::AtomicU32;
    let cut = AtomicU32::new(u32::MAX);
    // Each accumulator with the first index of its chunk, to drop those
    // past the cut.
    let chunks = in_chunks_until(
        n,
        jobs,
        || (u32::MAX, init()),
        |(first, acc), i| {
            if i > cut.load(Ordering::SeqCst) {
                return;
            }
            *first = (*first).min(i);
            if step(acc, i) {
                cut.fetch_min(i, Ordering::SeqCst);
            }
        },
        stop,
    );
    let last = cut.load(Ordering::SeqCst);
    chunks.into_iter().filter(|(first, _)| *first == u32::MAX || *first <= last).map(|(_, acc)| acc).collect()
}

#[cfg(test)]
mod tests {
    use super::{in_chunks, in_chunks_cut, in_chunks_until};

    #[test]
    fn a_cut_keeps_exactly_the_indices_up_to_the_smallest_that_asked() {
        for jobs in [1, 2, 3, 8] {
            // Indices 37, 400 and 12 ask for a cut: 0..=12 are kept.
            let chunks = in_chunks_cut(1000, jobs, Vec::new, |v: &mut Vec<u32>, i| {
                v.push(i);
                [37, 400, 12].contains(&i)
            }, &|| false);
            let all: Vec<u32> = chunks.into_iter().flatten().collect();
            assert_eq!(all, (0..=12).collect::<Vec<_>>(), "jobs = {jobs}");
        }
        let none = in_chunks_cut(50, 3, Vec::new, |v: &mut Vec<u32>, i| {
            v.push(i);
            false
        }, &|| false);
        assert_eq!(none.into_iter().flatten().collect::<Vec<_>>(), (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn chunks_cover_the_range_once_and_in_order() {
        for n in [0, 1, 2, 7, 16, 17, 100, 1001] {
            for jobs in [1, 2, 3, 8, 200] {
                let chunks = in_chunks(n, jobs, Vec::new, |v: &mut Vec<u32>, i| v.push(i));
                assert!(jobs > 1 || chunks.len() == 1, "one thread, one chunk");
                assert!(chunks.len() <= (n as usize).max(1));
                let all: Vec<u32> = chunks.into_iter().flatten().collect();
                assert_eq!(all, (0..n).collect::<Vec<_>>(), "n = {n}, jobs = {jobs}");
            }
        }
    }

    #[test]
    fn chunks_shrink_so_that_the_last_ones_are_short() {
        for (n, jobs) in [(100_000u32, 2usize), (4000, 2), (1000, 8), (37, 3)] {
            let bounds = super::chunk_bounds(n, jobs);
            let sizes: Vec<u32> = bounds.iter().map(|(lo, hi)| hi - lo).collect();
            assert!(sizes.windows(2).all(|w| w[1] <= w[0]), "never growing: {sizes:?}");
            let share = u64::from(n) / jobs as u64;
            assert!(u64::from(sizes[0]) * 4 <= share.max(4), "the first a quarter of a thread's share at most ({n}, {jobs}): {sizes:?}");
            let last = u64::from(*sizes.last().unwrap_or(&0));
            assert!(last * 64 <= share.max(64), "the last a 64th of a thread's share at most ({n}, {jobs}): {sizes:?}");
            assert!(bounds.len() <= 40 * jobs, "not too many chunks ({n}, {jobs}): {}", bounds.len());
        }
    }

    #[test]
    fn a_stop_leaves_a_prefix_of_each_chunk_begun() {
        for jobs in [1, 3] {
            let done = std::sync::atomic::AtomicU32::new(0);
            let stop = || done.load(std::sync::atomic::Ordering::SeqCst) >= 50;
            let chunks = in_chunks_until(10_000, jobs, Vec::new, |v: &mut Vec<u32>, i| {
                v.push(i);
                done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }, &stop);
            let all: Vec<u32> = chunks.iter().flatten().copied().collect();
            assert!(all.len() >= 50 && all.len() < 10_000, "stopped early: {} of 10,000 (jobs {jobs})", all.len());
            for c in &chunks {
                assert!(c.windows(2).all(|w| w[1] == w[0] + 1), "each chunk a run of consecutive indices");
            }
        }
    }

    #[test]
    fn several_jobs_use_several_threads() {
        let ids = in_chunks(64, 4, Vec::new, |v: &mut Vec<std::thread::ThreadId>, _| v.push(std::thread::current().id()));
        let main = std::thread::current().id();
        assert!(ids.iter().flatten().all(|t| *t != main), "the work runs on spawned threads");
        let one = in_chunks(64, 1, Vec::new, |v: &mut Vec<std::thread::ThreadId>, _| v.push(std::thread::current().id()));
        assert!(one.iter().flatten().all(|t| *t == main), "one job runs on the calling thread");
    }
}
