//! Work off the main loop: the thread that loads the workspace and the threads that
//! analyze it, what they send back (`Task`), and how the loop takes each result
//! (stale ones, of an older load or generation, are dropped).

use std::path::{Path, PathBuf};
use std::time::Instant;

use crossbeam_channel::Sender;
use lsp_types::MessageType;

use super::main_loop::{LoadState, Phase, Server};
use crate::engine::edit::{AnalysisFailure, LiveWorkspace, Returned};
use crate::engine::stored_analysis::Stored;
use crate::engine::{Analysis, AnalysisStore, LoadError, Watch, Workspace};

/// Results of work done off the main loop.
pub(super) enum Task {
    LoadProgress {
        load: u64,
        message: String,
    },
    Loaded {
        load: u64,
        result: Result<Box<Workspace>, LoadError>,
        ms: u128,
    },
    /// One more root of an analysis judged.
    RootJudged {
        load: u64,
        generation: u64,
        judged: usize,
        total: usize,
    },
    /// The answer for `files` (the files open when the analysis started) is
    /// complete, before the rest of the analysis.
    FilesComplete {
        load: u64,
        generation: u64,
        files: Vec<PathBuf>,
        partial: Box<Analysis>,
    },
    Analyzed {
        load: u64,
        generation: u64,
        result: Result<Analysis, AnalysisFailure>,
        returned: Box<Returned>,
        ms: u128,
    },
    /// The analysis a run stored for exactly what the analysis of `generation`
    /// reads: published while that analysis runs.
    Stored {
        load: u64,
        generation: u64,
        analysis: Box<Analysis>,
    },
    /// The names of a new load are resolved (or an edit cancelled that): the
    /// syntax they parsed can go before the first analysis.
    NamesResolved {
        load: u64,
        returned: Box<Returned>,
        /// The analysis store that step opened, for the analysis that follows.
        store: Option<Box<OpenedStore>>,
    },
}

/// An analysis store opened (its fingerprint worked out) by the names step of a
/// load, kept for the load's first analysis (`LoadState::NamesResolved`) while
/// nothing changed in between: the same generation (an edit or a settings change
/// makes a new one) and configuration.
pub(super) struct OpenedStore {
    generation: u64,
    config: String,
    store: AnalysisStore,
}

/// What the analysis thread tells the main loop while it runs: the open files are
/// judged first, their diagnostics published as soon as they are complete, and
/// each root judged counts in `$/progress`.
struct AnalysisWatch {
    tasks: Sender<Task>,
    load: u64,
    generation: u64,
    open_files: Vec<PathBuf>,
    /// Whether `$/progress` is open (the first analysis after a load), so that the
    /// roots judged are worth telling the loop.
    count_roots: bool,
}

impl Watch for AnalysisWatch {
    fn first_files(&self) -> &[PathBuf] {
        &self.open_files
    }

    fn root_judged(&mut self, judged: usize, total: usize) {
        if !self.count_roots {
            return;
        }
        let (load, generation) = (self.load, self.generation);
        let _ = self.tasks.send(Task::RootJudged { load, generation, judged, total });
    }

    fn files_complete(&mut self, files: &[PathBuf], partial: &Analysis) {
        let (load, generation) = (self.load, self.generation);
        let files = files.to_vec();
        let partial = Box::new(partial.clone());
        let _ = self.tasks.send(Task::FilesComplete { load, generation, files, partial });
    }
}

