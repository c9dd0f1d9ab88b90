//! Work on scoped threads, one helper for every layer that splits work: the calling thread
//! does its own share while each job runs on a thread of its own, and a job whose thread
//! cannot start runs on the calling thread instead, so a machine out of threads is slower,
//! never wrong.

use std::sync::{Mutex, PoisonError};

/// Runs `here` on the calling thread while each of `jobs` runs through `run` on a thread of
/// its own; returns `here`'s result and the jobs' results in the order of `jobs`. A job
/// whose thread cannot be started runs on the calling thread after `here`. A panic in a job
/// is raised again on the calling thread once every thread has ended.
pub(crate) fn on_threads<H, J, R>(
    here: impl FnOnce() -> H,
    jobs: Vec<J>,
    run: impl Fn(J) -> R + Sync,
) -> (H, Vec<R>)
where
    J: Send,
    R: Send,
{
    // Each job in a slot the thread takes it from, so one that never starts is still here.
    let slots: Vec<Mutex<Option<J>>> = jobs.into_iter().map(|j| Mutex::new(Some(j))).collect();
    let run = &run;
    std::thread::scope(|scope| {
        let threads: Vec<_> = slots
            .iter()
            .map(|slot| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || take(slot).map(run))
                    .ok()
            })
            .collect();
        let mine = here();
        let mut results = Vec::with_capacity(slots.len());
        for (slot, thread) in slots.iter().zip(threads) {
            let result = match thread {
                Some(thread) => thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                None => take(slot).map(run),
            };
            results.extend(result);
        }
        (mine, results)
    })
}

fn take<J>(slot: &Mutex<Option<J>>) -> Option<J> {
    // Taking moves a value out; a poisoned slot is still whole.
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_the_order_of_the_jobs() {
        let (mine, theirs) = on_threads(|| "here", (0..16).collect(), |n: u32| n * n);
        assert_eq!(mine, "here");
        assert_eq!(theirs, (0..16).map(|n| n * n).collect::<Vec<_>>());
    }

    #[test]
    fn no_jobs_is_the_calling_thread_alone() {
        let (mine, theirs) = on_threads(|| 7, Vec::<u8>::new(), |n| n);
        assert_eq!((mine, theirs), (7, Vec::new()));
    }

    #[test]
    fn a_panicking_job_panics_the_caller() {
        let outcome = std::panic::catch_unwind(|| {
            on_threads(
                || (),
                vec![1, 2],
                |n: u8| assert!(n != 2, "job {} failed", n),
            )
        });
        assert!(outcome.is_err());
    }
}
