//! What the compiled program says about one root: whether the allocator is
//! reachable from the root's symbol, through which chain, and which calls through a
//! pointer matched no function. Panic machinery is cut as the engine cuts it.
//! Reads an `ir::Module`; knows nothing of the engine's verdicts (`compare` does).

use std::collections::{HashMap, HashSet, VecDeque};

use std::path::PathBuf;

use super::ir::{pointer_call_key, BlockEnd, Module, Reference, Signature};

/// The allocator's entry points, by the last segment of their demangled name
/// (`__rustc::__rust_alloc`) or as C symbols.
const RUST_ALLOCATOR: &[&str] = &[
    "__rust_alloc",
    "__rust_alloc_zeroed",
    "__rust_realloc",
    "__rdl_alloc",
    "__rdl_alloc_zeroed",
    "__rdl_realloc",
    "__rg_alloc",
    "__rg_alloc_zeroed",
    "__rg_realloc",
];
const C_ALLOCATOR: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "reallocarray",
    "posix_memalign",
    "aligned_alloc",
    "memalign",
    "valloc",
    "pvalloc",
];

/// Where a path ends in a panic, an abort or an exit, as the engine allows: calls
/// into these (by demangled prefix) are not followed.
const PANIC_MACHINERY: &[&str] = &[
    "core::panicking::",
    "std::panicking::",
    "std::rt::panic",
    "rust_begin_unwind",
    "rust_panic",
    "__rust_start_panic",
    "__rust_alloc_error_handler",
    "__rustc::__rust_alloc_error_handler",
    "alloc::alloc::handle_alloc_error",
    "std::alloc::rust_oom",
    "std::process::abort",
    "std::process::exit",
    "std::sys::pal::unix::abort_internal",
    "_Unwind_",
];

/// One step of a compiled chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledStep {
    /// Demangled, without the hash.
    pub function: String,
    /// Reached through a call by pointer (a `dyn` method, a fn pointer), matched by
    /// its LLVM function type.
    pub through_pointer: bool,
    /// Where the previous step calls this one, from the line tables: the source line
    /// of the call, then the lines of the calls it was inlined into, outermost last.
    /// Empty for the root and where the IR has no line tables.
    pub called_at: Vec<(PathBuf, u32)>,
}

/// The compiled answer for one root.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CompiledReach {
    /// From the root down to the allocator entry point; `None` when the allocator is
    /// not reachable.
    pub allocates: Option<Vec<CompiledStep>>,
    /// Calls by pointer that no address-taken function of the program matches:
    /// `function: type`. Not guessed; counted and named.
    pub unmatched_pointer_calls: Vec<String>,
    /// Functions the compiled graph reached from the root.
    pub functions_reached: usize,
}

/// The module with each symbol's demangled name, and which symbols are cut or are
/// the allocator.
pub struct CompiledProgram {
    module: Module,
    names: HashMap<String, String>,
    /// Per defined function, what its blocks that do not end in a panic do.
    live: HashMap<String, Live>,
}

/// What a function does on its paths that can return: the blocks that end in a
/// panic (a call into the panic machinery, then `unreachable`), and those that
/// lead only to such blocks, are left out with everything they call and take,
/// as the engine skips a block that ends in a `!` call.
#[derive(Default)]
struct Live {
    calls: Vec<String>,
    references: Vec<Reference>,
    indirect_calls: Vec<Signature>,
    /// The debug location of a call of each callee (`Block::call_sites`).
    call_sites: HashMap<String, u32>,
}

/// A node of the search: a function reached and how.
#[derive(Clone)]
struct Parent {
    from: Option<String>,
    through_pointer: bool,
}

impl CompiledProgram {
    pub fn new(module: Module) -> CompiledProgram {
        let names = module
            .functions
            .keys()
            .chain(module.globals.keys())
            .map(|symbol| (symbol.clone(), demangle(symbol)))
            .collect();
        let mut program = CompiledProgram { module, names, live: HashMap::new() };
        program.live = program
            .module
            .functions
            .values()
            .map(|function| (function.symbol.clone(), program.live_part(function)))
            .collect();
        program
    }

