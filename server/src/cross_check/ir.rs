//! Reading the call graph out of LLVM IR text (`--emit=llvm-ir`): each function's
//! basic blocks with their direct callees, the symbols they refer to otherwise
//! (whose address they take), the types of their indirect calls and their
//! successors; each global's references (vtables, tables of pointers); aliases.
//! Knows nothing of Rust or the allocator: `reach` does.

use std::collections::HashMap;

/// An LLVM function type as written, without attributes: `i1 (ptr, ptr, i64)`.
/// Indirect calls are matched to address-taken functions by it.
pub type Signature = String;

/// One defined or declared function.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Function {
    pub symbol: String,
    pub signature: Signature,
    /// Has a body (`define`), as opposed to a `declare`.
    pub defined: bool,
    /// Marked both `noreturn` and `cold`: a panic or abort path.
    pub cold_noreturn: bool,
    /// The body, entry block first.
    pub blocks: Vec<Block>,
}

/// A basic block.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Block {
    /// `%7` or `%bb3` as branches name it; empty for an unnamed entry block.
    pub label: String,
    /// Symbols called by name (`call`/`invoke` of `@f`), in order, repeats kept out.
    pub calls: Vec<String>,
    /// Symbols named anywhere else in the body (globals it reads, functions whose
    /// address it takes), each with the function called by name on its line, if
    /// any: what is only passed to a panic is not taken by the program.
    pub references: Vec<Reference>,
    /// The types of its calls through a pointer.
    pub indirect_calls: Vec<Signature>,
    /// The blocks it may branch to (`label %x`), unwind destinations included.
    pub successors: Vec<String>,
    /// Ends in `unreachable` (after its last call, `last_call`) or `resume`.
    pub ends: BlockEnd,
    /// The last function called by name in the block.
    pub last_call: Option<String>,
    /// The debug location (`!dbg !N`) of the first call of each callee: its symbol,
    /// or `(ptr) ` and the type for a call by pointer.
    pub call_sites: Vec<(String, u32)>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum BlockEnd {
    /// `ret`, a branch, or not seen.
    #[default]
    Other,
    Unreachable,
    /// Unwinding goes on: a panic in progress.
    Resume,
}

/// A symbol a body names outside a callee position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub symbol: String,
    /// The function called by name on the same line (the reference is one of its
    /// arguments).
    pub passed_to: Option<String>,
}

/// The call graph of one IR module.
#[derive(Debug, Default)]
pub struct Module {
    pub functions: HashMap<String, Function>,
    /// Global variables and constants: the symbols their initialisers name, in order.
    pub globals: HashMap<String, Vec<String>>,
    /// `@a = alias ..., ptr @b`: a -> b.
    pub aliases: HashMap<String, String>,
    /// Debug metadata (`!N = !DILocation(..)`, scopes, files), when the module has
    /// line tables.
    pub debug: HashMap<u32, DebugNode>,
}

/// The debug metadata a call's source lines are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DebugNode {
    /// A source position; `inlined_at` is the position of the call it was inlined into.
    Location {
        line: u32,
        scope: u32,
        inlined_at: Option<u32>,
    },
    /// A function or lexical block: the file it is in.
    Scope {
        file: u32,
    },
    File {
        path: std::path::PathBuf,
    },
}

/// The key of a call by pointer of type `signature` in `Block::call_sites`.
pub fn pointer_call_key(signature: &str) -> String {
    format!("(ptr) {signature}")
}