impl Server {
    pub(super) fn on_task(&mut self, task: Task) {
        match task {
            Task::LoadProgress { load, message } => {
                if load == self.load {
                    self.progress_report(message);
                }
            }
            Task::Loaded { load, result, ms } => {
                if load != self.load {
                    return;
                }
                match result {
                    Ok(ws) => {
                        tracing::info!("workspace loaded in {ms} ms");
                        for warning in ws.load_warnings() {
                            if !self.load_warnings_shown.contains(&warning) {
                                self.show_message(MessageType::WARNING, format!("noalloc: {warning}"));
                                self.load_warnings_shown.push(warning);
                            }
                        }
                        let mut live = LiveWorkspace::new(*ws);
                        let open: Vec<(PathBuf, String)> = self
                            .docs
                            .paths()
                            .map(|p| (p.to_path_buf(), self.docs.get(p).unwrap().text.clone()))
                            .collect();
                        for (path, text) in open {
                            let _ = live.set_file_text(&path, &text);
                        }
                        self.phase = Phase::Loaded { live: Box::new(live), state: LoadState::NamesUnresolved };
                        self.generation += 1;
                        self.progress_report("analyzing the roots".to_owned());
                    }
                    Err(err) => {
                        let message = err.to_string();
                        tracing::error!("{message}");
                        self.show_message(MessageType::ERROR, format!("noalloc: {message}"));
                        self.phase = Phase::NoWorkspace(message);
                        self.progress_end("could not load the workspace".to_owned());
                    }
                }
            }
            Task::RootJudged { load, generation, judged, total } => {
                if load == self.load && generation == self.generation {
                    self.progress_report(format!("{judged}/{total} roots"));
                }
            }
            Task::FilesComplete { load, generation, files, partial } => {
                if load == self.load && generation == self.generation {
                    let fresh = self.diagnostics_of(&partial);
                    self.publish_changed(fresh, Some(&files));
                }
            }
            Task::Stored { load, generation, analysis } => {
                if load == self.load && generation == self.generation && self.analyzed != Some(generation) {
                    let (logged, reported) = match analysis.timings.roots_stored {
                        0 => ("of unchanged files", "nothing changed since"),
                        _ => ("with the roots the edits read checked again", "the roots edits read checked again"),
                    };
                    tracing::info!("published the stored analysis {logged}");
                    self.progress_report(format!("diagnostics of the last check ({reported}); confirming"));
                    self.publish(*analysis);
                }
            }
            Task::NamesResolved { load, returned, store } => {
                if load != self.load {
                    return; // a workspace since replaced by a reload
                }
                self.running = None;
                if let Phase::Loaded { live, state } = &mut self.phase {
                    live.give_back(*returned);
                    *state = LoadState::NamesResolved(store);
                }
            }
            Task::Analyzed { load, generation, result, returned, ms } => {
                if load != self.load {
                    return; // a workspace since replaced by a reload
                }
                self.running = None;
                if let Phase::Loaded { live, state } = &mut self.phase {
                    live.give_back(*returned);
                    if !matches!(state, LoadState::SyntaxDropped) {
                        *state = LoadState::SyntaxDropped;
                        live.drop_syntax();
                    }
                }
                match result {
                    Ok(analysis) if generation == self.generation => {
                        tracing::info!(
                            "analysis of generation {generation} in {ms} ms ({} bodies walked, {} functions checked)",
                            analysis.timings.bodies_walked,
                            analysis.functions_checked
                        );
                        tracing::debug!("timings of generation {generation}: {:?}", analysis.timings);
                        self.analyzed = Some(generation);
                        self.panic_message = None;
                        self.publish(analysis);
                        self.progress_end("done".to_owned());
                    }
                    Ok(_) => {
                        tracing::debug!("dropped the stale analysis of generation {generation}")
                    }
                    Err(AnalysisFailure::Cancelled) => {
                        tracing::debug!("analysis of generation {generation} cancelled")
                    }
                    Err(AnalysisFailure::Panicked(message)) => {
                        tracing::error!("analysis panicked: {message}");
                        if generation == self.generation {
                            // Not retried until the next change: it would panic again.
                            self.analyzed = Some(generation);
                            self.panic_message = Some(message);
                            self.progress_end("the analysis failed".to_owned());
                        }
                    }
                }
            }
        }
    }

