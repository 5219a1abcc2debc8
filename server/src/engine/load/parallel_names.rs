//! Name resolution of the crates a check reads, on every core: each crate's def
//! map is built once the def maps of its dependencies are, so std's crates and the
//! workspace's dependencies resolve side by side instead of one after another
//! (rust-analyzer's own `parallel_prime_caches` works the same way, without the
//! symbol indexes a check never reads). Only the workspace's crates and what they
//! depend on are resolved. A thread with no def map to build meanwhile builds the
//! item trees of the files the def maps to come will read (`module_files`), then
//! expands their macro calls (`expand_ahead`): while `core`'s is built, nothing
//! else can be.

use std::any::Any;
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use ra_ap_ide_db::{base_db::Crate, RootDatabase};
use rustc_hash::{FxHashMap, FxHashSet};

use super::expand_ahead;
use super::module_files::{self, ModuleFile};

/// The crates left, those whose dependencies are done, and how many
/// dependencies each waiting crate still waits for; the crates whose impls are
/// still to be collected.
struct Schedule {
    ready: Vec<Crate>,
    waiting_on: FxHashMap<Crate, usize>,
    /// How many crates wait, directly or not, for each crate's def map: of the
    /// ready ones, the one most wait for is built first (`core`, before the
    /// small crates that need nothing either).
    waited_by: FxHashMap<Crate, usize>,
    left: usize,
    /// Threads building a def map now.
    working: usize,
    /// Crates whose def map is built and whose impls are not collected yet, in the
    /// order their def maps were built (`core`'s, the longest, first).
    impls_pending: VecDeque<Crate>,
    /// Threads collecting a crate's impls now.
    collecting_impls: usize,
    /// What a thread panicked with (a salsa cancellation among others): the
    /// others stop, and the calling thread raises it again.
    panicked: Option<Box<dyn Any + Send>>,
    /// Files whose item trees are to be built ahead of their crate's def map, the
    /// next on top; then the crates whose files are, in the order their def maps
    /// can start.
    read_ahead: Vec<ModuleFile>,
    crates_to_read_ahead: VecDeque<Crate>,
    /// Crates whose def map is built: their files are no longer read ahead. One
    /// being built still is, from the back while its def map reads from the front.
    built: FxHashSet<Crate>,
    read_ahead_files: usize,
    read_ahead_time: Duration,
    /// Then, once no file is left to read ahead, the crates whose macro calls
    /// are to be expanded ahead, in the order their def maps can start.
    crates_to_expand_ahead: VecDeque<Crate>,
    expanded_ahead: usize,
    expand_ahead_time: Duration,
}

impl Schedule {
    /// Whether no def map is left to build, or none can be: nothing is ready and
    /// nobody builds one (a cycle in the crate graph, which the caller's own pass
    /// resolves).
    fn def_maps_over(&self) -> bool {
        self.left == 0 || (self.ready.is_empty() && self.working == 0)
    }

    /// The next thing for a thread to do, if there is one now. Def maps come first:
    /// each one lets its dependents start. Impls take a thread that has no def map
    /// to build, but while def maps are left, one thread always stays free for
    /// them: collecting an impls is not interrupted, and `std`'s def map would wait
    /// for it.
    fn next_job(&mut self, threads: usize) -> Option<Job> {
        let most_waited_for =
            (0..self.ready.len()).max_by_key(|&i| self.waited_by.get(&self.ready[i]).copied().unwrap_or(0));
        if let Some(krate) = most_waited_for.map(|i| self.ready.swap_remove(i)) {
            self.working += 1;
            return Some(Job::DefMap(krate));
        }
        if self.def_maps_over() || self.collecting_impls + 1 < threads {
            if let Some(krate) = self.impls_pending.pop_front() {
                self.collecting_impls += 1;
                return Some(Job::Impls(krate));
            }
        }
        if !self.def_maps_over() {
            return self.next_to_read_ahead();
        }
        None
    }

    /// The next file whose item tree no def map has asked for yet, or the next
    /// crate to start reading from its root.
    fn next_to_read_ahead(&mut self) -> Option<Job> {
        loop {
            if let Some(file) = self.read_ahead.pop() {
                if !self.built.contains(&file.krate) {
                    return Some(Job::ReadAhead(file));
                }
                continue;
            }
            let Some(krate) = self.crates_to_read_ahead.pop_front() else { break };
            if !self.built.contains(&krate) {
                return Some(Job::ReadAheadFromRoot(krate));
            }
        }
        while let Some(krate) = self.crates_to_expand_ahead.pop_front() {
            if !self.built.contains(&krate) {
                return Some(Job::ExpandAhead(krate));
            }
        }
        None
    }
}