impl Module {
    /// Reads a module's text. Lines it does not understand are skipped: the graph
    /// only needs definitions, calls and references.
    pub fn parse(text: &str) -> Module {
        let mut module = Module::default();
        let mut attribute_groups: HashMap<String, String> = HashMap::new();
        let mut pending_attributes: Vec<(String, String)> = Vec::new();
        let mut current: Option<Function> = None;
        for line in text.lines() {
            if let Some(function) = current.as_mut() {
                if line.starts_with('}') {
                    let done = current.take().expect("inside a function");
                    module.functions.insert(done.symbol.clone(), done);
                } else if let Some(label) = block_label(line) {
                    function.blocks.push(Block { label, ..Block::default() });
                } else {
                    if function.blocks.is_empty() {
                        function.blocks.push(Block::default());
                    }
                    let block = function.blocks.last_mut().expect("a block");
                    read_instruction(line.trim_start(), block);
                }
                continue;
            }
            if line.starts_with("define ") || line.starts_with("declare ") {
                let Some((function, group)) = read_header(line) else { continue };
                if let Some(group) = group {
                    pending_attributes.push((function.symbol.clone(), group));
                }
                if function.defined {
                    current = Some(function);
                } else {
                    module.functions.entry(function.symbol.clone()).or_insert(function);
                }
            } else if line.starts_with("attributes #") {
                if let Some((name, body)) = line["attributes ".len()..].split_once(" = ") {
                    attribute_groups.insert(name.to_owned(), body.to_owned());
                }
            } else if line.starts_with('@') {
                read_global(line, &mut module);
            } else if line.starts_with('!') {
                read_debug(line, &mut module.debug);
            }
        }
        for (symbol, group) in pending_attributes {
            let Some(body) = attribute_groups.get(&group) else { continue };
            let words: Vec<&str> = body.trim_matches(|c| c == '{' || c == '}' || c == ' ').split_whitespace().collect();
            if words.contains(&"noreturn") && words.contains(&"cold") {
                if let Some(function) = module.functions.get_mut(&symbol) {
                    function.cold_noreturn = true;
                }
            }
        }
        module
    }

    /// The source lines of a call at debug location `location`: its own, then the
    /// lines of the calls it was inlined into, outermost last.
    pub fn source_lines(&self, location: u32) -> Vec<(std::path::PathBuf, u32)> {
        let mut lines = Vec::new();
        let mut at = Some(location);
        while let Some(Some(DebugNode::Location { line, scope, inlined_at })) = at.map(|id| self.debug.get(&id)) {
            if let (Some(DebugNode::Scope { file }), true) = (self.debug.get(scope), lines.len() < 64) {
                if let Some(DebugNode::File { path }) = self.debug.get(file) {
                    lines.push((path.clone(), *line));
                }
            }
            at = *inlined_at;
        }
        lines
    }

    /// Follows aliases to the symbol that has the body.
    pub fn resolve<'a>(&'a self, mut symbol: &'a str) -> &'a str {
        for _ in 0..16 {
            match self.aliases.get(symbol) {
                Some(target) => symbol = target,
                None => break,
            }
        }
        symbol
    }
}

/// `@name = ... global|constant <init>` or `@name = ... alias <ty>, ptr @target`.
fn read_global(line: &str, module: &mut Module) {
    let Some((name, rest)) = symbol_at(line, 0) else { return };
    let Some(rest) = line.get(rest..).and_then(|r| r.strip_prefix(" = ")) else { return };
    // In order and with repeats: the harness's table of roots is read by position.
    let mut references: Vec<String> = Vec::new();
    scan_symbols(rest, |symbol, _| {
        if symbol != name {
            references.push(symbol.to_owned());
        }
    });
    if rest.split_whitespace().any(|word| word == "alias") {
        if let Some(target) = references.last() {
            module.aliases.insert(name.to_owned(), target.clone());
        }
    } else {
        module.globals.insert(name.to_owned(), references);
    }
}

/// The header of a `define`/`declare`: the function and its attribute group (`#3`).
fn read_header(line: &str) -> Option<(Function, Option<String>)> {
    let defined = line.starts_with("define ");
    let at = find_top_level_symbol(line)?;
    let (symbol, after) = symbol_at(line, at)?;
    let ret = last_type(&line[..at]);
    let close = matching_close(line, after)?;
    let params: Vec<String> = split_top_level(&line[after + 1..close])
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| if p == "..." { p.to_owned() } else { leading_type(p) })
        .collect();
    let tail = &line[close + 1..];
    let group = tail.split_whitespace().find(|w| w.starts_with('#')).map(str::to_owned);
    let signature = format!("{ret} ({})", params.join(", "));
    Some((Function { symbol: symbol.to_owned(), signature, defined, ..Function::default() }, group))
}

/// `7:` or `bb3:` (with its `; preds` comment) opening a block: its name as
/// branches write it.
fn block_label(line: &str) -> Option<String> {
    if line.starts_with([' ', ';']) || line.is_empty() {
        return None;
    }
    let end = name_end(line.as_bytes(), 0);
    (end > 0 && line.as_bytes().get(end) == Some(&b':')).then(|| format!("%{}", &line[..end]))
}

