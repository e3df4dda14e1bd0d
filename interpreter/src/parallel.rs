//! Independent seeded games on several threads, with the result of one.
//!
//! Game `i` of a batch depends on its seed alone, so the range `0..n` is cut
//! into contiguous chunks; threads take the next chunk as they finish one
//! (a short game does not leave a thread idle), each chunk folds its indices
//! in increasing order into its own accumulator, and the accumulators come
//! back in chunk order. Merging them in that order gives what one thread
//! playing `0..n` in order gives: the same counts, the same lists in the same
//! order, the same first failure.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Chunks per thread: enough for a thread that finishes early to take more.
const CHUNKS_PER_JOB: u32 = 8;

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
    let wanted = u32::try_from(jobs).unwrap_or(u32::MAX).saturating_mul(CHUNKS_PER_JOB).min(n);
    let size = n.div_ceil(wanted);
    let chunks = n.div_ceil(size) as usize;
    let threads = jobs.min(chunks);
    let next = AtomicUsize::new(0);
    // Take chunks until none is left; the results with their chunk numbers.
    let work = || {
        let mut mine = Vec::new();
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= chunks || stop() {
                break mine;
            }
            // c < chunks = ceil(n / size), so c * size < n fits in u32.
            let lo = c as u32 * size;
            let hi = lo.saturating_add(size).min(n);
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