enum Job {
    DefMap(Crate),
    Impls(Crate),
    ReadAhead(ModuleFile),
    ReadAheadFromRoot(Crate),
    ExpandAhead(Crate),
}

/// Builds the def map of every workspace crate and of every crate they depend
/// on, and collects each one's impls (which method resolution reads), with up to
/// `threads` threads. Must run where `db` is attached (`hir::attach_db`); a panic
/// or cancellation is raised again on this thread.
pub(crate) fn resolve_names(db: &RootDatabase, threads: usize) {
    let scope = crate::engine::proof::impls::linked_crates(db).clone();
    let (schedule, dependents) = schedule_for(db, &scope);
    let schedule = Mutex::new(schedule);
    let changed = Condvar::new();
    let work = |db: &RootDatabase| loop {
        let job = {
            let mut state = lock(&schedule);
            loop {
                if state.panicked.is_some() {
                    return;
                }
                if let Some(job) = state.next_job(threads) {
                    break job;
                }
                if state.def_maps_over() && state.impls_pending.is_empty() {
                    return;
                }
                state = changed.wait(state).unwrap_or_else(|e| e.into_inner());
            }
        };
        let started = std::time::Instant::now();
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| run_job(db, &job, &schedule)));
        let mut state = lock(&schedule);
        state.job_done(db, job, &dependents, started, outcome.is_ok());
        match outcome {
            // Popped first: the file's last module, so that a def map being built,
            // which reads from the first, meets it halfway.
            Ok(declared) => state.read_ahead.extend(declared),
            Err(payload) => state.panicked = Some(payload),
        }
        drop(state);
        changed.notify_all();
    };
    std::thread::scope(|threads_scope| {
        for _ in 1..threads.max(1) {
            let db = db.clone();
            let work = &work;
            let spawned = crate::engine::analysis_thread("noalloc-names")
                .spawn_scoped(threads_scope, move || hir::attach_db(&db, || work(&db)));
            if spawned.is_err() {
                break;
            }
        }
        work(db);
    });
    let schedule = schedule.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(payload) = schedule.panicked {
        std::panic::resume_unwind(payload);
    }
    tracing::debug!(
        "item trees of {} files read ahead of their def maps in {} ms",
        schedule.read_ahead_files,
        schedule.read_ahead_time.as_millis()
    );
    tracing::debug!(
        "{} macro calls expanded ahead of their def maps in {} ms",
        schedule.expanded_ahead,
        schedule.expand_ahead_time.as_millis()
    );
}

fn lock(schedule: &Mutex<Schedule>) -> std::sync::MutexGuard<'_, Schedule> {
    schedule.lock().unwrap_or_else(|e| e.into_inner())
}

/// The schedule of `scope`'s def maps, each crate once its dependencies are
/// done, and each crate's dependents in `scope`.
fn schedule_for(db: &RootDatabase, scope: &FxHashSet<Crate>) -> (Schedule, FxHashMap<Crate, Vec<Crate>>) {
    let mut dependents: FxHashMap<Crate, Vec<Crate>> = FxHashMap::default();
    let mut waiting_on = FxHashMap::default();
    let mut ready = Vec::new();
    for &krate in scope {
        let deps: Vec<Crate> =
            krate.data(db).dependencies.iter().map(|dep| dep.crate_id).filter(|dep| scope.contains(dep)).collect();
        for &dep in &deps {
            dependents.entry(dep).or_default().push(krate);
        }
        if deps.is_empty() {
            ready.push(krate);
        } else {
            waiting_on.insert(krate, deps.len());
        }
    }
    // The order their def maps can start in: dependencies first.
    let mut crates_to_read_ahead = VecDeque::with_capacity(scope.len());
    let (mut starting, mut waiting) = (VecDeque::from(ready.clone()), waiting_on.clone());
    while let Some(krate) = starting.pop_front() {
        crates_to_read_ahead.push_back(krate);
        release_dependents(&dependents, &mut waiting, krate, |dependent| starting.push_back(dependent));
    }
    // Dependents first: each crate's set is its direct dependents' and theirs.
    let mut waiting_sets: FxHashMap<Crate, FxHashSet<Crate>> = FxHashMap::default();
    for &krate in crates_to_read_ahead.iter().rev() {
        let mut set = FxHashSet::default();
        for dependent in dependents.get(&krate).into_iter().flatten() {
            set.insert(*dependent);
            set.extend(waiting_sets.get(dependent).into_iter().flatten().copied());
        }
        waiting_sets.insert(krate, set);
    }
    let waited_by = waiting_sets.into_iter().map(|(krate, set)| (krate, set.len())).collect();
    let schedule = Schedule {
        ready,
        waiting_on,
        waited_by,
        left: scope.len(),
        working: 0,
        impls_pending: VecDeque::new(),
        collecting_impls: 0,
        panicked: None,
        read_ahead: Vec::new(),
        crates_to_expand_ahead: crates_to_read_ahead.clone(),
        crates_to_read_ahead,
        built: FxHashSet::default(),
        read_ahead_files: 0,
        read_ahead_time: Duration::ZERO,
        expanded_ahead: 0,
        expand_ahead_time: Duration::ZERO,
    };
    (schedule, dependents)
}