/// One line of a body, into its block.
fn read_instruction(line: &str, block: &mut Block) {
    if line.starts_with(';') || line.starts_with("#dbg") {
        return;
    }
    if line.starts_with("unreachable") {
        block.ends = BlockEnd::Unreachable;
    } else if line.starts_with("resume ") {
        block.ends = BlockEnd::Resume;
    }
    let mut rest = line;
    while let Some(at) = rest.find("label %") {
        let start = at + "label ".len();
        let end = name_end(rest.as_bytes(), start + 1);
        let label = &rest[start..end];
        if !block.successors.iter().any(|s| s == label) {
            block.successors.push(label.to_owned());
        }
        rest = &rest[end..];
    }
    let call = call_keyword(line);
    let mut callee_start = None;
    let mut direct_callee = None;
    if let Some(keyword_end) = call {
        // The callee is the first `@f(` or `%r(` after the keyword.
        if let Some((start, name_end, direct)) = callee_after(line, keyword_end) {
            callee_start = Some(start);
            if direct {
                let name = unquote(&line[start + 1..name_end]);
                if !name.starts_with("llvm.") && !block.calls.iter().any(|c| c == name) {
                    block.calls.push(name.to_owned());
                }
                direct_callee = Some(name.to_owned());
                if let Some(location) = debug_location(line) {
                    if !block.call_sites.iter().any(|(callee, _)| callee == name) {
                        block.call_sites.push((name.to_owned(), location));
                    }
                }
                if !name.starts_with("llvm.") {
                    block.last_call = Some(name.to_owned());
                }
            } else if let Some(close) = matching_close(line, name_end) {
                let ret = last_type(&line[keyword_end..start]);
                let params: Vec<String> = split_top_level(&line[name_end + 1..close])
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .map(leading_type)
                    .collect();
                let signature = format!("{ret} ({})", params.join(", "));
                if let Some(location) = debug_location(line) {
                    let key = pointer_call_key(&signature);
                    if !block.call_sites.iter().any(|(callee, _)| *callee == key) {
                        block.call_sites.push((key, location));
                    }
                }
                if !block.indirect_calls.contains(&signature) {
                    block.indirect_calls.push(signature);
                }
            }
        }
    }
    scan_symbols(line, |symbol, at| {
        if Some(at) == callee_start || symbol.starts_with("llvm.") {
            return;
        }
        if !block.references.iter().any(|r| r.symbol == symbol && r.passed_to == direct_callee) {
            block.references.push(Reference { symbol: symbol.to_owned(), passed_to: direct_callee.clone() });
        }
    });
}