    pub(super) fn start_load(&mut self) {
        let Some(root) = self.root.clone() else {
            self.phase = Phase::NoWorkspace("no workspace folder with a Cargo.toml".to_owned());
            return;
        };
        self.load += 1;
        self.phase = Phase::Loading;
        self.running = None;
        let load = self.load;
        let options = self.settings.load_options();
        let tasks = self.tasks.0.clone();
        self.progress_begin("loading the workspace".to_owned());
        let spawned = crate::engine::analysis_thread("noalloc-load").spawn(move || {
            let started = Instant::now();
            let progress_tasks = tasks.clone();
            let progress = move |message: String| {
                let _ = progress_tasks.send(Task::LoadProgress { load, message });
            };
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Workspace::load(&root, &options, &progress)))
                    .unwrap_or_else(|_| Err(LoadError::Failed("loading panicked".to_owned())))
                    .map(Box::new);
            let _ = tasks.send(Task::Loaded { load, result, ms: started.elapsed().as_millis() });
        });
        if let Err(err) = spawned {
            self.phase = Phase::NoWorkspace(format!("could not start loading: {err}"));
        }
    }

    pub(super) fn maybe_start_analysis(&mut self) {
        if self.running.is_some() || self.analyzed == Some(self.generation) {
            return;
        }
        let Phase::Loaded { live, state } = &mut self.phase else {
            return;
        };
        let Some(mut snapshot) = live.snapshot() else {
            return;
        };
        // The first analysis of a load first looks for one a run stored (the
        // editor reopened on files the last check saw): its diagnostics go out at
        // once, and the analysis then confirms them. It stores its own for the next.
        let use_store = matches!(state, LoadState::NamesUnresolved | LoadState::NamesResolved(_));
        // A new load first publishes the stored analysis, then resolves names on
        // every core and hands the workspace back (an edit meanwhile starts the
        // analysis at its generation).
        let names_first = matches!(state, LoadState::NamesUnresolved);
        // The first analysis takes the store the names step opened.
        let opened = match state {
            LoadState::NamesResolved(opened) => {
                let opened = opened.take();
                *state = LoadState::FirstAnalysis;
                opened
            }
            _ => None,
        };
        let generation = self.generation;
        let load = self.load;
        let config = match self.settings.check_config_for(live.root()) {
            Ok(config) => config,
            Err(err) => {
                // A manifest or allowlist that does not parse: say so, and check
                // with the editor's settings alone meanwhile.
                tracing::warn!("{err}");
                if self.settings_error.as_ref() != Some(&err) {
                    self.show_message(MessageType::ERROR, format!("noalloc: {err}"));
                    self.settings_error = Some(err);
                }
                self.settings.check_config()
            }
        };
        let tasks = self.tasks.0.clone();
        let mut watch = AnalysisWatch {
            tasks: tasks.clone(),
            load,
            generation,
            // The open files first only in the first analysis after a load (the one
            // that takes seconds, under `$/progress`): after an edit the whole
            // analysis takes a fraction of a second, and judging the open files
            // first would build most reaches twice.
            open_files: match self.progress_open {
                true => self.docs.paths().map(Path::to_path_buf).collect(),
                false => Vec::new(),
            },
            count_roots: self.progress_open,
        };
        self.running = Some((generation, Instant::now()));
        // The store the names step opened, if nothing changed since.
        let opened = opened.filter(|opened| opened.generation == generation && opened.config == format!("{config:?}"));
        let config_shown = names_first.then(|| format!("{config:?}"));
        let spawned = crate::engine::analysis_thread("noalloc-analysis").spawn(move || {
            let started = Instant::now();
            let store = match opened {
                Some(opened) => Some(opened.store),
                None if use_store => snapshot.analysis_store(&config),
                None => None,
            };
            if names_first {
                let standing = match store.as_ref().and_then(|store| snapshot.stored_analysis(store)) {
                    Some(Stored::Whole(analysis)) => {
                        let _ = tasks.send(Task::Stored { load, generation, analysis: Box::new(analysis) });
                        None
                    }
                    Some(Stored::Partly(standing)) => Some(standing),
                    None => None,
                };
                if !snapshot.resolve_names(&config) {
                    tracing::debug!("an edit cancelled name resolution; the analysis resolves them");
                }
                // Edits of bodies some roots read: those roots checked, the
                // others' stored outcomes kept, published while the first
                // analysis confirms them.
                if let Some(analysis) = standing.and_then(|standing| snapshot.analyze_reusing_stored(&config, standing))
                {
                    let _ = tasks.send(Task::Stored { load, generation, analysis: Box::new(analysis) });
                }
                let returned = Box::new(snapshot.release());
                let store =
                    store.zip(config_shown).map(|(store, config)| Box::new(OpenedStore { generation, config, store }));
                let _ = tasks.send(Task::NamesResolved { load, returned, store });
                return;
            }
            let result = snapshot.analyze_watched(&config, &mut watch);
            if let (Some(store), Ok(analysis)) = (&store, &result) {
                if let Err(err) = snapshot.store_analysis(store, analysis) {
                    tracing::warn!("could not store the analysis in {}: {err}", store.path().display());
                }
            }
            let returned = Box::new(snapshot.release());
            let _ =
                tasks.send(Task::Analyzed { load, generation, result, returned, ms: started.elapsed().as_millis() });
        });
        if let Err(err) = spawned {
            // The snapshot went down with the closure; the workspace is lost. Reload.
            tracing::error!("could not start an analysis thread: {err}");
            self.running = None;
            self.reload_wanted = true;
        }
    }
}
