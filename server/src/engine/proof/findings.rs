//! Findings at workspace lines: why an edge of a workspace function is a finding
//! (its kind and reason, in the words a user acts on), the chain of calls down to
//! the allocation, what an exemption lets through, and source locations.

use hir::db::HirDatabase;
use hir_def::signatures::FunctionSignature;
use ra_ap_ide_db::base_db::SourceDatabase;
use ra_ap_ide_db::line_index::LineIndex;
use ra_ap_syntax::TextRange;
use ra_ap_vfs::FileId;
use rustc_hash::FxHashSet;

use super::{
    judge::{terminal_flags, through, Judged, Verdict, FLAGS, NORMAL},
    reach::{Reach, Resolved, ResolvedEdge},
    walk::{Node, Site, Target},
};
use crate::engine::source::naming;
use crate::engine::{analysis::Exemption, ChainStep, FindingKind, Location, Workspace};

/// What turning a judged reach into findings reads of the analysis: the database,
/// the workspace's files (and their line indexes, filled as asked), the
/// exemptions, and the foreign functions and intrinsics the allowlist lets
/// through.
pub(crate) struct FindingsContext<'a> {
    pub db: &'a ra_ap_ide_db::RootDatabase,
    pub ws: &'a Workspace,
    pub line_indexes: &'a mut rustc_hash::FxHashMap<FileId, std::sync::Arc<LineIndex>>,
    pub exemptions: &'a [Exemption],
    pub allowed_terminals: &'a FxHashSet<hir_def::FunctionId>,
}