/// Does one job; gives the module files a file read ahead declares.
fn run_job(db: &RootDatabase, job: &Job, schedule: &Mutex<Schedule>) -> Vec<ModuleFile> {
    match job {
        Job::DefMap(krate) => {
            hir_def::nameres::crate_def_map(db, *krate);
            Vec::new()
        }
        Job::Impls(krate) => {
            hir_ty::method_resolution::TraitImpls::for_crate(db, *krate);
            hir_ty::method_resolution::InherentImpls::for_crate(db, *krate);
            Vec::new()
        }
        Job::ReadAhead(file) => module_files::read_ahead(db, file),
        Job::ReadAheadFromRoot(krate) => module_files::read_ahead(db, &ModuleFile::crate_root(db, *krate)),
        Job::ExpandAhead(krate) => {
            let files = module_files::files_of_crate(db, *krate);
            // Until the crate's def map is built, or another can start.
            let stop = || {
                let state = lock(schedule);
                state.built.contains(krate) || !state.ready.is_empty()
            };
            let expanded = expand_ahead::expand_ahead(db, *krate, &files, &stop);
            lock(schedule).expanded_ahead += expanded.len();
            Vec::new()
        }
    }
}

impl Schedule {
    /// `job`, started at `started`, is over (`succeeded`: without a panic).
    fn job_done(
        &mut self,
        db: &RootDatabase,
        job: Job,
        dependents: &FxHashMap<Crate, Vec<Crate>>,
        started: std::time::Instant,
        succeeded: bool,
    ) {
        match job {
            Job::DefMap(krate) => {
                // `NOALLOC_LOG=noalloc_ls::engine::parallel_names=debug`: where name resolution goes.
                tracing::debug!("def map of {} in {} ms", crate_name(db, krate), started.elapsed().as_millis());
                self.working -= 1;
                if succeeded {
                    self.built.insert(krate);
                    self.left -= 1;
                    self.impls_pending.push_back(krate);
                    let Schedule { waiting_on, ready, .. } = self;
                    release_dependents(dependents, waiting_on, krate, |dependent| ready.push(dependent));
                }
            }
            Job::Impls(krate) => {
                tracing::debug!("impls of {} in {} ms", crate_name(db, krate), started.elapsed().as_millis());
                self.collecting_impls -= 1;
            }
            Job::ReadAhead(_) | Job::ReadAheadFromRoot(_) => {
                self.read_ahead_files += 1;
                self.read_ahead_time += started.elapsed();
            }
            Job::ExpandAhead(krate) => {
                tracing::debug!(
                    "macro calls of {} expanded ahead for {} ms",
                    crate_name(db, krate),
                    started.elapsed().as_millis()
                );
                self.expand_ahead_time += started.elapsed()
            }
        }
    }
}

/// `krate`'s def map is built: each crate that waited for it alone is `ready`.
fn release_dependents(
    dependents: &FxHashMap<Crate, Vec<Crate>>,
    waiting_on: &mut FxHashMap<Crate, usize>,
    krate: Crate,
    mut ready: impl FnMut(Crate),
) {
    for &dependent in dependents.get(&krate).into_iter().flatten() {
        let waiting = waiting_on.get_mut(&dependent).expect("a dependent waits");
        *waiting -= 1;
        if *waiting == 0 {
            ready(dependent);
        }
    }
}

fn crate_name(db: &RootDatabase, krate: Crate) -> String {
    krate.extra_data(db).display_name.as_ref().map_or_else(|| "?".to_owned(), |name| name.to_string())
}

/// Resolves the names of `ws`'s crates and their dependencies on `jobs` threads,
/// once per load; on one thread, nothing (names resolve on demand).
pub(crate) fn resolve_once(ws: &crate::engine::Workspace, jobs: Option<std::num::NonZeroUsize>) {
    let threads = threads(jobs);
    if threads > 1 {
        ws.resolve_names_once(|| resolve_names(&ws.db, threads));
    }
}

/// How many threads name resolution uses: `jobs` when given, else the cores this
/// process may run on (at most 8).
pub(crate) fn threads(jobs: Option<std::num::NonZeroUsize>) -> usize {
    jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()).min(8), |jobs| jobs.get())
}
