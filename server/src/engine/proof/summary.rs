//! What stands in for a walked instance outside the workspace: its summary (what
//! it reaches, what its reach adds to the program, what it may call back) and the
//! key that names the instance across runs. The proof reads summaries through
//! `Summaries`; where they are kept between runs is `reuse::summary_cache`'s.

use std::hash::{BuildHasher, Hash, Hasher};
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engine::source::identity::{InstanceIdentity, ItemIdentity};

/// Where the proof finds the summaries that stand in for instances it need not
/// walk again.
pub(crate) trait Summaries {
    /// The summary of the instance `key` names, if one is kept.
    fn get(&self, key: &SummaryKey) -> Option<Arc<CachedSummary>>;
    /// A summary stood in for its instance.
    fn note_hit(&mut self);
}

/// What a closed instance (one that reaches no workspace code and no `dyn` call)
/// amounts to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CachedSummary {
    /// It allocates on its normal path.
    pub allocates: bool,
    /// It allocates building an error that it returns.
    #[serde(default)]
    pub on_error: bool,
    /// It allocates building an error that it drops once per call.
    #[serde(default)]
    pub once: bool,
    /// From the instance down to the allocator (empty when it does not allocate).
    pub chain: Vec<CachedStep>,
    /// What its reach adds to the program that calls left open elsewhere are
    /// resolved against. The summary stands in for the instance only while no such
    /// call could be resolved against it (`reach`); else the instance is walked.
    #[serde(default, skip_serializing_if = "Additions::is_empty")]
    pub adds: Additions,
    /// The allowlist entries that let something through in its reach (indices
    /// into the allowlist the file is keyed by): a check it answers for uses them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses_allow: Vec<usize>,
    /// What its reach could run back for an allowed call above it: it stands in
    /// below such a call only when the call runs none of it back (`reach`).
    #[serde(default, skip_serializing_if = "CallsBack::is_empty")]
    pub calls_back: CallsBack,
}

/// What an instance's reach adds to the program, named so that it outlives a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Additions {
    /// The traits it coerces values to `dyn` of, each with its supertraits
    /// (a `dyn Sub` answers calls of `Super`'s methods): sorted, once each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dyn_traits: Vec<ItemIdentity>,
    /// It coerces values to a `dyn` of auto traits only (`dyn Send`), which a drop
    /// of such a `dyn` may run the drop glue of.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto_dyn: bool,
    /// It takes a function's address or casts a fn pointer: a target for calls
    /// through fn pointers.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fn_pointers: bool,
}

impl Additions {
    pub fn is_empty(&self) -> bool {
        self.dyn_traits.is_empty() && !self.auto_dyn && !self.fn_pointers
    }

    /// Takes in `other`'s additions; returns whether anything was new.
    pub fn merge(&mut self, other: &Additions) -> bool {
        let before = (self.auto_dyn, self.fn_pointers);
        self.auto_dyn |= other.auto_dyn;
        self.fn_pointers |= other.fn_pointers;
        merge_sorted(&mut self.dyn_traits, &other.dyn_traits) | (before != (self.auto_dyn, self.fn_pointers))
    }
}

/// What an instance's reach could run back for an allowed call above it (growth
/// with room, first use), as `judge::find_callbacks` finds callbacks: the trait
/// impls of the types the call is generic over, and the closures of the calling
/// function. Named by fingerprints of identities (`identity::fingerprint`): two
/// identities that share one only make a summary stand in less often.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CallsBack {
    /// The self types of the trait-impl methods (but `Allocator`'s) and of the
    /// derived methods its reach calls: sorted, once each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub impl_types: Vec<u64>,
    /// The functions whose closures its reach runs: sorted, once each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closure_holders: Vec<u64>,
    /// One of them has no identity: it may be anything.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unnamed: bool,
}

impl CallsBack {
    pub fn is_empty(&self) -> bool {
        self.impl_types.is_empty() && self.closure_holders.is_empty() && !self.unnamed
    }

    /// Takes in `other`'s; returns whether anything was new.
    pub fn merge(&mut self, other: &CallsBack) -> bool {
        let unnamed = self.unnamed;
        self.unnamed |= other.unnamed;
        merge_sorted(&mut self.impl_types, &other.impl_types)
            | merge_sorted(&mut self.closure_holders, &other.closure_holders)
            | (unnamed != self.unnamed)
    }
}

/// Inserts `from` into the sorted `into`, keeping it sorted and each once;
/// returns whether anything was new.
fn merge_sorted<T: Ord + Clone>(into: &mut Vec<T>, from: &[T]) -> bool {
    let before = into.len();
    for item in from {
        if let Err(at) = into.binary_search(item) {
            into.insert(at, item.clone());
        }
    }
    into.len() != before
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CachedStep {
    pub function: String,
    pub file: Option<PathBuf>,
    pub line: u32,
    pub column: u32,
    /// Where the call ends, so that a chain answered from a summary marks the same
    /// text as one walked.
    pub end_line: u32,
    pub end_column: u32,
    /// See `ChainStep::exported`.
    #[serde(default)]
    pub exported: bool,
}

/// An instance's identity with its hash worked out once: identities hold paths and
/// type names, and hashing them again on every lookup cost more than the lookup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummaryKey {
    hash: u64,
    identity: InstanceIdentity,
}

impl SummaryKey {
    pub fn new(identity: InstanceIdentity) -> SummaryKey {
        SummaryKey { hash: rustc_hash::FxBuildHasher.hash_one(&identity), identity }
    }

    /// The instance it names.
    pub fn identity(&self) -> &InstanceIdentity {
        &self.identity
    }

    /// A hash of the identity, the same in every run of this build.
    pub fn stable_hash(&self) -> u64 {
        self.hash
    }
}

impl Hash for SummaryKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}
