//! The log of a live workspace's edits: each file's text before each edit, the
//! last `EditLog::KEPT` of them, read back as the texts the edits after a number
//! of them started from. Knows nothing of what an edit touched.

use super::*;

/// The edits a live workspace took, numbered from 1, with each file's text before
/// it; the last `EditLog::KEPT`.
#[derive(Clone, Default)]
pub struct EditLog {
    entries: VecDeque<LoggedEdit>,
    /// How many edits were taken so far.
    taken: u64,
    /// Every file an edit changed since the load, whether or not still logged.
    pub(super) touched: std::sync::Arc<FxHashSet<FileId>>,
    /// How many changes no comparison of texts can read were taken.
    pub(super) unreadable: u64,
}

#[derive(Clone)]
pub(super) struct LoggedEdit {
    pub(super) number: u64,
    /// `None`: a change of the database no text comparison can read (std's
    /// intrinsics put back).
    pub(super) file: Option<(FileId, Arc<str>)>,
}

impl EditLog {
    /// More than a burst of typing between two analyses.
    pub(super) const KEPT: usize = 64;

    /// Notes that `file`'s text, `before`, was replaced.
    pub fn took(&mut self, file: FileId, before: Arc<str>) {
        if !self.touched.contains(&file) {
            std::sync::Arc::make_mut(&mut self.touched).insert(file);
        }
        self.push(Some((file, before)));
    }

    /// Notes a change no comparison of texts can read.
    pub fn took_unreadable(&mut self) {
        self.unreadable += 1;
        self.push(None);
    }

    pub(super) fn push(&mut self, file: Option<(FileId, Arc<str>)>) {
        self.taken += 1;
        if self.entries.len() == Self::KEPT {
            self.entries.pop_front();
        }
        self.entries.push_back(LoggedEdit { number: self.taken, file });
    }

    /// How many edits were taken so far: what an analysis of the database as it
    /// is now has seen.
    pub fn taken(&self) -> u64 {
        self.taken
    }

    /// Whether an edit after the first `seen` may have changed a macro's
    /// definition: a file it changed spells `macro` (`macro_rules!`, `macro`,
    /// `#[macro_export]`, `#[macro_use]`) before or now (`now`: its text), or the
    /// log cannot tell.
    pub(super) fn macros_edited_after(&self, seen: u64, now: impl Fn(FileId) -> Arc<str>) -> bool {
        self.texts_after(seen).is_none_or(|texts| {
            texts.iter().any(|(&file, before)| before.contains("macro") || now(file).contains("macro"))
        })
    }

    /// Each file edited after the first `seen` edits, with its text then; `None`
    /// when the log no longer reaches back that far or a change among them cannot
    /// be read.
    pub(super) fn texts_after(&self, seen: u64) -> Option<FxHashMap<FileId, Arc<str>>> {
        let first_kept = self.entries.front().map_or(self.taken + 1, |entry| entry.number);
        if seen + 1 < first_kept {
            return None;
        }
        let mut texts = FxHashMap::default();
        for entry in self.entries.iter().filter(|entry| entry.number > seen) {
            let (file, before) = entry.file.as_ref()?;
            texts.entry(*file).or_insert_with(|| before.clone());
        }
        Some(texts)
    }
}