impl FindingsContext<'_> {
    /// What an exempted edge lets through: the reason a finding would give, or for a
    /// workspace callee that allocates inside, the callee.
    pub(crate) fn let_through(
        &self,
        reach: &Reach<'_>,
        judged: &Judged,
        v: usize,
        resolved: &ResolvedEdge<'_>,
    ) -> Option<String> {
        if let Some((_, reason, _)) = self.reason(reach, judged, v, resolved) {
            return Some(reason);
        }
        let x = resolved.exempted?;
        if self.exemptions[x].report.line_only {
            return None;
        }
        let local_callee = resolved
            .targets
            .iter()
            .find(|t| matches!(t, Resolved::Vertex(j) if reach.local[*j] && judged.any[*j] != 0))
            .map(|t| self.target_name(reach, t));
        let callback = resolved.callbacks.iter().find(|&&j| judged.any[j] != 0).map(|&j| reach.nodes[j].name(self.db));
        local_callee.or(callback).map(|name| format!("calls {name}, which allocates"))
    }

    /// The workspace function that holds a node's lines.
    pub(crate) fn holder_name(&self, node: &Node<'_>) -> String {
        let db: &dyn HirDatabase = self.db;
        match *node {
            Node::Fn { func, .. } => naming::fn_path(db, func, None),
            _ => node.name(db),
        }
    }

    /// The name of what a resolved target calls.
    pub(crate) fn target_name(&self, reach: &Reach<'_>, target: &Resolved<'_>) -> String {
        let db: &dyn HirDatabase = self.db;
        match target {
            Resolved::Vertex(j) => reach.nodes[*j].name(db),
            Resolved::Terminal(Target::Allocator(f) | Target::Foreign(f) | Target::Intrinsic(f)) => {
                naming::fn_path(db, *f, None)
            }
            Resolved::Terminal(Target::Unknown { what, .. } | Target::FnPointer { what, .. }) => what.clone(),
            Resolved::Terminal(Target::Node(node)) => node.name(db),
            Resolved::Terminal(Target::Dyn { method, .. }) => naming::fn_path(db, *method, None),
            Resolved::Terminal(Target::DynDrop(ty)) => format!("drop of `{}`", naming::ty_name(db, *ty)),
            Resolved::Terminal(Target::Summary(summary)) => {
                summary.chain.first().map(|step| step.function.clone()).unwrap_or_default()
            }
        }
    }

    /// How calling `target` from vertex `v` allocates, as seen from `v`'s lines:
    /// workspace callees report their own normal allocations.
    fn callee_flags(&self, reach: &Reach<'_>, judged: &Judged, target: &Resolved<'_>) -> u8 {
        match target {
            Resolved::Vertex(j) if reach.allowed[*j].is_some() => 0,
            Resolved::Vertex(j) if reach.local[*j] => judged.any[*j] & !NORMAL,
            // Workspace code under a callee's error path is not reported on its own
            // lines (errors are judged where they are dropped or returned): the
            // errors it builds count here.
            Resolved::Vertex(j) => judged.own[*j] | (judged.any[*j] & !NORMAL),
            Resolved::Terminal(terminal) => terminal_flags(terminal, self.allowed_terminals),
        }
    }

    /// Why an edge of a workspace function is a finding, if it is one: its kind, its
    /// reason, and for growth the buffer.
    pub(crate) fn reason(
        &self,
        reach: &Reach<'_>,
        judged: &Judged,
        v: usize,
        resolved: &ResolvedEdge<'_>,
    ) -> Option<(FindingKind, String, Option<String>)> {
        let db: &dyn HirDatabase = self.db;
        let context = resolved.edge.context;
        let in_closure = reach.closure[v];
        match resolved.verdict {
            Verdict::Cut => return None,
            Verdict::Allowed => {
                // The allowance covers the call, not what it runs back.
                let callback = resolved.callbacks.iter().find(|&&j| {
                    let flags = self.callee_flags(reach, judged, &Resolved::Vertex(j));
                    through(judged.context_into(context, v, j), flags, in_closure).0 & NORMAL != 0
                })?;
                let name = reach.nodes[*callback].name(db);
                let what = if resolved.edge.growth.is_some() { "a growth with room" } else { "first-use setup" };
                return Some((
                    FindingKind::Allocation,
                    format!("calls back {name} through {what}, and it allocates"),
                    None,
                ));
            }
            Verdict::Grows { long_lived } => {
                if through(context, NORMAL, in_closure).0 & NORMAL == 0 {
                    return None; // growing the error that the function returns
                }
                let buffer = resolved.edge.growth.as_ref()?.buffer.clone();
                if long_lived {
                    return Some((FindingKind::MayGrow, format!("may grow `{buffer}`"), Some(buffer)));
                }
                if let Some(&Resolved::Vertex(j)) = resolved.targets.first() {
                    if reach.local[j] {
                        let name = reach.nodes[j].name(db);
                        return Some((
                            FindingKind::Allocation,
                            format!("grows `{buffer}` through {name} (noalloc:append)"),
                            None,
                        ));
                    }
                }
            }
            Verdict::Judged => {}
        }
        let mut normal: Vec<&Resolved<'_>> = Vec::new();
        let mut swallowed: Option<&Resolved<'_>> = None;
        let mut recursion = false;
        for target in &resolved.targets {
            let callee = match (target, &resolved.edge.target) {
                // An open call names every candidate that allocates, workspace ones too.
                (Resolved::Vertex(j), Target::Dyn { .. } | Target::FnPointer { .. } | Target::DynDrop(_))
                    if reach.allowed[*j].is_none() =>
                {
                    judged.any[*j]
                }
                _ => self.callee_flags(reach, judged, target),
            };
            let recursive = matches!(target, Resolved::Vertex(j) if judged.recursive(v, *j));
            let context = judged.context_toward(context, v, target);
            let (flags, dropped) = through(context, callee, in_closure);
            if flags & NORMAL != 0 {
                if dropped {
                    if swallowed.is_none() {
                        swallowed = Some(target);
                        recursion = recursive && !resolved.edge.context.repeats;
                    }
                } else {
                    normal.push(target);
                }
            }
        }
        if normal.is_empty() {
            let target = swallowed?;
            let callee = self.target_name(reach, target);
            let reason = if recursion {
                format!("calls {callee} recursively, and each level drops an error that allocates: every failed level allocates")
            } else if !in_closure {
                format!("drops the error of {callee}, which allocates, inside a loop: every failed pass allocates")
            } else if context.propagates || context.error_return {
                format!("returns the error of {callee}, which allocates, from a closure: its caller may drop it and call again")
            } else {
                format!("drops the error of {callee}, which allocates, in a closure that may run again")
            };
            return Some((FindingKind::SwallowedError, reason, None));
        }
        let unknown = |what: &String| {
            format!("call with no known callee: {}", resolved.edge.callee_label.as_ref().unwrap_or(what))
        };
        let open_call = |label: String| {
            if let [Resolved::Terminal(Target::Unknown { what, .. })] = normal.as_slice() {
                return format!("call with no known callee: {what}");
            }
            let mut names: Vec<String> = normal.iter().map(|target| self.target_name(reach, target)).collect();
            names.sort();
            names.dedup();
            format!("{label}, and these may allocate: {}", names.join(", "))
        };
        let reason = match &resolved.edge.target {
            Target::Node(_) => {
                let &Resolved::Vertex(j) = normal[0] else { return None };
                match resolved.edge.drop_of {
                    Some(ty) => format!("drops `{}`, whose drop glue can allocate", naming::ty_name(db, ty)),
                    None => format!("calls {}", reach.nodes[j].name(db)),
                }
            }
            Target::Allocator(func) => format!("calls the allocator {}", naming::fn_path(db, *func, None)),
            Target::Foreign(func) => {
                format!("calls foreign function {} (body not visible)", naming::fn_path(db, *func, None))
            }
            Target::Intrinsic(func) => format!("calls intrinsic {} (no body)", naming::fn_path(db, *func, None)),
            Target::Unknown { what, .. } => unknown(what),
            // Summaries stand for code outside the workspace, never for a workspace line.
            Target::Summary(_) => return None,
            Target::Dyn { method, .. } => {
                let trait_ = naming::trait_path_of(db, *method);
                let name = FunctionSignature::of(db, *method).name.as_str().to_owned();
                open_call(format!("calls dyn {trait_}::{name}"))
            }
            Target::FnPointer { what, .. } => open_call(format!("calls through fn pointer {what}")),
            Target::DynDrop(ty) => open_call(format!("drops `{}`", naming::ty_name(db, *ty))),
        };
        Some((FindingKind::Allocation, reason, None))
    }

    /// From the callee of edge `e` of vertex `v` down to the allocation: through the
    /// first target (or callback) and flag of it that makes `v` allocate on its
    /// normal path, the flag a finding reports; else the first that allocates at all.
    pub(crate) fn chain(&mut self, reach: &Reach<'_>, judged: &Judged, v: usize, e: usize) -> Vec<ChainStep> {
        let resolved = &reach.edges[v][e];
        let candidates: Vec<Resolved<'_>> =
            resolved.targets.iter().cloned().chain(resolved.callbacks.iter().map(|&j| Resolved::Vertex(j))).collect();
        let normal_at_v = |target: &Resolved<'_>, flag: u8| {
            let context = judged.context_toward(resolved.edge.context, v, target);
            through(context, flag, reach.closure[v]).0 & NORMAL != 0
        };
        let flagged = |target: &Resolved<'_>| judged.flags(target, self.allowed_terminals);
        let found = candidates
            .iter()
            .find_map(|t| FLAGS.into_iter().find(|&f| flagged(t) & f != 0 && normal_at_v(t, f)).map(|f| (t, f)))
            .or_else(|| candidates.iter().find(|t| flagged(t) != 0).map(|t| (t, flagged(t))));
        match found {
            Some((target, flag)) => self.chain_from(reach, judged, target.clone(), flag),
            None => Vec::new(),
        }
    }

    /// From `target` down to the allocation, following the witnesses of `flag` (the
    /// way `target` allocates that the chain explains).
    pub(crate) fn chain_from<'db>(
        &mut self,
        reach: &Reach<'db>,
        judged: &Judged,
        mut target: Resolved<'db>,
        mut flag: u8,
    ) -> Vec<ChainStep> {
        let mut chain = Vec::new();
        let mut seen = FxHashSet::default();
        loop {
            if let Resolved::Vertex(j) = target {
                if let [only] = reach.edges[j].as_slice() {
                    if let Some(summary @ Resolved::Terminal(Target::Summary(_))) = only.targets.first() {
                        target = summary.clone();
                    }
                }
            }
            if let Resolved::Terminal(Target::Summary(summary)) = &target {
                chain.extend(summary.chain.iter().map(|step| ChainStep {
                    function: step.function.clone(),
                    location: step.file.clone().map(|file| Location {
                        file,
                        line: step.line,
                        column: step.column,
                        end_line: step.end_line,
                        end_column: step.end_column,
                    }),
                    exported: step.exported,
                }));
                break;
            }
            let name = self.target_name(reach, &target);
            let Resolved::Vertex(j) = target else {
                chain.push(ChainStep { function: name, location: None, exported: false });
                break;
            };
            let exported = match reach.nodes[j] {
                Node::Fn { func, .. } if !reach.local[j] => naming::is_exported(self.db, func),
                _ => false,
            };
            let witness = if seen.insert(j) { judged.witness_for(j, flag) } else { None };
            let Some(w) = witness else {
                chain.push(ChainStep { function: name, location: None, exported });
                break;
            };
            let resolved = &reach.edges[j][w.edge];
            let location = resolved.edge.site.and_then(|site| self.site_location(site));
            chain.push(ChainStep { function: name, location, exported });
            flag = w.below;
            target = match resolved.targets.get(w.target) {
                Some(next) => next.clone(),
                None => match resolved.callbacks.get(w.target - resolved.targets.len()) {
                    Some(&cb) => Resolved::Vertex(cb),
                    None => break,
                },
            };
        }
        chain
    }

    pub(crate) fn site_location(&mut self, site: Site) -> Option<Location> {
        let db: &dyn HirDatabase = self.db;
        let (_, source_map) = hir_def::expr_store::Body::with_source_map(db, site.owner);
        let source = source_map.expr_or_pat_syntax(site.expr).ok()?;
        let range = source.map(|ptr| ptr.text_range()).original_node_file_range_rooted(db);
        let file = range.file_id.file_id(db);
        self.location(file, range.range)
    }

    pub(crate) fn location(&mut self, file: FileId, range: TextRange) -> Option<Location> {
        let path = self.ws.file_path(file)?;
        let db = self.db;
        let index = self
            .line_indexes
            .entry(file)
            .or_insert_with(|| std::sync::Arc::new(LineIndex::new(db.file_text(file).text(db))))
            .clone();
        let start = index.line_col(range.start());
        let end = index.line_col(range.end());
        Some(Location {
            file: path,
            line: start.line + 1,
            column: start.col + 1,
            end_line: end.line + 1,
            end_column: end.col + 1,
        })
    }
}
