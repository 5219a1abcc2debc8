//! Inline assembly: whether an `asm!` block can leave its own instructions. A
//! block whose template (read from the source) has no call, jump, return, trap
//! into the kernel or directive, and whose operands name no symbol (`sym`) and no
//! Rust block (`label`), runs its instructions and falls through: it cannot reach
//! the allocator. Mnemonics are read for x86-64 and AArch64 at once (a branch of
//! either is a branch); anything the reader does not understand can leave.

use hir_def::{
    expr_store::Body,
    hir::{AsmOperand, ExprId, InlineAsm, InlineAsmKind},
    DefWithBodyId,
};
use hir_ty::db::HirDatabase;
use ra_ap_syntax::ast;

/// Whether the `asm!` block `expr` of `owner`'s body only runs its own
/// instructions and falls through.
pub(crate) fn stays_inside(db: &dyn HirDatabase, owner: DefWithBodyId, expr: ExprId, asm: &InlineAsm) -> bool {
    if asm.kind != InlineAsmKind::Asm {
        return false;
    }
    if asm.operands.iter().any(|(_, operand)| matches!(operand, AsmOperand::Sym(_) | AsmOperand::Label(_))) {
        return false;
    }
    template(db, owner, expr).is_some_and(|text| template_stays_inside(&text))
}

/// The template of the `asm!` block `expr`, its string pieces joined by newlines
/// (as the compiler joins them); `None` when a piece is not a string literal
/// (`concat!`, a `const`).
fn template(db: &dyn HirDatabase, owner: DefWithBodyId, expr: ExprId) -> Option<String> {
    let (_, source_map) = Body::with_source_map(db, owner);
    let source = source_map.expr_syntax(expr).ok()?;
    let root = source.file_id.parse_or_expand(db);
    let node = source.value.to_node(&root).left()?;
    let ast::Expr::AsmExpr(asm) = node else { return None };
    let mut pieces = Vec::new();
    for piece in asm.template() {
        let ast::Expr::Literal(literal) = piece else { return None };
        let ast::LiteralKind::String(string) = literal.kind() else { return None };
        pieces.push(string.value().ok()?.into_owned());
    }
    (!pieces.is_empty()).then(|| pieces.join("\n"))
}

/// Whether every statement of a template is an instruction that falls through.
fn template_stays_inside(text: &str) -> bool {
    text.split(['\n', ';']).all(statement_stays_inside)
}

/// Prefixes that stand before an x86 mnemonic.
const PREFIXES: &[&str] = &[
    "lock", "rep", "repe", "repz", "repne", "repnz", "data16", "data32", "addr32", "notrack", "bnd", "xacquire",
    "xrelease",
];

/// One statement: comments and labels stripped, then an instruction whose
/// mnemonic falls through (no placeholder in its place, no directive).
fn statement_stays_inside(statement: &str) -> bool {
    let mut code = statement;
    for comment in ["//", "#"] {
        if let Some(at) = code.find(comment) {
            code = &code[..at];
        }
    }
    if code.contains("/*") {
        return false;
    }
    let mut words = code.split_whitespace().peekable();
    // Labels (`1:`, `loop_top:`): a name to jump to, which no jump here uses.
    while let Some(word) = words.peek() {
        match word.strip_suffix(':') {
            Some(label) if !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                words.next();
            }
            _ => break,
        }
    }
    let Some(mut mnemonic) = words.next() else { return true };
    while PREFIXES.contains(&mnemonic.to_ascii_lowercase().as_str()) {
        let Some(next) = words.next() else { return true };
        mnemonic = next;
    }
    let mnemonic = mnemonic.to_ascii_lowercase();
    let plain = !mnemonic.is_empty()
        && mnemonic.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && mnemonic.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    plain && !transfers_control(&mnemonic)
}

/// x86-64 and AArch64 mnemonics that may go elsewhere than the next instruction:
/// calls, jumps, branches, returns, loops, system calls and traps, transactions
/// that resume elsewhere, enclave and VM exits.
fn transfers_control(mnemonic: &str) -> bool {
    const EXACT: &[&str] = &[
        // x86-64
        "lcall", "ljmp", "lret", "syscall", "sysenter", "sysexit", "sysret", "sysretq", "xbegin", "vmcall", "vmmcall",
        "vmlaunch", "vmresume", "vmrun", "enclu", "encls", "enclv", "tdcall", "seamcall", "rsm", "uiret",
        // AArch64
        "b", "bl", "br", "blr", "cbz", "cbnz", "tbz", "tbnz", "svc", "hvc", "smc",
    ];
    const PREFIXED: &[&str] = &[
        // x86-64: `jmp`, every `jcc`, `call*`, `ret*`, `loop*`, `int`/`int3`/`into`, `iret*`
        "j", "call", "ret", "loop", "int", "iret",
        // AArch64: `b.cond`, `bc.cond`, pointer-authenticated branches, `eret*`, compare-and-branch
        "b.", "bc.", "braa", "brab", "blraa", "blrab", "eret", "cb",
    ];
    EXACT.contains(&mnemonic) || PREFIXED.iter().any(|prefix| mnemonic.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::template_stays_inside;

    #[test]
    fn instructions_that_fall_through_stay_inside() {
        assert!(template_stays_inside("mov {0}, {1}"));
        assert!(template_stays_inside("lea {y}, [{x} + 1]"));
        assert!(template_stays_inside("cpuid"));
        assert!(template_stays_inside("xor eax, eax\nlock xadd [{p}], {v}\n2: add {x}, 1 # comment"));
        assert!(template_stays_inside("add {0}, {1}, #1; eor x0, x0, x1 // aarch64"));
        assert!(template_stays_inside("bic {0}, {0}, {1}\nbfi {0}, {1}, #4, #4\nrdtsc\nvmovdqa ymm0, ymm1"));
        assert!(template_stays_inside(""));
    }

    #[test]
    fn calls_jumps_directives_and_placeholders_leave() {
        for leaves in [
            "call {f}",
            "mov rax, 1\njmp 2f\n2:",
            "test eax, eax; jnz 1b",
            "ret",
            "syscall",
            "int3",
            "notrack call rax",
            "bl {f}",
            "blr x8",
            "b.ne 1b",
            "cbz x0, 1f",
            "svc #0",
            ".byte 0xe8, 0, 0, 0, 0",
            "{op} rax",
            "mov rax, 1 /* */ call rax",
            "loop 1b",
        ] {
            assert!(!template_stays_inside(leaves), "{leaves}");
        }
    }
}
