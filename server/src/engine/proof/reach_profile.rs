//! Where a root's reach comes from, for a person finding why a root reaches so
//! much (`NOALLOC_LOG=noalloc_ls::engine::reach_profile=debug`): its vertices
//! against its distinct instances (the `dyn` contexts), the open calls (`dyn`,
//! fn pointer, `dyn` drop) that first brought each vertex in, and the crates the
//! vertices are in. Reads a finished `Reach`; decides nothing.

use hir_def::HasModule;
use hir_ty::db::HirDatabase;
use rustc_hash::{FxHashMap, FxHashSet};

use super::model::{Node, Target};
use super::reach::{Reach, Resolved};

/// How many of the open calls and crates that bring in most are logged.
const TOP: usize = 15;

/// Logs the profile of `reach` at `debug` when that target is enabled.
pub(crate) fn log(db: &dyn HirDatabase, root_name: &str, reach: &Reach<'_>) {
    if !tracing::enabled!(target: "noalloc_ls::engine::reach_profile", tracing::Level::DEBUG) {
        return;
    }
    let distinct: FxHashSet<&Node<'_>> = reach.nodes.iter().collect();
    let open_edges = reach.edges.iter().flatten().filter(|edge| is_open(&edge.edge.target)).count();
    tracing::debug!(
        target: "noalloc_ls::engine::reach_profile",
        "{root_name}: {} vertices, {} distinct instances, {} dyn contexts, {} open calls",
        reach.nodes.len(),
        distinct.len(),
        reach.contexts.len(),
        open_edges,
    );
    let brought = brought_by_open_calls(reach);
    let mut by_call: Vec<((usize, usize), usize)> = brought.iter().map(|(&call, &n)| (call, n)).collect();
    by_call.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let direct = reach.nodes.len() - brought.values().sum::<usize>();
    tracing::debug!(target: "noalloc_ls::engine::reach_profile", "{root_name}: {direct} vertices by direct calls from the root");
    for ((v, e), n) in by_call.into_iter().take(TOP) {
        let resolved = &reach.edges[v][e];
        tracing::debug!(
            target: "noalloc_ls::engine::reach_profile",
            "{root_name}: +{n} vertices first through {} ({} targets) in {}",
            call_name(db, &resolved.edge.target),
            resolved.targets.len(),
            reach.nodes[v].name(db),
        );
    }
    let mut by_crate: FxHashMap<String, usize> = FxHashMap::default();
    for node in &reach.nodes {
        *by_crate.entry(crate_of(db, node)).or_default() += 1;
    }
    let mut by_crate: Vec<(String, usize)> = by_crate.into_iter().collect();
    by_crate.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let crates: Vec<String> = by_crate.into_iter().take(TOP).map(|(name, n)| format!("{name} {n}")).collect();
    tracing::debug!(target: "noalloc_ls::engine::reach_profile", "{root_name}: vertices by crate: {}", crates.join(", "));
}

fn is_open(target: &Target<'_>) -> bool {
    matches!(target, Target::Dyn { .. } | Target::FnPointer { .. } | Target::DynDrop(_))
}

/// For each open call (vertex, edge), how many vertices it brought in first: those
/// a breadth-first search from the root reaches through it before any other way,
/// direct calls taken before open ones.
fn brought_by_open_calls(reach: &Reach<'_>) -> FxHashMap<(usize, usize), usize> {
    let mut seen = vec![false; reach.nodes.len()];
    let mut brought = FxHashMap::default();
    let mut pending_open: std::collections::VecDeque<(usize, usize)> = std::collections::VecDeque::new();
    let mut stack = vec![0];
    if !seen.is_empty() {
        seen[0] = true;
    }
    let mut credit: Option<(usize, usize)> = None;
    loop {
        while let Some(v) = stack.pop() {
            if let Some(call) = credit {
                *brought.entry(call).or_insert(0) += 1;
            }
            for (e, resolved) in reach.edges[v].iter().enumerate() {
                if is_open(&resolved.edge.target) {
                    pending_open.push_back((v, e));
                    continue;
                }
                for target in &resolved.targets {
                    if let Resolved::Vertex(j) = *target {
                        if !seen[j] {
                            seen[j] = true;
                            stack.push(j);
                        }
                    }
                }
            }
        }
        let Some((v, e)) = pending_open.pop_front() else { break };
        credit = Some((v, e));
        for target in &reach.edges[v][e].targets {
            if let Resolved::Vertex(j) = *target {
                if !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
    }
    brought
}

fn call_name(db: &dyn HirDatabase, target: &Target<'_>) -> String {
    match target {
        Target::Dyn { method, .. } => {
            let trait_ = crate::engine::source::naming::trait_path_of(db, *method);
            let name = hir_def::signatures::FunctionSignature::of(db, *method).name.as_str().to_owned();
            format!("dyn {trait_}::{name}")
        }
        Target::FnPointer { what, .. } => format!("fn pointer {what}"),
        Target::DynDrop(ty) => format!("drop of {}", crate::engine::source::naming::ty_name(db, *ty)),
        other => format!("{other:?}"),
    }
}

fn crate_of(db: &dyn HirDatabase, node: &Node<'_>) -> String {
    let krate = match *node {
        Node::Fn { func, .. } | Node::Derived { method: func, .. } => Some(func.krate(db)),
        Node::Closure { closure, .. } => super::walk_env::body_crate(db, closure.loc(db).owner),
        Node::DropGlue(_) => return "(drop glue)".to_owned(),
        Node::Init(def, _) => Some(def.module(db).krate(db)),
    };
    krate.map_or_else(|| "(unknown)".to_owned(), |krate| crate::engine::source::naming::crate_name(db, krate))
}