/// The `!dbg !N` of an instruction.
fn debug_location(line: &str) -> Option<u32> {
    let at = line.rfind("!dbg !")? + "!dbg !".len();
    let digits: String = line[at..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// `!N = [distinct] !DILocation(..)`, a scope, or a `!DIFile(..)`.
fn read_debug(line: &str, debug: &mut HashMap<u32, DebugNode>) {
    let Some((id, body)) = line[1..].split_once(" = ") else { return };
    let Ok(id) = id.parse::<u32>() else { return };
    let body = body.strip_prefix("distinct ").unwrap_or(body);
    let node = if body.starts_with("!DILocation(") {
        let (Some(line), Some(scope)) = (number_field(body, "line"), reference_field(body, "scope")) else { return };
        DebugNode::Location { line, scope, inlined_at: reference_field(body, "inlinedAt") }
    } else if body.starts_with("!DISubprogram(") || body.starts_with("!DILexicalBlock") {
        let Some(file) = reference_field(body, "file") else { return };
        DebugNode::Scope { file }
    } else if body.starts_with("!DIFile(") {
        let (Some(name), Some(directory)) = (string_field(body, "filename"), string_field(body, "directory")) else {
            return;
        };
        DebugNode::File { path: std::path::Path::new(directory).join(name) }
    } else {
        return;
    };
    debug.insert(id, node);
}

/// Where the value of `name: ` starts in a metadata node's field list.
fn field_start(body: &str, name: &str) -> Option<usize> {
    for separator in ["(", ", "] {
        let needle = format!("{separator}{name}: ");
        if let Some(at) = body.find(&needle) {
            return Some(at + needle.len());
        }
    }
    None
}

fn number_field(body: &str, name: &str) -> Option<u32> {
    let start = field_start(body, name)?;
    body[start..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

fn reference_field(body: &str, name: &str) -> Option<u32> {
    let start = field_start(body, name)?;
    body[start..].strip_prefix('!')?.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

fn string_field<'a>(body: &'a str, name: &str) -> Option<&'a str> {
    let start = field_start(body, name)?;
    let rest = body[start..].strip_prefix('"')?;
    rest.split_once('"').map(|(value, _)| value)
}

/// Where a `call` or `invoke` instruction's keyword ends, if the line is one.
fn call_keyword(line: &str) -> Option<usize> {
    let mut offset = 0;
    let mut rest = line;
    if rest.starts_with('%') {
        let eq = rest.find(" = ")?;
        offset = eq + 3;
        rest = &rest[eq + 3..];
    }
    for prefix in ["tail ", "musttail ", "notail "] {
        if let Some(stripped) = rest.strip_prefix(prefix) {
            offset += prefix.len();
            rest = stripped;
        }
    }
    ["call ", "invoke "].iter().find(|k| rest.starts_with(**k)).map(|k| offset + k.len())
}

/// The callee of a call: (start of `@`/`%`, end of its name, whether it is `@`).
fn callee_after(line: &str, from: usize) -> Option<(usize, usize, bool)> {
    let bytes = line.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_quoted(bytes, i),
            b'@' | b'%' => {
                let end = name_end(bytes, i + 1);
                if bytes.get(end) == Some(&b'(') {
                    return Some((i, end, bytes[i] == b'@'));
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
    None
}

/// Calls `found(symbol, position of '@')` for every `@symbol` on the line, outside
/// string constants.
fn scan_symbols(line: &str, mut found: impl FnMut(&str, usize)) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_quoted(bytes, i),
            b'@' => {
                let end = name_end(bytes, i + 1);
                if end > i + 1 {
                    found(unquote(&line[i + 1..end]), i);
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
}

/// The symbol at `at` (which holds `@`) and the index just past it.
fn symbol_at(line: &str, at: usize) -> Option<(&str, usize)> {
    let bytes = line.as_bytes();
    if bytes.get(at) != Some(&b'@') {
        return None;
    }
    let end = name_end(bytes, at + 1);
    (end > at + 1).then(|| (unquote(&line[at + 1..end]), end))
}

/// The first `@` of a header that is not inside a quoted string: the function's name.
fn find_top_level_symbol(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_quoted(bytes, i),
            b'@' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The end of a name that starts at `start`: `"quoted"` or `[-a-zA-Z$._0-9]+`.
fn name_end(bytes: &[u8], start: usize) -> usize {
    if bytes.get(start) == Some(&b'"') {
        return skip_quoted(bytes, start);
    }
    let mut end = start;
    while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || b"-$._".contains(&bytes[end])) {
        end += 1;
    }
    end
}

/// The index past the closing quote of the string opening at `start`.
fn skip_quoted(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() && bytes[i] != b'"' {
        i += 1;
    }
    i + 1
}

fn unquote(name: &str) -> &str {
    name.strip_prefix('"').and_then(|n| n.strip_suffix('"')).unwrap_or(name)
}

/// The index of the `)`, `}`, `]` or `>` closing the bracket at `open`.
fn matching_close(line: &str, open: usize) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = skip_quoted(bytes, i);
                continue;
            }
            b'(' | b'{' | b'[' | b'<' => depth += 1,
            b')' | b'}' | b']' | b'>' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Splits an argument or parameter list at its top-level commas, trimmed.
fn split_top_level(list: &str) -> Vec<&str> {
    let bytes = list.as_bytes();
    let mut parts = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = skip_quoted(bytes, i);
                continue;
            }
            b'(' | b'{' | b'[' | b'<' => depth += 1,
            b')' | b'}' | b']' | b'>' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                parts.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(list[start..].trim());
    parts
}

/// The type an operand or parameter starts with: `ptr`, `i64`, `{ i64, i64 }`.
fn leading_type(operand: &str) -> String {
    let operand = operand.trim_start();
    if operand.starts_with(['{', '[', '<']) {
        if let Some(close) = matching_close(operand, 0) {
            return operand[..=close].to_owned();
        }
    }
    let word = operand.split_whitespace().next().unwrap_or("");
    if word == "ptr" && operand[3..].trim_start().starts_with("addrspace(") {
        let rest = &operand[3..];
        if let Some(end) = rest.find(')') {
            return format!("ptr{}", &rest[..=end]);
        }
    }
    word.to_owned()
}

/// The last type in `text` (the return type before a function's name).
fn last_type(text: &str) -> String {
    let text = text.trim_end();
    if text.ends_with(['}', ']', '>']) {
        let bytes = text.as_bytes();
        let mut depth = 0usize;
        for i in (0..bytes.len()).rev() {
            match bytes[i] {
                b'}' | b']' | b'>' | b')' => depth += 1,
                b'{' | b'[' | b'<' | b'(' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        let start = if i > 0 && bytes[i - 1] == b'<' { i - 1 } else { i };
                        return text[start..].to_owned();
                    }
                }
                _ => {}
            }
        }
    }
    text.split_whitespace().last().unwrap_or("").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = r#"
@vtable = private unnamed_addr constant <{ ptr, [16 x i8], ptr }> <{ ptr @drop, [16 x i8] c"@not_a_symbol\00\00\00", ptr @"write$str" }>, align 8
@merged = internal unnamed_addr alias i1 (ptr, ptr, i64), ptr @"write$str"

define internal noundef zeroext i1 @"write$str"(ptr noalias noundef align 8 %0, ptr noundef nonnull readonly align 1 %1, i64 noundef %2) unnamed_addr #1 {
  %4 = tail call fastcc noundef ptr @__rust_alloc(i64 noundef %2, i64 noundef 1) #5
  ret i1 false
}

define internal { i64, ptr } @root(ptr %0, ptr %1) unnamed_addr #1 personality ptr @rust_eh_personality {
start:
  store ptr @vtable, ptr %0, align 8
  %5 = load ptr, ptr %1, align 8
  %6 = call noundef zeroext i1 %5(ptr noundef nonnull align 1 %0, ptr noalias noundef nonnull readonly align 1 %1, i64 noundef 3) #9, !dbg !12
  call void @panic_cold(ptr @vtable), !dbg !14
  invoke void @panic_cold(ptr @vtable) #9
          to label %ok unwind label %cleanup

ok:                                               ; preds = %start
  call void @panic_cold(ptr null)
  unreachable
}

declare void @panic_cold(ptr) unnamed_addr #2
declare noalias ptr @__rust_alloc(i64, i64 allocalign) unnamed_addr #3

attributes #1 = { nonlazybind uwtable }
!10 = !DIFile(filename: "src/lib.rs", directory: "/ws")
!11 = distinct !DISubprogram(name: "helper", scope: !10, file: !10, line: 3, scopeLine: 3)
!12 = !DILocation(line: 5, column: 9, scope: !11, inlinedAt: !13)
!13 = distinct !DILocation(line: 17, column: 5, scope: !15)
!14 = !DILocation(line: 18, column: 1, scope: !15)
!15 = distinct !DILexicalBlock(scope: !11, file: !10, line: 16, column: 5)
attributes #2 = { cold noinline noreturn nonlazybind uwtable }
"#;

    #[test]
    fn reads_calls_references_indirect_types_and_aliases() {
        let module = Module::parse(MODULE);
        let root = &module.functions["root"];
        assert_eq!(root.signature, "{ i64, ptr } (ptr, ptr)");
        let start = &root.blocks[0];
        assert_eq!(start.label, "%start");
        assert_eq!(start.calls, ["panic_cold"]);
        let references: Vec<_> = start.references.iter().map(|r| (r.symbol.as_str(), r.passed_to.as_deref())).collect();
        assert_eq!(references, [("vtable", None), ("vtable", Some("panic_cold"))]);
        assert_eq!(start.indirect_calls, ["i1 (ptr, ptr, i64)"]);
        assert_eq!(start.successors, ["%ok", "%cleanup"]);
        assert_eq!(root.blocks[1].ends, BlockEnd::Unreachable);
        assert_eq!(root.blocks[1].last_call.as_deref(), Some("panic_cold"));
        let write_str = &module.functions["write$str"];
        assert_eq!(write_str.signature, "i1 (ptr, ptr, i64)");
        assert_eq!(write_str.blocks[0].label, "");
        assert_eq!(write_str.blocks[0].calls, ["__rust_alloc"]);
        assert!(write_str.defined && !module.functions["__rust_alloc"].defined);
        assert!(module.functions["panic_cold"].cold_noreturn && !root.cold_noreturn);
        assert_eq!(module.globals["vtable"], ["drop", "write$str"]);
        assert_eq!(module.resolve("merged"), "write$str");
        assert_eq!(start.call_sites, [(pointer_call_key("i1 (ptr, ptr, i64)"), 12), ("panic_cold".to_owned(), 14)]);
        let lines: Vec<_> =
            module.source_lines(12).into_iter().map(|(file, line)| (file.display().to_string(), line)).collect();
        assert_eq!(lines, [("/ws/src/lib.rs".to_owned(), 5), ("/ws/src/lib.rs".to_owned(), 17)]);
    }
}