    fn live_part(&self, function: &super::ir::Function) -> Live {
        let blocks = &function.blocks;
        let index: HashMap<&str, usize> = blocks.iter().enumerate().map(|(i, b)| (b.label.as_str(), i)).collect();
        let mut doomed: Vec<bool> = blocks
            .iter()
            .map(|block| match block.ends {
                BlockEnd::Resume => true,
                BlockEnd::Unreachable => {
                    block.last_call.as_deref().is_none_or(|callee| self.is_cut(self.module.resolve(callee)))
                }
                BlockEnd::Other => false,
            })
            .collect();
        loop {
            let mut changed = false;
            for (i, block) in blocks.iter().enumerate() {
                if doomed[i] || block.successors.is_empty() {
                    continue;
                }
                if block.successors.iter().all(|s| index.get(s.as_str()).is_some_and(|&j| doomed[j])) {
                    doomed[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut live = Live::default();
        for (block, _) in blocks.iter().zip(&doomed).filter(|(_, doomed)| !**doomed) {
            live.calls.extend(block.calls.iter().cloned());
            live.references.extend(block.references.iter().cloned());
            live.indirect_calls.extend(block.indirect_calls.iter().cloned());
            for (callee, location) in &block.call_sites {
                live.call_sites.entry(callee.clone()).or_insert(*location);
            }
        }
        live
    }

    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The demangled name of a symbol, without its hash.
    pub fn name<'a>(&'a self, symbol: &'a str) -> &'a str {
        self.names.get(symbol).map(String::as_str).unwrap_or(symbol)
    }

    fn is_allocator(&self, symbol: &str) -> bool {
        let name = self.name(symbol);
        let last = name.rsplit("::").next().unwrap_or(name);
        RUST_ALLOCATOR.contains(&last) || C_ALLOCATOR.contains(&symbol)
    }

    fn is_cut(&self, symbol: &str) -> bool {
        let name = self.name(symbol);
        PANIC_MACHINERY.iter().any(|prefix| name.starts_with(prefix))
            || self.module.functions.get(symbol).is_some_and(|f| f.cold_noreturn)
    }

    /// Searches breadth-first from `root` (a symbol) to the allocator. A call by
    /// pointer of type T reaches every function of type T whose address code already
    /// reached takes (directly or through the constants it reads, vtables included).
    pub fn reach(&self, root: &str) -> CompiledReach {
        let module = &self.module;
        let root = module.resolve(root).to_owned();
        let mut parents: HashMap<String, Parent> = HashMap::new();
        let mut queue: VecDeque<String> = VecDeque::new();
        // Signatures called by pointer, with the first function that did.
        let mut pointer_calls: HashMap<Signature, String> = HashMap::new();
        // Address-taken functions not yet matched by a pointer call, by signature.
        let mut taken: HashMap<Signature, Vec<String>> = HashMap::new();
        let mut globals_seen: HashSet<String> = HashSet::new();
        let mut found: Option<String> = None;
        parents.insert(root.clone(), Parent { from: None, through_pointer: false });
        queue.push_back(root);
        let enqueue =
            |symbol: String, parent: Parent, parents: &mut HashMap<String, Parent>, queue: &mut VecDeque<String>| {
                if !parents.contains_key(&symbol) && !self.is_cut(&symbol) {
                    parents.insert(symbol.clone(), parent);
                    queue.push_back(symbol);
                }
            };
        while let Some(symbol) = queue.pop_front() {
            if self.is_allocator(&symbol) {
                found.get_or_insert(symbol);
                continue;
            }
            let Some(function) = self.live.get(&symbol) else { continue };
            for callee in &function.calls {
                let callee = module.resolve(callee).to_owned();
                enqueue(
                    callee,
                    Parent { from: Some(symbol.clone()), through_pointer: false },
                    &mut parents,
                    &mut queue,
                );
            }
            for signature in &function.indirect_calls {
                if pointer_calls.contains_key(signature) {
                    continue;
                }
                pointer_calls.insert(signature.clone(), symbol.clone());
                for target in taken.remove(signature).unwrap_or_default() {
                    enqueue(
                        target,
                        Parent { from: Some(symbol.clone()), through_pointer: true },
                        &mut parents,
                        &mut queue,
                    );
                }
            }
            // Addresses taken by this function, directly or through constants.
            let mut stack: Vec<&str> = function
                .references
                .iter()
                .filter(|r| !r.passed_to.as_deref().is_some_and(|callee| self.is_cut(module.resolve(callee))))
                .map(|r| r.symbol.as_str())
                .collect();
            while let Some(reference) = stack.pop() {
                let reference = module.resolve(reference);
                if let Some(initialiser) = module.globals.get(reference) {
                    if globals_seen.insert(reference.to_owned()) {
                        stack.extend(initialiser.iter().map(String::as_str));
                    }
                    continue;
                }
                let Some(target) = module.functions.get(reference) else { continue };
                match pointer_calls.get(&target.signature) {
                    Some(caller) => enqueue(
                        reference.to_owned(),
                        Parent { from: Some(caller.clone()), through_pointer: true },
                        &mut parents,
                        &mut queue,
                    ),
                    None => taken.entry(target.signature.clone()).or_default().push(reference.to_owned()),
                }
            }
        }
        let mut unmatched_pointer_calls: Vec<String> = pointer_calls
            .iter()
            .filter(|(signature, _)| {
                !module.functions.values().any(|f| &f.signature == *signature && parents.contains_key(&f.symbol))
                    && !taken.contains_key(*signature)
            })
            .map(|(signature, caller)| format!("{}: {signature}", self.name(caller)))
            .collect();
        unmatched_pointer_calls.sort();
        let allocates = found.map(|end| {
            let mut chain = Vec::new();
            let mut at = Some(end);
            while let Some(symbol) = at {
                let parent = parents[&symbol].clone();
                let called_at = parent
                    .from
                    .as_ref()
                    .and_then(|caller| {
                        let key = if parent.through_pointer {
                            pointer_call_key(&self.module.functions.get(&symbol)?.signature)
                        } else {
                            symbol.clone()
                        };
                        self.live.get(caller)?.call_sites.get(&key).copied()
                    })
                    .map(|location| self.module.source_lines(location))
                    .unwrap_or_default();
                chain.push(CompiledStep {
                    function: self.name(&symbol).to_owned(),
                    through_pointer: parent.through_pointer,
                    called_at,
                });
                at = parent.from;
            }
            chain.reverse();
            chain
        });
        CompiledReach { allocates, unmatched_pointer_calls, functions_reached: parents.len() }
    }
}

/// A symbol's demangled name without the hash (`example::handle`), or the symbol.
pub fn demangle(symbol: &str) -> String {
    match rustc_demangle::try_demangle(symbol) {
        Ok(demangled) => format!("{demangled:#}"),
        Err(_) => symbol.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> CompiledProgram {
        CompiledProgram::new(Module::parse(text))
    }

    const DYN_WRITE: &str = r#"
@string_vtable = private constant <{ ptr, ptr }> <{ ptr @drop, ptr @string_write_str }>
@buffer_vtable = private constant <{ ptr, ptr }> <{ ptr @drop, ptr @buffer_write_str }>

define i1 @string_write_str(ptr %0, ptr %1, i64 %2) {
  %4 = call ptr @__rust_alloc(i64 %2, i64 1)
  ret i1 false
}
define i1 @buffer_write_str(ptr %0, ptr %1, i64 %2) {
  ret i1 false
}
define i1 @fmt_write(ptr %0, ptr %1) {
  %3 = load ptr, ptr %1
  %4 = call i1 %3(ptr %0, ptr null, i64 3)
  %5 = call i1 %3(ptr %0)
  ret i1 %4
}
define void @to_buffer(ptr %0) {
  %2 = call i1 @fmt_write(ptr %0, ptr @buffer_vtable)
  ret void
}
define void @to_string(ptr %0) {
  %2 = call i1 @fmt_write(ptr %0, ptr @string_vtable)
  ret void
}
define void @panics_with_a_string(ptr %0) {
  call void @_ZN4core9panicking9panic_fmt17h0123456789abcdefE(ptr @string_vtable)
  %2 = call i1 @fmt_write(ptr %0, ptr null)
  ret void
}
declare ptr @__rust_alloc(i64, i64)
declare void @_ZN4core9panicking9panic_fmt17h0123456789abcdefE(ptr)
"#;

    #[test]
    fn a_pointer_call_reaches_only_the_functions_whose_address_the_root_takes() {
        let program = program(DYN_WRITE);
        assert_eq!(program.reach("to_buffer").allocates, None);
        let chain = program.reach("to_string").allocates.expect("String's write_str allocates");
        let names: Vec<_> = chain.iter().map(|s| (s.function.as_str(), s.through_pointer)).collect();
        assert!(chain.iter().all(|step| step.called_at.is_empty()), "no line tables here");
        assert_eq!(
            names,
            [("to_string", false), ("fmt_write", false), ("string_write_str", true), ("__rust_alloc", false)]
        );
        assert_eq!(program.reach("to_buffer").unmatched_pointer_calls, ["fmt_write: i1 (ptr)"]);
    }

    #[test]
    fn panic_machinery_is_cut_with_the_addresses_it_takes() {
        let program = program(DYN_WRITE);
        assert_eq!(program.reach("panics_with_a_string").allocates, None);
    }
}
